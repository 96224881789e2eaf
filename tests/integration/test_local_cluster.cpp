// `syncscope-engine run` stops every child it started: on Ctrl-C (SIGINT) cleanly, and when the
// parent itself is killed, through PR_SET_PDEATHSIG; and it starts a parameter shard in place of one
// that was killed, so a run that keeps checkpoints trains on to its target (its workers, behind group
// aggregators, registering again under their own ids). Real processes; children
// found under /proc.
#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/integration/child_process.h"
#include "tests/integration/recording_helpers.h"

using namespace syncscope::testing;
namespace engine = syncscope::engine;
namespace wire = syncscope::wire;

namespace {

// Direct children of pid, from /proc/*/stat (field 4 is the parent pid).
std::vector<pid_t> childrenOf(pid_t pid) {
    std::vector<pid_t> children;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
        bool numeric = false;
        const long long candidate = toLongLong(entry.path().filename().string(), &numeric);
        if (!numeric || !entry.is_directory(error)) continue;
        const std::string text = readFile(entry.path().string() + "/stat");
        if (text.empty()) continue;
        const std::vector<std::string> fields = split(text.substr(text.rfind(')') + 2), ' ');
        if (fields.size() > 1 && toLongLong(fields[1]) == pid) children.push_back(pid_t(candidate));
    }
    return children;
}

// Alive and not a zombie.
bool running(pid_t pid) {
    const std::string text = readFile("/proc/" + std::to_string(pid) + "/stat");
    if (text.empty()) return false;
    return !startsWith(text.substr(text.rfind(')') + 2), "Z");
}

bool allGoneWithin(const std::vector<pid_t>& pids, int ms) {
    const Deadline deadline(ms);
    while (!deadline.expired()) {
        if (std::none_of(pids.begin(), pids.end(), running)) return true;
        sleepMs(100);
    }
    return false;
}

std::vector<pid_t> startRunAndWaitForChildren(ChildProcess& run, const std::string& stdoutPath) {
    ChildOptions options;
    options.stdoutPath = stdoutPath;
    if (!run.start(SYNCSCOPE_ENGINE_BINARY, {"run", "--workers", "2", "--model", "mlp", "--max-seconds", "120", "--data",
                                             SYNCSCOPE_FASHION_MNIST_DIR},
                   options))
        return {};
    const Deadline deadline(20'000);
    std::vector<pid_t> children;
    while (children.size() < 3 && !deadline.expired()) {  // a coordinator and two workers
        sleepMs(200);
        children = childrenOf(run.pid());
    }
    sleepMs(2000);  // let training start
    return children;
}

// The children of `pid` whose command line holds `word` as an argument ("shard").
std::vector<pid_t> childrenRunning(pid_t pid, const std::string& word) {
    std::vector<pid_t> found;
    for (pid_t child : childrenOf(pid)) {
        const std::string line = readFile("/proc/" + std::to_string(child) + "/cmdline");
        if (contains(line, std::string(1, '\0') + word + std::string(1, '\0'))) found.push_back(child);
    }
    return found;
}

}  // namespace

TEST(TestLocalCluster, aKilledShardIsStartedAgain) {
    TempDir dir;
    const std::string checkpoints = dir.filePath("checkpoints"), recording = dir.filePath("run.ssrec");
    ChildProcess run;
    ChildOptions options;
    options.stdoutPath = dir.filePath("out");
    options.stderrPath = dir.filePath("err");
    ASSERT_TRUE(run.start(SYNCSCOPE_ENGINE_BINARY,
                          {"run", "--workers", "3", "--shards", "2", "--aggregators", "2", "--model", "mlp", "--mode", "asp", "--lr-modulation",
                           "dynsgd", "--heartbeat-timeout", "1", "--eval-interval", "5", "--target-accuracy", "85",
                           "--max-seconds", "200", "--checkpoint-dir", checkpoints, "--checkpoint-seconds", "1", "--record",
                           recording, "--json", "--data", SYNCSCOPE_FASHION_MNIST_DIR},
                          options));
    ASSERT_TRUE(waitUntil([&] { return newestPeriodicVersion(checkpoints) > 40; }, 60'000))
        << "no checkpoint past version 40\n" << readFile(dir.filePath("err"));
    const std::vector<pid_t> shards = childrenRunning(run.pid(), "shard");
    ASSERT_EQ(shards.size(), size_t(2)) << readFile(dir.filePath("err"));
    ::kill(shards[1], SIGKILL);
    ASSERT_TRUE(run.waitForExit(200'000)) << "the run did not finish\n" << readFile(dir.filePath("err"));
    const std::string out = readFile(dir.filePath("out")), err = readFile(dir.filePath("err"));
    ASSERT_EQ(run.exitCode(), 0) << err;
    ASSERT_TRUE(contains(err, "started another")) << err;
    const engine::Recording r = loadRecording(recording);
    std::string lost;
    int joined = 0, rejoined = 0;
    for (const wire::Record& record : r.records) {
        if (!record.has_tick()) continue;
        for (const wire::Event& e : record.tick().events()) {
            if (e.kind() == wire::EVENT_SHARDS && contains(e.detail(), "range of the model is lost")) lost = e.detail();
            joined += e.kind() == wire::EVENT_WORKER_JOINED;
            rejoined += e.kind() == wire::EVENT_WORKER_REJOINED;
        }
    }
    ASSERT_TRUE(!lost.empty()) << "the recording lacks the lost shard's event\n" << err;
    ASSERT_EQ(joined, 3) << "a worker came back under a new id\n" << err;
    ASSERT_TRUE(rejoined >= 3) << err;
    const size_t at = out.find("\"final_test_accuracy\":");
    ASSERT_TRUE(at != std::string::npos) << out;
    const double accuracy = std::strtod(out.c_str() + at + 22, nullptr);
    testLog("%s; final test accuracy %.2f%%", lost.c_str(), 100 * accuracy);
    ASSERT_TRUE(accuracy >= 0.80) << out;
}

TEST(TestLocalCluster, ctrlCStopsEveryChild) {
    TempDir dir;
    ChildProcess run;
    const std::vector<pid_t> children = startRunAndWaitForChildren(run, dir.filePath("out"));
    ASSERT_EQ(children.size(), size_t(3));
    ::kill(run.pid(), SIGINT);
    ASSERT_TRUE(run.waitForExit(20'000)) << "run did not exit after Ctrl-C";
    ASSERT_EQ(run.exitCode(), 130);
    ASSERT_TRUE(contains(readFile(dir.filePath("out")), "final test accuracy"))
        << "a stopped run still reports its final accuracy";
    ASSERT_TRUE(allGoneWithin(children, 5000));
}

TEST(TestLocalCluster, parentDeathKillsChildren) {
    TempDir dir;
    ChildProcess run;
    const std::vector<pid_t> children = startRunAndWaitForChildren(run, dir.filePath("out"));
    ASSERT_EQ(children.size(), size_t(3));
    run.kill();  // SIGKILL: no chance to clean up, so the kernel's PDEATHSIG must
    ASSERT_TRUE(allGoneWithin(children, 5000));
}
