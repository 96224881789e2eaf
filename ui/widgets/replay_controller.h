// Replays a run recording into a TelemetryStore: seek to any time, play at 0.25×–16×, and export
// the open recording with the engine's exporters (CSV, JSON Lines, trace, TensorBoard). Qt Core only, no widgets.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>
#include <vector>

#include "engine/telemetry/export_file.h"
#include "engine/telemetry/recording_reader.h"
#include "ui/model/telemetry_store.h"

namespace syncscope::ui {

struct ReplayLoad {
    bool opened = false;
    QString message;  // why it failed, or a warning (a cut-off tail) when it opened; empty: all read
};

class ReplayController : public QObject {
    Q_OBJECT

public:
    static constexpr double kMinSpeed = 0.25;
    static constexpr double kMaxSpeed = 16.0;

    explicit ReplayController(TelemetryStore& store, QObject* parent = nullptr);

    // Replaces any open recording; on success the store shows the whole run (position = duration).
    ReplayLoad load(const QString& path);
    // The same for a recording read elsewhere (a RecordingTask's thread): `read` is what
    // engine::readRecording(path) returned.
    ReplayLoad adopt(const QString& path, engine::Result<engine::Recording> read);
    void close();  // and empties the store it was feeding
    bool isOpen() const { return m_open; }
    QString path() const { return m_path; }

    double duration() const;  // the last tick's time_s
    double position() const { return m_position; }
    double speed() const { return m_speed; }
    bool isPlaying() const { return m_timer.isActive(); }
    qsizetype ticksShown() const { return m_shown; }

    void seek(double timeSeconds);
    void play();
    void pause();
    void setSpeed(double speed);  // clamped to [kMinSpeed, kMaxSpeed]

    // CSV (.csv), JSON Lines (.jsonl) or a Chrome/Perfetto trace (.json) by the path's suffix.
    // Empty on success, else a message for the person.
    QString exportRecording(const QString& path) const;

    // Exports the recording file `recording` (any thread): `format` into `output` (a file, or for
    // TfEvents a folder), reporting and cancelled through `progress`. Empty on success, else a message.
    static QString exportFile(const QString& recording, engine::ExportFormat format, const QString& output,
                              const engine::ExportProgress& progress = {});
    // The format a file name asks for by its suffix; empty if none.
    static std::optional<engine::ExportFormat> formatForPath(const QString& path);

signals:
    void positionChanged(double seconds);
    void playingChanged(bool playing);

private:
    void advance();
    void rebuild(double timeSeconds);

    TelemetryStore& m_store;
    QTimer m_timer;
    engine::Recording m_recording;
    std::vector<wire::Tick> m_ticks;           // in time order, each with the Event records since the previous one
    std::vector<wire::Event> m_trailingEvents;  // after the last tick (the stop, the final evaluation)
    QString m_path;
    bool m_open = false;
    double m_position = 0.0;
    double m_speed = 1.0;
    qsizetype m_shown = 0;  // ticks now in the store
};

}  // namespace syncscope::ui
