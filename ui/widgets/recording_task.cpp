// RecordingTask (see recording_task.h).
#include "ui/widgets/recording_task.h"

#include <QProgressDialog>
#include <QThread>

namespace syncscope::ui {

namespace {
constexpr int kPollMs = 100;          // how often the dialog's bar follows the work
constexpr int kShowAfterMs = 300;     // shorter work shows no dialog at all
constexpr int kPermille = 1000;
}  // namespace

RecordingTask::RecordingTask(QWidget* parent, const QString& label, std::function<void(bool)> done)
    : QObject(parent), m_dialog(new QProgressDialog(label, tr("Cancel"), 0, kPermille, parent)), m_done(std::move(done)) {
    m_dialog->setObjectName(QStringLiteral("recordingTaskDialog"));
    m_dialog->setWindowTitle(tr("SyncScope"));
    m_dialog->setWindowModality(Qt::WindowModal);
    m_dialog->setMinimumDuration(kShowAfterMs);
    m_dialog->setAutoClose(false);
    m_dialog->setAutoReset(false);
    m_dialog->setValue(0);
    connect(m_dialog, &QProgressDialog::canceled, this, &RecordingTask::cancel);
    m_poll.setInterval(kPollMs);
    connect(&m_poll, &QTimer::timeout, this, &RecordingTask::showProgress);
}

RecordingTask::~RecordingTask() {
    if (!m_thread) return;
    cancel();
    m_thread->wait();
    delete m_thread;
}

RecordingTask* RecordingTask::start(QWidget* parent, const QString& label, Work work, std::function<void(bool)> done) {
    auto* task = new RecordingTask(parent, label, std::move(done));
    const engine::ExportProgress progress = [task](uint64_t bytesRead, uint64_t fileBytes) {
        task->m_bytesRead.store(bytesRead);
        task->m_fileBytes.store(fileBytes);
        return !task->m_cancel.load();
    };
    task->m_thread = QThread::create([work = std::move(work), progress] { work(progress); });
    connect(task->m_thread, &QThread::finished, task, &RecordingTask::finish);  // queued: back on the GUI thread
    task->m_poll.start();
    task->m_thread->start();
    return task;
}

QProgressDialog* RecordingTask::dialog() const { return m_dialog; }

void RecordingTask::showProgress() {
    const uint64_t total = m_fileBytes.load();
    const int permille = total > 0 ? static_cast<int>(kPermille * m_bytesRead.load() / total) : 0;
    if (m_dialog) m_dialog->setValue(permille);
}

void RecordingTask::finish() {
    m_poll.stop();
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    const bool cancelled = m_cancel.load();  // before closing the dialog, whose close event cancels too
    if (m_dialog) {
        m_dialog->disconnect(this);
        m_dialog->close();
        m_dialog->deleteLater();
    }
    if (m_done) m_done(cancelled);
    deleteLater();
}

}  // namespace syncscope::ui
