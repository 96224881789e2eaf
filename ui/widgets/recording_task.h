// RecordingTask: runs work on a recording file (opening it, exporting it) on a worker thread behind
// a progress dialog whose Cancel stops it, so the GUI thread never waits on a large recording.
// The work reports bytes read through the engine's progress callback, which also carries the cancel.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <atomic>
#include <cstdint>
#include <functional>

#include "engine/telemetry/export_file.h"

class QProgressDialog;
class QThread;
class QWidget;

namespace syncscope::ui {

class RecordingTask : public QObject {
    Q_OBJECT

public:
    /// The work, run on the task's thread; it calls `progress` now and then and stops when it returns false.
    using Work = std::function<void(const engine::ExportProgress& progress)>;

    /// Starts `work` with a window-modal progress dialog over `parent` (shown only if the work lasts
    /// more than a moment). `done` runs on the GUI thread once the work has returned; the task then
    /// deletes itself.
    static RecordingTask* start(QWidget* parent, const QString& label, Work work, std::function<void(bool cancelled)> done);
    /// Deleted with its parent while working: cancels, and waits for the work to stop.
    ~RecordingTask() override;

    /// Asks the work to stop at its next progress report (what the dialog's Cancel does).
    void cancel() { m_cancel.store(true); }
    QProgressDialog* dialog() const;

private:
    RecordingTask(QWidget* parent, const QString& label, std::function<void(bool)> done);
    void showProgress();
    void finish();

    QPointer<QProgressDialog> m_dialog;
    QThread* m_thread = nullptr;
    QTimer m_poll;
    std::function<void(bool)> m_done;
    std::atomic<uint64_t> m_bytesRead{0}, m_fileBytes{0};
    std::atomic<bool> m_cancel{false};
};

}  // namespace syncscope::ui
