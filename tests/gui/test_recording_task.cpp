// Long recording work in the console: RecordingTask keeps the GUI thread free (its timers keep
// firing), shows a progress dialog that follows the work, and Cancel stops it; File → Open and the
// exports go through it and end as the synchronous paths do.
#include <QAbstractButton>
#include <QProgressDialog>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>

#include "tests/unit/synthetic_run.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/recording_task.h"
#include "ui/widgets/replay_controller.h"

using namespace syncscope;
using namespace syncscope::ui;

class TestRecordingTask : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_recording;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_recording = m_dir.filePath(QStringLiteral("run.ssrec"));
        QVERIFY(synthetic::write(synthetic::make(), m_recording.toStdString()));
    }

    void cancelStopsLongWorkWhileTheGuiRuns() {
        QWidget window;
        window.show();
        int guiTicks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, [&] { ++guiTicks; });
        ticker.start(10);
        std::atomic<bool> stoppedByCancel{false};
        std::optional<bool> cancelled;
        // Work that would take 20 s: it reports a growing byte count until told to stop.
        RecordingTask* task = RecordingTask::start(
            &window, QStringLiteral("Working…"),
            [&](const engine::ExportProgress& progress) {
                for (uint64_t done = 0; done < 2000; ++done) {
                    if (!progress(done, 2000)) return stoppedByCancel.store(true);
                    std::this_thread::sleep_for(std::chrono::milliseconds(10));
                }
            },
            [&](bool c) { cancelled = c; });
        QProgressDialog* dialog = task->dialog();
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible(), 3000);  // shown once the work outlasts a moment
        QTRY_VERIFY_WITH_TIMEOUT(dialog->value() > 0, 3000);   // and it follows the work
        QTRY_VERIFY_WITH_TIMEOUT(guiTicks > 20, 3000);         // while the GUI thread's timers keep firing
        QVERIFY(!cancelled.has_value());                      // and the work goes on
        QAbstractButton* cancel = dialog->findChild<QAbstractButton*>();
        QVERIFY(cancel);
        cancel->click();
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.has_value(), 2000);
        QVERIFY(*cancelled);
        QVERIFY(stoppedByCancel.load());
    }

    void openInTheBackgroundOpensTheReplay() {
        MainWindow window(QStringLiteral(SYNCSCOPE_ENGINE_BINARY));
        window.show();
        window.openRecordingInBackground(m_recording);
        QTRY_VERIFY2_WITH_TIMEOUT(window.parts().replay->isOpen(), qPrintable(window.statusBar()->currentMessage()), 5000);
        QCOMPARE(window.parts().replay->duration(), 0.9);
        window.openRecordingInBackground(m_dir.filePath(QStringLiteral("missing.ssrec")));
        QTRY_VERIFY_WITH_TIMEOUT(!window.parts().replay->isOpen(), 5000);  // the failure closes the old replay
    }

    void exportsThroughTheTaskWriteTheFiles() {
        MainWindow window(QStringLiteral(SYNCSCOPE_ENGINE_BINARY));
        const QString trace = m_dir.filePath(QStringLiteral("t.json"));
        QString error = QStringLiteral("not run");
        bool finished = false;
        RecordingTask::start(
            &window, QStringLiteral("Exporting…"),
            [&](const engine::ExportProgress& progress) {
                error = ReplayController::exportFile(m_recording, engine::ExportFormat::Trace, trace, progress);
            },
            [&](bool) { finished = true; });
        QTRY_VERIFY_WITH_TIMEOUT(finished, 5000);
        QCOMPARE(error, QString());
        std::ifstream in(trace.toStdString());
        const std::string text{std::istreambuf_iterator<char>(in), {}};
        QVERIFY2(text.find("\"traceEvents\"") != std::string::npos && text.find("\"compute\"") != std::string::npos,
                 text.substr(0, 200).c_str());
        // The tfevents export into a folder, as File → Export → TensorBoard writes it.
        const QString folder = m_dir.filePath(QStringLiteral("tb"));
        QCOMPARE(ReplayController::exportFile(m_recording, engine::ExportFormat::TfEvents, folder), QString());
        QVERIFY(QDir(folder).entryList({QStringLiteral("events.out.tfevents.*")}, QDir::Files).size() == 1);
    }
};

QTEST_MAIN(TestRecordingTask)
#include "test_recording_task.moc"
