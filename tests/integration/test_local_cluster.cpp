// `syncscope-engine run` stops every child it started: on Ctrl-C (SIGINT) cleanly, and when the
// parent itself is killed, through PR_SET_PDEATHSIG. Real processes; children found under /proc.
#include <gtest/gtest.h>

#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/integration/child_process.h"

using namespace syncscope::testing;

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

}  // namespace

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
