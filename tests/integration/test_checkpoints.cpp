// Nothing lost when a process dies, with real processes: a coordinator SIGKILLed in the middle of a
// 4-worker bsp run is restarted with --resume, its --retry workers rejoin by themselves, the run
// reaches 85% and its recording reads whole across the crash; a switch to unmodulated asp that
// wrecks the model is rolled back and the run trains to 85%; a full disk (a small tmpfs) stops
// neither the run nor the recording, which is written on once there is space again.
#include <sys/mount.h>

#include <cstdio>

#include <QDir>
#include <QTest>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "cluster_fixture.h"
#include "engine/cli/final_report.h"
#include "qt_recording_helpers.h"

using namespace syncscope::testing;
namespace wire = syncscope::wire;
namespace engine = syncscope::engine;

namespace {

const QStringList kRun{"--model", "mlp", "--batch", "64", "--eval-interval", "2", "--mode", "bsp", "--workers", "4"};

bool hasEvent(TelemetryProbe& telemetry, wire::EventKind kind, const std::string& text, int timeoutMs) {
    return telemetry
        .waitForEvent([&](const wire::Event& e) { return e.kind() == kind && e.detail().find(text) != std::string::npos; },
                      timeoutMs)
        .has_value();
}

double finalAccuracy(EngineChild& coordinator) {
    auto report = engine::parseFinalReport(coordinator.stdoutText().toStdString());
    return report ? report->accuracy : -1;
}

/// A small tmpfs of its own (the test needs root, or it skips): a disk that can be filled.
class SmallDisk {
public:
    explicit SmallDisk(const QString& path, int megabytes) : m_path(path) {
        QDir().mkpath(path);
        const std::string options = "size=" + std::to_string(megabytes) + "m,mode=0700";
        if (::mount("tmpfs", path.toLocal8Bit().constData(), "tmpfs", 0, options.c_str()) == 0) m_mounted = true;
        else m_error = std::strerror(errno);
    }
    ~SmallDisk() {
        if (m_mounted) ::umount2(m_path.toLocal8Bit().constData(), MNT_DETACH);
    }
    bool mounted() const { return m_mounted; }
    const std::string& error() const { return m_error; }
    /// Writes a filler file until the disk is full.
    void fill() {
        std::ofstream filler((m_path + "/filler").toStdString(), std::ios::binary);
        const std::string block(64 * 1024, 'x');
        while (filler.write(block.data(), std::streamsize(block.size())) && filler.flush()) {}
    }
    void makeSpace() { std::filesystem::remove((m_path + "/filler").toStdString()); }

private:
    QString m_path;
    bool m_mounted = false;
    std::string m_error;
};

}  // namespace

class TestCheckpoints : public QObject {
    Q_OBJECT
private slots:
    void killedCoordinatorResumes() {
        QTemporaryDir dir;
        const int port = pickFreePort();
        QVERIFY(port > 0);
        const QString checkpoints = dir.filePath("checkpoints"), recording = dir.filePath("run.ssrec");
        // Evaluated every 5 s, not 2: the run must not meet its target before the crash (this engine
        // trains 4 bsp workers to 85% in about 1.4 s, which the first evaluation at 2 s saw).
        QStringList serveArgs = kRun + QStringList{"--target-accuracy", "85", "--max-seconds", "240", "--data-port",
                                                   QString::number(port), "--record", recording, "--checkpoint-seconds", "1"};
        serveArgs[serveArgs.indexOf("--eval-interval") + 1] = "5";
        ClusterFixture cluster;
        auto started = cluster.startCoordinator(serveArgs + QStringList{"--checkpoint-dir", checkpoints});
        QVERIFY2(started, started.message().c_str());
        for (int i = 0; i < 4; ++i) cluster.startWorker({"--retry", "--coordinator-timeout", "2"});
        // The crash comes some 20 versions after a periodic checkpoint of a version past 50 is on disk
        // (its name says its version: SEQUENCE-vVERSION-periodic...), well before 85% at about version
        // 230, so the updates since that checkpoint are lost.
        auto running = cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 50; }, 60'000);
        QVERIFY2(running, qPrintable("training did not get going\n" + cluster.logs()));
        uint64_t checkpointed = 0;
        const auto newestCheckpoint = [&] {
            for (const QString& name : QDir(checkpoints).entryList({"*-periodic*"}, QDir::Files))
                checkpointed = std::max<uint64_t>(checkpointed, name.section("-v", 1).section('-', 0, 0).toULongLong());
            return checkpointed > 50;
        };
        QTRY_VERIFY_WITH_TIMEOUT(newestCheckpoint(), 10'000);
        QVERIFY2(cluster.telemetry().waitForTick([&](const wire::Tick& t) { return t.version() > checkpointed + 20; }, 10'000),
                 qPrintable("no training after the checkpoint\n" + cluster.logs()));
        const uint64_t versionAtCrash = cluster.telemetry().latest()->version();
        cluster.coordinator().kill();

        started = cluster.startCoordinator(serveArgs + QStringList{"--resume", checkpoints});
        QVERIFY2(started, qPrintable(QString::fromStdString(started.message()) + "\n" + cluster.logs()));
        auto resumed = cluster.telemetry().waitForEvent([](const wire::Event& e) { return e.kind() == wire::EVENT_RESUMED; }, 5000);
        QVERIFY2(resumed, "no resumed event");
        qInfo("crash at version %llu; %s", static_cast<unsigned long long>(versionAtCrash), resumed->detail().c_str());
        QVERIFY2(resumed->detail().find("skipped") == std::string::npos, resumed->detail().c_str());
        QVERIFY2(cluster.coordinator().waitForExit(200'000), qPrintable("the resumed run did not finish\n" + cluster.logs()));
        qInfo("final accuracy after the resume: %.2f%%", 100 * finalAccuracy(cluster.coordinator()));
        for (int i = 0; i < 4; ++i)  // every worker rejoined the resumed coordinator by itself
            QVERIFY2(cluster.worker(size_t(i)).stderrText().contains("retrying"), qPrintable(cluster.logs()));

        // One recording across the crash: whole, times never go back, and every update recorded once:
        // versions 1.. with no gap but the restored model's own version (an update made none).
        uint64_t checkpointVersion = 0, restoredVersion = 0;
        QVERIFY2(std::sscanf(resumed->detail().c_str(), "resumed from the checkpoint of version %llu",
                             reinterpret_cast<unsigned long long*>(&checkpointVersion)) == 1 && checkpointVersion > 0,
                 resumed->detail().c_str());
        const size_t goesOn = resumed->detail().find("goes on as version ");
        QVERIFY2(goesOn != std::string::npos &&
                     std::sscanf(resumed->detail().c_str() + goesOn, "goes on as version %llu",
                                 reinterpret_cast<unsigned long long*>(&restoredVersion)) == 1,
                 resumed->detail().c_str());
        const engine::Recording read = loadRecording(recording);
        QVERIFY2(!read.truncatedTail, read.warning.c_str());
        double lastTime = -1, bestAfterResume = 0;
        uint64_t lastVersion = 0, updates = 0, resumedEvents = 0;
        for (const auto& record : read.records) {
            if (record.has_tick()) {
                QVERIFY2(record.tick().time_s() >= lastTime, "a tick's time went back");
                lastTime = record.tick().time_s();
                if (resumedEvents) bestAfterResume = std::max(bestAfterResume, double(record.tick().test_accuracy()));
            } else if (record.has_update()) {
                const uint64_t v = record.update().version();
                QVERIFY2(v == lastVersion + 1 || (v == restoredVersion + 1 && lastVersion + 1 == restoredVersion),
                         qPrintable(QString("version %1 follows %2: updates lost (the checkpoint was of version %3, "
                                            "the restored model is version %4)")
                                        .arg(v).arg(lastVersion).arg(checkpointVersion).arg(restoredVersion)));
                lastVersion = v;
                ++updates;
            } else if (record.has_event() && record.event().kind() == wire::EVENT_RESUMED) {
                ++resumedEvents;
            }
        }
        QCOMPARE(resumedEvents, uint64_t(1));
        QVERIFY2(lastVersion > restoredVersion, "no update recorded after the resume");
        qInfo("updates 1..%llu recorded once each, none missing but the restored model's version %llu (checkpoint of "
              "version %llu)",
              static_cast<unsigned long long>(lastVersion), static_cast<unsigned long long>(restoredVersion),
              static_cast<unsigned long long>(checkpointVersion));
        qInfo("best test accuracy after the resume: %.2f%%", 100 * bestAfterResume);
        QVERIFY2(bestAfterResume >= 0.85, qPrintable(cluster.coordinator().stdoutText() + cluster.logs()));
        QVERIFY2(lastVersion > versionAtCrash && updates > 100, qPrintable(QString("%1 updates").arg(updates)));
    }

    void rollbackUndoesADivergingSwitch() {
        QTemporaryDir dir;
        ClusterFixture cluster;
        auto started = cluster.startCoordinator(kRun + QStringList{"--max-seconds", "240", "--checkpoint-dir", dir.path()});
        QVERIFY2(started, started.message().c_str());
        for (int i = 0; i < 4; ++i) cluster.startWorker();
        QVERIFY2(cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 100; }, 60'000),
                 qPrintable(cluster.logs()));

        // The wrecking change: asp without modulation (stale gradients at full rate, momentum 0.9),
        // then a learning rate it cannot take, so it diverges in every run.
        wire::ControlRequest asp;
        asp.mutable_set_mode()->mutable_settings()->set_mode(wire::ASP);
        auto reply = cluster.control().request(asp);
        QVERIFY2(reply && reply->ok(), reply ? reply->error().c_str() : reply.status().message().c_str());
        const uint64_t change = reply->event().change_id();
        QVERIFY(change > 0);
        wire::ControlRequest lr;
        lr.mutable_set_learning_rate()->set_learning_rate(0.5f);
        reply = cluster.control().request(lr);
        QVERIFY2(reply && reply->ok() && reply->event().change_id() == change + 1, "the learning rate change");
        QVERIFY2(hasEvent(cluster.telemetry(), wire::EVENT_ERROR, "diverged", 60'000),
                 "asp at learning rate 0.5 did not diverge (the rollback would prove nothing)");

        wire::ControlRequest rollback;
        rollback.mutable_rollback()->set_change_id(change);
        reply = cluster.control().request(rollback, 10'000);
        QVERIFY2(reply && reply->ok(), reply ? reply->error().c_str() : reply.status().message().c_str());
        QCOMPARE(reply->event().kind(), wire::EVENT_ROLLBACK);
        QVERIFY(reply->event().change_id() > change);  // a rollback is a change of its own
        qInfo("%s", reply->event().detail().c_str());
        auto trained = cluster.telemetry().waitForTick(
            [](const wire::Tick& t) {
                return t.mode().mode() == wire::BSP && t.learning_rate() < 0.1f && t.test_accuracy() >= 0.85;
            },
            150'000);
        QVERIFY2(trained, qPrintable("the rolled-back run did not reach 85%\n" + cluster.logs()));
        qInfo("85%% after the rollback: %.2f%% at version %llu", 100 * trained->test_accuracy(),
              static_cast<unsigned long long>(trained->version()));

        wire::ControlRequest unknown;  // a change whose checkpoint does not exist: a clear refusal
        unknown.mutable_rollback()->set_change_id(9999);
        reply = cluster.control().request(unknown);
        QVERIFY(reply && !reply->ok());
        QVERIFY2(reply->error().find("no checkpoint before change 9999") != std::string::npos, reply->error().c_str());
    }

    // The checkpoint folder is removed in the middle of a run (a cleanup script, an unmounted share):
    // an error that says how to fix it, training goes on, and checkpoints resume once it is back.
    void checkpointFolderRemovedMidRun() {
        QTemporaryDir dir;
        const QString folder = dir.filePath("checkpoints");
        ClusterFixture cluster;
        auto started = cluster.startCoordinator({"--workers", "1", "--model", "mlp", "--max-seconds", "120",
                                                 "--checkpoint-dir", folder, "--checkpoint-seconds", "0.5"});
        QVERIFY2(started, started.message().c_str());
        cluster.startWorker();
        QVERIFY(cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 50; }, 60'000));
        QVERIFY(QDir(folder).removeRecursively());
        auto failed = cluster.telemetry().waitForEvent(
            [](const wire::Event& e) { return e.kind() == wire::EVENT_CHECKPOINT && e.detail().find("cannot") != std::string::npos; },
            10'000);
        QVERIFY2(failed, qPrintable("no checkpoint error\n" + cluster.logs()));
        QVERIFY2(failed->detail().find("create the folder again") != std::string::npos, failed->detail().c_str());
        const uint64_t versionWhenGone = cluster.telemetry().latest()->version();
        QVERIFY(QDir().mkpath(folder));
        QVERIFY2(hasEvent(cluster.telemetry(), wire::EVENT_CHECKPOINT, "written again", 10'000), "checkpoints did not resume");
        QVERIFY2(cluster.telemetry().latest()->version() > versionWhenGone, "training stopped without its checkpoints");
        QVERIFY2(!QDir(folder).entryList({"*.ssckpt"}, QDir::Files).isEmpty(), "no checkpoint in the folder made again");
        wire::ControlRequest stop;
        stop.set_stop(true);
        QVERIFY(cluster.control().request(stop));
        QVERIFY(cluster.coordinator().waitForExit(30'000));
    }

    // The disk under the recording and the checkpoints fills up: a clear error, training goes on
    // (or pauses, with --on-storage-failure pause), and writing resumes once there is space.
    void fullDiskGoesOnOrPauses_data() {
        QTest::addColumn<bool>("pause");
        QTest::newRow("continue") << false;
        QTest::newRow("pause") << true;
    }
    void fullDiskGoesOnOrPauses() {
        QFETCH(bool, pause);
        QTemporaryDir dir;
        SmallDisk disk(dir.filePath("disk"), 24);
        if (!disk.mounted()) QSKIP(qPrintable(QString("cannot mount a tmpfs here (%1); run as root").arg(disk.error().c_str())));
        const QString recording = dir.filePath("disk/run.ssrec");
        ClusterFixture cluster;
        auto started = cluster.startCoordinator(
            {"--workers", "2", "--model", "mlp", "--max-seconds", "120", "--record", recording, "--checkpoint-dir",
             dir.filePath("disk/checkpoints"), "--checkpoint-seconds", "0.5", "--tick-hz", "20", "--on-storage-failure",
             pause ? "pause" : "continue"});
        QVERIFY2(started, started.message().c_str());
        for (int i = 0; i < 2; ++i) cluster.startWorker();
        QVERIFY(cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 50; }, 60'000));

        disk.fill();
        QVERIFY2(hasEvent(cluster.telemetry(), wire::EVENT_RECORDING, "free disk space", 10'000), "no recording error");
        QVERIFY2(hasEvent(cluster.telemetry(), wire::EVENT_CHECKPOINT, "cannot be written", 10'000), "no checkpoint error");
        const uint64_t versionWhenFull = cluster.telemetry().latest()->version();
        QThread::msleep(2000);
        auto meanwhile = cluster.telemetry().latest();
        if (pause) {
            QCOMPARE(meanwhile->state(), wire::RUN_PAUSED);
            QVERIFY(meanwhile->version() <= versionWhenFull + 4);  // updates in flight when it paused
        } else {
            QCOMPARE(meanwhile->state(), wire::RUN_RUNNING);
            QVERIFY2(meanwhile->version() > versionWhenFull + 20, "training stopped while the disk was full");
        }

        disk.makeSpace();
        QVERIFY2(hasEvent(cluster.telemetry(), wire::EVENT_CHECKPOINT, "written again", 10'000), "checkpoints did not resume");
        auto written = cluster.telemetry().waitForEvent(
            [](const wire::Event& e) {
                return e.kind() == wire::EVENT_RECORDING && e.detail().find("written again; nothing was lost") != std::string::npos;
            },
            10'000);
        QVERIFY2(written, qPrintable("the recording did not resume\n" + cluster.logs()));
        auto after = cluster.telemetry().waitForTick(
            [&](const wire::Tick& t) {
                return t.state() == wire::RUN_RUNNING && t.version() > meanwhile->version() + 20 &&
                       t.time_s() > written->time_s() + 1.5;
            },
            20'000);
        QVERIFY2(after, "training did not go on once there was space");
        wire::ControlRequest stop;
        stop.set_stop(true);
        QVERIFY(cluster.control().request(stop));
        QVERIFY(cluster.coordinator().waitForExit(30'000));

        // Nothing recorded was lost: the ticks written while the disk was full are in the file.
        const engine::Recording read = loadRecording(recording);
        QVERIFY2(!read.truncatedTail, read.warning.c_str());
        double lastTime = 0, largestGap = 0;
        for (const auto& record : read.records)
            if (record.has_tick()) {
                largestGap = std::max(largestGap, record.tick().time_s() - lastTime);
                lastTime = record.tick().time_s();
            }
        QVERIFY2(largestGap < 1.0, qPrintable(QString("a %1 s hole in the recorded ticks").arg(largestGap)));
        QVERIFY2(lastTime > written->time_s() + 0.5, qPrintable(QString("the recording ends at %1 s (%2 records)\n").arg(lastTime).arg(read.records.size()) + cluster.logs()));
    }
};

QTEST_GUILESS_MAIN(TestCheckpoints)
#include "test_checkpoints.moc"
