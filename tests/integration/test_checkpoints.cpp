// Nothing lost when a process dies, with real processes: a coordinator SIGKILLed in the middle of a
// 4-worker bsp run is restarted with --resume, its --retry workers rejoin by themselves, the run
// reaches 85% and its recording reads whole across the crash; a switch to unmodulated asp that
// wrecks the model is rolled back and the run trains to 85%; a full disk (a small tmpfs) stops
// neither the run nor the recording, which is written on once there is space again.
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "engine/cli/final_report.h"
#include "tests/integration/engine_cluster.h"
#include "tests/integration/recording_helpers.h"

using namespace syncscope::testing;
namespace wire = syncscope::wire;
namespace engine = syncscope::engine;

namespace {

const Args kRun{"--model", "mlp", "--batch", "64", "--eval-interval", "2", "--mode", "bsp", "--workers", "4"};

bool hasEvent(TelemetryProbe& telemetry, wire::EventKind kind, const std::string& text, int timeoutMs) {
    return telemetry
        .waitForEvent([&](const wire::Event& e) { return e.kind() == kind && e.detail().find(text) != std::string::npos; },
                      timeoutMs)
        .has_value();
}

double finalAccuracy(EngineChild& coordinator) {
    auto report = engine::parseFinalReport(coordinator.stdoutText());
    return report ? report->accuracy : -1;
}

/// The names of the files in `folder` whose names contain `part` (QDir's entryList with a "*part*" filter).
std::vector<std::string> filesWith(const std::string& folder, const std::string& part) {
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error))
        if (entry.is_regular_file() && contains(entry.path().filename().string(), part))
            names.push_back(entry.path().filename().string());
    return names;
}

/// A small tmpfs of its own (the test needs root, or it skips): a disk that can be filled.
class SmallDisk {
public:
    explicit SmallDisk(const std::string& path, int megabytes) : m_path(path) {
        std::error_code ignored;
        std::filesystem::create_directories(path, ignored);
        const std::string options = "size=" + std::to_string(megabytes) + "m,mode=0700";
        if (::mount("tmpfs", path.c_str(), "tmpfs", 0, options.c_str()) == 0) m_mounted = true;
        else m_error = std::strerror(errno);
    }
    ~SmallDisk() {
        if (m_mounted) ::umount2(m_path.c_str(), MNT_DETACH);
    }
    bool mounted() const { return m_mounted; }
    const std::string& error() const { return m_error; }
    /// Writes a filler file until the disk is full.
    void fill() {
        std::ofstream filler(m_path + "/filler", std::ios::binary);
        const std::string block(64 * 1024, 'x');
        while (filler.write(block.data(), std::streamsize(block.size())) && filler.flush()) {}
    }
    void makeSpace() { std::filesystem::remove(m_path + "/filler"); }

private:
    std::string m_path;
    bool m_mounted = false;
    std::string m_error;
};

}  // namespace

TEST(TestCheckpoints, killedCoordinatorResumes) {
    TempDir dir;
    const int port = pickFreePort();
    ASSERT_TRUE(port > 0);
    const std::string checkpoints = dir.filePath("checkpoints"), recording = dir.filePath("run.ssrec");
    // Evaluated every 5 s, not 2: the run must not meet its target before the crash (this engine
    // trains 4 bsp workers to 85% in about 1.4 s, which the first evaluation at 2 s saw).
    Args serveArgs = kRun + Args{"--target-accuracy", "85", "--max-seconds", "240", "--data-port",
                                 std::to_string(port), "--record", recording, "--checkpoint-seconds", "1"};
    *(std::find(serveArgs.begin(), serveArgs.end(), "--eval-interval") + 1) = "5";
    EngineCluster cluster;
    auto started = cluster.startCoordinator(serveArgs + Args{"--checkpoint-dir", checkpoints});
    ASSERT_TRUE(started) << started.message().c_str();
    for (int i = 0; i < 4; ++i) cluster.startWorker({"--retry", "--coordinator-timeout", "2"});
    // The crash comes some 20 versions after a periodic checkpoint of a version past 50 is on disk
    // (its name says its version: SEQUENCE-vVERSION-periodic...), well before 85% at about version
    // 230, so the updates since that checkpoint are lost.
    auto running = cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 50; }, 60'000);
    ASSERT_TRUE(running) << "training did not get going\n" + cluster.logs();
    uint64_t checkpointed = 0;
    const auto newestCheckpoint = [&] {
        for (const std::string& name : filesWith(checkpoints, "-periodic")) {
            // SEQUENCE-vVERSION-periodic...: the number between the first "-v" and the next '-'.
            const size_t v = name.find("-v");
            const std::string after = v == std::string::npos ? std::string() : name.substr(v + 2);
            checkpointed = std::max<uint64_t>(checkpointed, uint64_t(toLongLong(after.substr(0, after.find('-')))));
        }
        return checkpointed > 50;
    };
    ASSERT_TRUE(waitUntil(newestCheckpoint, 10'000));
    ASSERT_TRUE(
        cluster.telemetry().waitForTick([&](const wire::Tick& t) { return t.version() > checkpointed + 20; }, 10'000))
        << "no training after the checkpoint\n" + cluster.logs();
    const uint64_t versionAtCrash = cluster.telemetry().latest()->version();
    cluster.coordinator().kill();

    started = cluster.startCoordinator(serveArgs + Args{"--resume", checkpoints});
    ASSERT_TRUE(started) << started.message() + "\n" + cluster.logs();
    auto resumed = cluster.telemetry().waitForEvent([](const wire::Event& e) { return e.kind() == wire::EVENT_RESUMED; }, 5000);
    ASSERT_TRUE(resumed) << "no resumed event";
    testLog("crash at version %llu; %s", static_cast<unsigned long long>(versionAtCrash), resumed->detail().c_str());
    ASSERT_TRUE(resumed->detail().find("skipped") == std::string::npos) << resumed->detail().c_str();
    ASSERT_TRUE(cluster.coordinator().waitForExit(200'000)) << "the resumed run did not finish\n" + cluster.logs();
    testLog("final accuracy after the resume: %.2f%%", 100 * finalAccuracy(cluster.coordinator()));
    for (int i = 0; i < 4; ++i)  // every worker rejoined the resumed coordinator by itself
        ASSERT_TRUE(contains(cluster.worker(size_t(i)).stderrText(), "retrying")) << cluster.logs();

    // One recording across the crash: whole, times never go back, and every update recorded once:
    // versions 1.. with no gap but the restored model's own version (an update made none).
    uint64_t checkpointVersion = 0, restoredVersion = 0;
    ASSERT_TRUE(std::sscanf(resumed->detail().c_str(), "resumed from the checkpoint of version %llu",
                         reinterpret_cast<unsigned long long*>(&checkpointVersion)) == 1 && checkpointVersion > 0) << resumed->detail().c_str();
    const size_t goesOn = resumed->detail().find("goes on as version ");
    ASSERT_TRUE(goesOn != std::string::npos &&
                 std::sscanf(resumed->detail().c_str() + goesOn, "goes on as version %llu",
                             reinterpret_cast<unsigned long long*>(&restoredVersion)) == 1) << resumed->detail().c_str();
    const engine::Recording read = loadRecording(recording);
    ASSERT_TRUE(!read.truncatedTail) << read.warning.c_str();
    double lastTime = -1, bestAfterResume = 0, appliedSamplesAfterResume = -1;
    uint64_t lastVersion = 0, updates = 0, resumedEvents = 0;
    for (const auto& record : read.records) {
        if (record.has_tick()) {
            ASSERT_TRUE(record.tick().time_s() >= lastTime) << "a tick's time went back";
            lastTime = record.tick().time_s();
            if (resumedEvents) bestAfterResume = std::max(bestAfterResume, double(record.tick().test_accuracy()));
            if (resumedEvents && appliedSamplesAfterResume < 0) appliedSamplesAfterResume = record.tick().applied_samples();
        } else if (record.has_update()) {
            const uint64_t v = record.update().version();
            ASSERT_TRUE(v == lastVersion + 1 || (v == restoredVersion + 1 && lastVersion + 1 == restoredVersion))
                << "version " << v << " follows " << lastVersion << ": updates lost (the checkpoint was of version "
                << checkpointVersion << ", the restored model is version " << restoredVersion << ")";
            lastVersion = v;
            ++updates;
        } else if (record.has_event() && record.event().kind() == wire::EVENT_RESUMED) {
            ++resumedEvents;
        }
    }
    ASSERT_EQ(resumedEvents, uint64_t(1));
    ASSERT_TRUE(lastVersion > restoredVersion) << "no update recorded after the resume";
    // The applied samples go on from the checkpoint's (bsp: 4 x 64 a version), not from 0.
    EXPECT_GE(appliedSamplesAfterResume, 0.9 * 256.0 * double(checkpointVersion));
    testLog("updates 1..%llu recorded once each, none missing but the restored model's version %llu (checkpoint of "
          "version %llu)",
          static_cast<unsigned long long>(lastVersion), static_cast<unsigned long long>(restoredVersion),
          static_cast<unsigned long long>(checkpointVersion));
    testLog("best test accuracy after the resume: %.2f%%", 100 * bestAfterResume);
    ASSERT_TRUE(bestAfterResume >= 0.85) << cluster.coordinator().stdoutText() + cluster.logs();
    ASSERT_TRUE(lastVersion > versionAtCrash && updates > 100) << updates << " updates";
}

// New worker processes of a resumed run (`run --resume` starts them afresh; --retry workers come
// back with their ids instead) get the plan's slowdowns in the order they join, as in a fresh run,
// though their ids go on from the checkpoint's: `--slowdown 1:4` slows the second to join.
TEST(TestCheckpoints, newWorkersOfAResumedRunTakeThePlansSlowdownsInJoinOrder) {
    TempDir dir;
    const Args serveArgs = kRun + Args{"--max-seconds", "120", "--checkpoint-seconds", "1", "--checkpoint-dir",
                                       dir.filePath("checkpoints"), "--slowdown", "1:4"};
    EngineCluster cluster;
    auto started = cluster.startCoordinator(serveArgs);
    ASSERT_TRUE(started) << started.message().c_str();
    for (int i = 0; i < 4; ++i) cluster.startWorker({"--coordinator-timeout", "2"});
    ASSERT_TRUE(cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 30; }, 60'000))
        << cluster.logs();
    ASSERT_TRUE(waitUntil([&] { return !filesWith(dir.filePath("checkpoints"), "-periodic").empty(); }, 10'000));
    cluster.coordinator().kill();
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(cluster.worker(size_t(i)).waitForExit(30'000)) << cluster.logs();

    started = cluster.startCoordinator(serveArgs + Args{"--resume", dir.filePath("checkpoints")});
    ASSERT_TRUE(started) << started.message() + "\n" + cluster.logs();
    // One at a time, so the join order is known.
    std::vector<uint32_t> joined;
    for (int i = 0; i < 4; ++i) {
        cluster.startWorker();
        auto event = cluster.telemetry().waitForEvent(
            [&](const wire::Event& e) {
                return e.kind() == wire::EVENT_WORKER_JOINED &&
                       std::find(joined.begin(), joined.end(), e.worker_id()) == joined.end();
            },
            20'000);
        ASSERT_TRUE(event) << "new worker " << i << " did not join\n" + cluster.logs();
        joined.push_back(event->worker_id());
    }
    ASSERT_TRUE(joined[0] >= 4) << "the ids were expected to go on from the checkpoint's; the first new one is "
                                << joined[0];
    auto tick = cluster.telemetry().waitForTick([&](const wire::Tick& t) {
        return t.state() == wire::RUN_RUNNING && std::count_if(t.workers().begin(), t.workers().end(), [&](const auto& w) {
                   return std::find(joined.begin(), joined.end(), w.worker_id()) != joined.end();
               }) == 4;
    }, 30'000);
    ASSERT_TRUE(tick) << cluster.logs();
    for (const wire::WorkerStats& w : tick->workers()) {
        if (std::find(joined.begin(), joined.end(), w.worker_id()) == joined.end()) continue;
        const float expected = w.worker_id() == joined[1] ? 4.0f : 1.0f;
        EXPECT_EQ(std::max(1.0f, float(w.slowdown().factor())), expected) << "worker " << w.worker_id();
    }
    cluster.coordinator().kill();
}

TEST(TestCheckpoints, rollbackUndoesADivergingSwitch) {
    TempDir dir;
    EngineCluster cluster;
    auto started = cluster.startCoordinator(kRun + Args{"--max-seconds", "240", "--checkpoint-dir", dir.path()});
    ASSERT_TRUE(started) << started.message().c_str();
    for (int i = 0; i < 4; ++i) cluster.startWorker();
    ASSERT_TRUE(cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 100; }, 60'000)) << cluster.logs();

    // The wrecking change: asp without modulation (stale gradients at full rate, momentum 0.9),
    // then a learning rate it cannot take, so it diverges in every run.
    wire::ControlRequest asp;
    asp.mutable_set_mode()->mutable_settings()->set_mode(wire::ASP);
    auto reply = cluster.control().request(asp);
    ASSERT_TRUE(reply && reply->ok()) << (reply ? reply->error().c_str() : reply.status().message().c_str());
    const uint64_t change = reply->event().change_id();
    ASSERT_TRUE(change > 0);
    wire::ControlRequest lr;
    lr.mutable_set_learning_rate()->set_learning_rate(0.5f);
    reply = cluster.control().request(lr);
    ASSERT_TRUE(reply && reply->ok() && reply->event().change_id() == change + 1) << "the learning rate change";
    ASSERT_TRUE(hasEvent(cluster.telemetry(), wire::EVENT_ERROR, "diverged", 60'000)) << "asp at learning rate 0.5 did not diverge (the rollback would prove nothing)";

    wire::ControlRequest rollback;
    rollback.mutable_rollback()->set_change_id(change);
    reply = cluster.control().request(rollback, 10'000);
    ASSERT_TRUE(reply && reply->ok()) << (reply ? reply->error().c_str() : reply.status().message().c_str());
    ASSERT_EQ(reply->event().kind(), wire::EVENT_ROLLBACK);
    ASSERT_TRUE(reply->event().change_id() > change);  // a rollback is a change of its own
    testLog("%s", reply->event().detail().c_str());
    auto trained = cluster.telemetry().waitForTick(
        [](const wire::Tick& t) {
            return t.mode().mode() == wire::BSP && t.learning_rate() < 0.1f && t.test_accuracy() >= 0.85;
        },
        150'000);
    ASSERT_TRUE(trained) << "the rolled-back run did not reach 85%\n" + cluster.logs();
    testLog("85%% after the rollback: %.2f%% at version %llu", 100 * trained->test_accuracy(),
          static_cast<unsigned long long>(trained->version()));

    wire::ControlRequest unknown;  // a change whose checkpoint does not exist: a clear refusal
    unknown.mutable_rollback()->set_change_id(9999);
    reply = cluster.control().request(unknown);
    ASSERT_TRUE(reply && !reply->ok());
    ASSERT_TRUE(reply->error().find("no checkpoint before change 9999") != std::string::npos) << reply->error().c_str();
}

// The checkpoint folder is removed in the middle of a run (a cleanup script, an unmounted share):
// an error that says how to fix it, training goes on, and checkpoints resume once it is back.
TEST(TestCheckpoints, checkpointFolderRemovedMidRun) {
    TempDir dir;
    const std::string folder = dir.filePath("checkpoints");
    EngineCluster cluster;
    auto started = cluster.startCoordinator({"--workers", "1", "--model", "mlp", "--max-seconds", "120",
                                             "--checkpoint-dir", folder, "--checkpoint-seconds", "0.5"});
    ASSERT_TRUE(started) << started.message().c_str();
    cluster.startWorker();
    ASSERT_TRUE(cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 50; }, 60'000));
    std::error_code removeError;
    std::filesystem::remove_all(folder, removeError);
    ASSERT_TRUE(!removeError) << removeError.message();
    auto failed = cluster.telemetry().waitForEvent(
        [](const wire::Event& e) { return e.kind() == wire::EVENT_CHECKPOINT && e.detail().find("cannot") != std::string::npos; },
        10'000);
    ASSERT_TRUE(failed) << "no checkpoint error\n" + cluster.logs();
    ASSERT_TRUE(failed->detail().find("create the folder again") != std::string::npos) << failed->detail().c_str();
    const uint64_t versionWhenGone = cluster.telemetry().latest()->version();
    std::error_code makeError;
    std::filesystem::create_directories(folder, makeError);
    ASSERT_TRUE(!makeError && std::filesystem::is_directory(folder)) << makeError.message();
    ASSERT_TRUE(hasEvent(cluster.telemetry(), wire::EVENT_CHECKPOINT, "written again", 10'000)) << "checkpoints did not resume";
    ASSERT_TRUE(cluster.telemetry().latest()->version() > versionWhenGone) << "training stopped without its checkpoints";
    ASSERT_TRUE(!filesWith(folder, ".ssckpt").empty()) << "no checkpoint in the folder made again";
    wire::ControlRequest stop;
    stop.set_stop(true);
    ASSERT_TRUE(cluster.control().request(stop));
    ASSERT_TRUE(cluster.coordinator().waitForExit(30'000));
}

// The disk under the recording and the checkpoints fills up: a clear error, training goes on
// (or pauses, with --on-storage-failure pause), and writing resumes once there is space.
static void fullDiskGoesOnOrPauses(bool pause) {
    TempDir dir;
    SmallDisk disk(dir.filePath("disk"), 24);
    if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.error() << "); run as root";
    const std::string recording = dir.filePath("disk/run.ssrec");
    EngineCluster cluster;
    auto started = cluster.startCoordinator(
        {"--workers", "2", "--model", "mlp", "--max-seconds", "120", "--record", recording, "--checkpoint-dir",
         dir.filePath("disk/checkpoints"), "--checkpoint-seconds", "0.5", "--tick-hz", "20", "--on-storage-failure",
         pause ? "pause" : "continue"});
    ASSERT_TRUE(started) << started.message().c_str();
    for (int i = 0; i < 2; ++i) cluster.startWorker();
    ASSERT_TRUE(cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 50; }, 60'000));

    disk.fill();
    ASSERT_TRUE(hasEvent(cluster.telemetry(), wire::EVENT_RECORDING, "free disk space", 10'000)) << "no recording error";
    ASSERT_TRUE(hasEvent(cluster.telemetry(), wire::EVENT_CHECKPOINT, "cannot be written", 10'000)) << "no checkpoint error";
    const uint64_t versionWhenFull = cluster.telemetry().latest()->version();
    sleepMs(2000);
    auto meanwhile = cluster.telemetry().latest();
    if (pause) {
        ASSERT_EQ(meanwhile->state(), wire::RUN_PAUSED);
        ASSERT_TRUE(meanwhile->version() <= versionWhenFull + 4);  // updates in flight when it paused
    } else {
        ASSERT_EQ(meanwhile->state(), wire::RUN_RUNNING);
        ASSERT_TRUE(meanwhile->version() > versionWhenFull + 20) << "training stopped while the disk was full";
    }

    disk.makeSpace();
    ASSERT_TRUE(hasEvent(cluster.telemetry(), wire::EVENT_CHECKPOINT, "written again", 10'000)) << "checkpoints did not resume";
    auto written = cluster.telemetry().waitForEvent(
        [](const wire::Event& e) {
            return e.kind() == wire::EVENT_RECORDING && e.detail().find("written again; nothing was lost") != std::string::npos;
        },
        10'000);
    ASSERT_TRUE(written) << "the recording did not resume\n" + cluster.logs();
    auto after = cluster.telemetry().waitForTick(
        [&](const wire::Tick& t) {
            return t.state() == wire::RUN_RUNNING && t.version() > meanwhile->version() + 20 &&
                   t.time_s() > written->time_s() + 1.5;
        },
        20'000);
    ASSERT_TRUE(after) << "training did not go on once there was space";
    wire::ControlRequest stop;
    stop.set_stop(true);
    ASSERT_TRUE(cluster.control().request(stop));
    ASSERT_TRUE(cluster.coordinator().waitForExit(30'000));

    // Nothing recorded was lost: the ticks written while the disk was full are in the file.
    const engine::Recording read = loadRecording(recording);
    ASSERT_TRUE(!read.truncatedTail) << read.warning.c_str();
    double lastTime = 0, largestGap = 0;
    for (const auto& record : read.records)
        if (record.has_tick()) {
            largestGap = std::max(largestGap, record.tick().time_s() - lastTime);
            lastTime = record.tick().time_s();
        }
    ASSERT_TRUE(largestGap < 1.0) << "a " << largestGap << " s hole in the recorded ticks";
    ASSERT_TRUE(lastTime > written->time_s() + 0.5)
        << "the recording ends at " << lastTime << " s (" << read.records.size() << " records)\n" << cluster.logs();
}

TEST(TestCheckpoints, fullDiskGoesOnOrPauses) {
    for (const auto& [row, pause] : {std::pair{"continue", false}, std::pair{"pause", true}}) {
        SCOPED_TRACE(row);
        fullDiskGoesOnOrPauses(pause);
    }
}
