// ReplayController (see replay_controller.h). Exports stream from the recording file through the
// engine's exporters, the same code as `syncscope-engine export`.
#include "ui/widgets/replay_controller.h"

#include <QFileInfo>

#include <algorithm>
#include <sstream>

namespace syncscope::ui {

namespace {
constexpr int kStepMs = 40;  // one playback step per repaint of the coalescing timer
}  // namespace

ReplayController::ReplayController(TelemetryStore& store, QObject* parent) : QObject(parent), m_store(store) {
    m_timer.setInterval(kStepMs);
    connect(&m_timer, &QTimer::timeout, this, &ReplayController::advance);
}

ReplayLoad ReplayController::load(const QString& path) { return adopt(path, engine::readRecording(path.toStdString())); }

ReplayLoad ReplayController::adopt(const QString& path, engine::Result<engine::Recording> read) {
    close();
    if (!read) return {false, tr("Cannot open recording %1: %2").arg(path, QString::fromStdString(read.status().message()))};
    m_recording = std::move(read).value();
    // Ticks repeat the events since the previous tick, and every event is also a record of its own:
    // keep the records, attached to the tick that follows them, so none is shown twice.
    std::vector<wire::Event> pending;
    for (const wire::Record& record : m_recording.records) {
        if (record.has_event()) pending.push_back(record.event());
        if (!record.has_tick()) continue;
        wire::Tick tick = record.tick();
        tick.clear_events();
        for (wire::Event& event : pending) *tick.add_events() = std::move(event);
        pending.clear();
        m_ticks.push_back(std::move(tick));
    }
    if (m_ticks.empty()) {
        close();
        return {false, tr("The recording %1 holds no telemetry ticks: nothing to replay.").arg(path)};
    }
    m_trailingEvents = std::move(pending);
    m_path = path;
    m_open = true;
    seek(duration());
    if (m_recording.truncatedTail || !m_recording.warning.empty())
        return {true, tr("Recording %1 opened with a warning: %2").arg(path, QString::fromStdString(m_recording.warning))};
    return {true, QString()};
}

void ReplayController::close() {
    pause();
    if (m_open) m_store.clear();
    m_recording = {};
    m_ticks.clear();
    m_trailingEvents.clear();
    m_path.clear();
    m_open = false;
    m_position = 0.0;
    m_shown = 0;
}

double ReplayController::duration() const { return m_ticks.empty() ? 0.0 : m_ticks.back().time_s(); }

void ReplayController::seek(double timeSeconds) {
    if (!m_open) return;
    const double t = std::clamp(timeSeconds, 0.0, duration());
    const bool forward = t >= m_position && m_shown > 0 && t < duration();
    if (forward) {
        for (; m_shown < qsizetype(m_ticks.size()) && m_ticks[m_shown].time_s() <= t; ++m_shown)
            m_store.ingestTick(m_ticks[m_shown]);
    } else {
        rebuild(t);
    }
    m_position = t;
    emit positionChanged(t);
}

void ReplayController::rebuild(double timeSeconds) {
    wire::Snapshot snapshot;
    *snapshot.mutable_header() = m_recording.header;
    m_shown = 0;
    for (; m_shown < qsizetype(m_ticks.size()) && m_ticks[m_shown].time_s() <= timeSeconds; ++m_shown)
        *snapshot.add_ticks() = m_ticks[m_shown];
    if (timeSeconds >= duration())
        for (const wire::Event& event : m_trailingEvents) *snapshot.add_events() = event;
    m_store.ingestSnapshot(snapshot);
}

void ReplayController::play() {
    if (!m_open || isPlaying()) return;
    if (m_position >= duration()) seek(0.0);  // played to the end: start over
    m_timer.start();
    emit playingChanged(true);
}

void ReplayController::pause() {
    if (!isPlaying()) return;
    m_timer.stop();
    emit playingChanged(false);
}

void ReplayController::setSpeed(double speed) { m_speed = std::clamp(speed, kMinSpeed, kMaxSpeed); }

void ReplayController::advance() {
    seek(m_position + m_speed * kStepMs / 1000.0);
    if (m_position >= duration()) pause();
}

std::optional<engine::ExportFormat> ReplayController::formatForPath(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv")) return engine::ExportFormat::Csv;
    if (suffix == QLatin1String("jsonl")) return engine::ExportFormat::JsonLines;
    if (suffix == QLatin1String("json")) return engine::ExportFormat::Trace;
    return std::nullopt;
}

QString ReplayController::exportRecording(const QString& path) const {
    if (!m_open) return tr("No recording is open: open one with File → Open recording… first.");
    const std::optional<engine::ExportFormat> format = formatForPath(path);
    if (!format) return tr("Cannot export to %1: the name must end in .csv, .jsonl or .json (a trace).").arg(path);
    return exportFile(m_path, *format, path);
}

QString ReplayController::exportFile(const QString& recording, engine::ExportFormat format, const QString& output,
                                     const engine::ExportProgress& progress) {
    engine::ExportRequest request;
    request.recording = recording.toStdString();
    request.format = format;
    request.output = output.toStdString();
    std::ostringstream unused;  // every console export names its output
    const auto result = engine::exportRecordingFile(request, unused, progress);
    if (result) return QString();
    if (result.status().code() == engine::StatusCode::Cancelled) return tr("Export to %1 cancelled.").arg(output);
    return tr("Export to %1 failed: %2").arg(output, QString::fromStdString(result.status().message()));
}

}  // namespace syncscope::ui
