// The replay toolbar shown while a recording is open (play/pause, a time slider that seeks while
// scrubbing, speed, position) and the File menu's recording actions (open; export as CSV, JSON Lines,
// a Chrome/Perfetto trace or TensorBoard event files, on a worker thread with progress and Cancel).
#pragma once

#include <QToolBar>

#include "engine/telemetry/export_file.h"

class QComboBox;
class QLabel;
class QMenu;
class QSlider;

namespace syncscope::ui {

class ReplayController;

class ReplayBar : public QToolBar {
    Q_OBJECT

public:
    explicit ReplayBar(ReplayController& controller, QWidget* parent = nullptr);

    // Adds "Open recording…" and "Export" → CSV…, JSON Lines…, Trace…, TensorBoard… to `file`.
    void addRecordingActions(QMenu* file);
    // Shown with its controls and the exports enabled while replaying; rereads the duration.
    void setReplayMode(bool replay);

signals:
    void openRequested(const QString& path);
    // After an export: `error` is empty on success, and then `done` says what was written.
    void outcome(const QString& error, const QString& done);

private:
    void exportRecording(const QString& title, const QString& filter, const QString& suffix);
    void exportTensorBoard();
    void startExport(engine::ExportFormat format, const QString& output);
    void showPosition(double seconds);
    void showPlaying(bool playing);

    ReplayController& m_controller;
    QAction* m_play;
    QList<QAction*> m_exports;
    QSlider* m_slider;
    QComboBox* m_speed;
    QLabel* m_time;
};

}  // namespace syncscope::ui
