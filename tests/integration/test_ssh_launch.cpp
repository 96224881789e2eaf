// launch --hosts over real ssh. Two hosts, each a network namespace of its own (NetworkLab) running
// a real OpenSSH sshd on its veth address, with a throwaway host key and a throwaway client key in
// a temporary folder (the system's sshd and ~/.ssh are never touched). `launch` runs here and binds
// the coordinator to this namespace's veth address, not loopback, with credentials it makes for the
// run. It copies the worker keys to each host over ssh and starts 1 + 2 workers there, and they
// train the mlp to 85%. Afterwards nothing of the run is left in either namespace, and no
// credentials remain on the hosts or here. A second run is interrupted by SIGINT (Ctrl-C)
// mid-training, and a third is killed (SIGKILL), and the same checks hold. Another run's workers are
// PyTorch scripts (--worker-command), each told its rank and the run by its environment. ssh failures
// name the host. Exits 77 (ctest's skip), saying why, without root, ip netns, sshd or ssh.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "tests/integration/engine_cluster.h"
#include "tests/integration/network_lab.h"
#include "tests/integration/pytorch_workers.h"

using namespace syncscope::testing;
namespace fs = std::filesystem;

namespace {

constexpr int kHosts = 2;
const char* const kSshd = "/usr/sbin/sshd";  // sshd re-executes itself: it must be started by its absolute path

// What keeps this test from running here; empty when nothing does.
std::string whyNotHere() {
    if (::geteuid() != 0) return "network namespaces need root (ip netns); run this test as root";
    if (::access(kSshd, X_OK) != 0)
        return std::string(kSshd) + " not found (Debian: apt-get install openssh-server; ./setup.sh test installs it)";
    for (const char* tool : {"ssh", "ssh-keygen"})
        if (findExecutable(tool).empty()) return std::string(tool) + " not found (Debian: apt-get install openssh-client)";
    NetworkLab probe(1, {200, false});
    if (!probe.ready()) return "cannot make network namespaces here: " + probe.error();
    return {};
}

bool run(const std::string& program, const Args& args, std::string* output = nullptr) {
    const ProgramRun ran = runProgram(program, args, 20'000, true);
    if (output) *output = ran.started ? ran.out : ran.error;
    return ran.started && ran.finished && ran.exitCode == 0;
}

/// `pattern` (ECMAScript) with its special characters escaped: it matches `text` literally.
std::string escaped(const std::string& text) {
    static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
    return std::regex_replace(text, special, R"(\$&)");
}

/// The lines of `text` (split at '\n') that `pattern` matches somewhere, as a multiline
/// QRegularExpression found them: each match's captures (0: the whole match).
std::vector<std::vector<std::string>> matchingLines(const std::string& text, const std::string& pattern) {
    std::vector<std::vector<std::string>> matches;
    const std::regex re(pattern);
    for (const std::string& line : split(text, '\n')) {
        std::smatch m;
        if (!std::regex_search(line, m, re)) continue;
        matches.emplace_back();
        for (const auto& group : m) matches.back().push_back(group.str());
    }
    return matches;
}

/// The hosts: namespace k is host "labK", whose sshd listens on 10.200.k.2; this namespace holds
/// 10.200.k.1 for each, and the coordinator binds 10.200.0.1.
class SshLab {
public:
    SshLab() : m_lab(kHosts, {200, true}) {
        m_error = setUp();
        m_ready = m_error.empty();
    }
    ~SshLab() {
        for (auto& sshd : m_sshd) {
            sshd->terminate();
            if (!sshd->waitForExit(5000)) sshd->kill();
        }
        if (m_madeRunSshd) ::rmdir("/run/sshd");
    }
    bool ready() const { return m_ready; }
    const std::string& error() const { return m_error; }
    std::string dir() const { return m_dir.path(); }
    std::string coordinatorAddress() const { return m_lab.address(0, 1); }
    std::string sshdLog(int k) const { return readFile(dir() + "/sshd" + std::to_string(k) + ".log"); }
    /// The processes in the hosts' namespaces other than their sshd listeners (none once a run is
    /// over), waiting up to `timeoutMs` for sshd's session processes to go.
    std::vector<std::string> leftovers(int timeoutMs = 10'000) const {
        const Deadline deadline(timeoutMs);
        for (;;) {
            std::vector<std::string> left;
            for (int k = 0; k < kHosts; ++k) {
                std::string pids;
                run("ip", {"netns", "pids", m_lab.name(k)}, &pids);
                for (const std::string& pid : split(pids, '\n', true))
                    if (toLongLong(pid) != m_sshd.at(size_t(k))->pid()) left.push_back(describe(trimmed(pid), k));
            }
            if (left.empty() || deadline.expired()) return left;
            sleepMs(200);
        }
    }

private:
    // Keys, configs and an sshd in each namespace, until each answers a login; the error, or none.
    std::string setUp() {
        if (!m_lab.ready()) return m_lab.error();
        const std::string dir = m_dir.path();
        ::chmod(dir.c_str(), 0700);
        std::string out;
        std::error_code copyError;
        if (!run("ssh-keygen", {"-q", "-t", "ed25519", "-N", "", "-f", dir + "/client_key"}, &out) ||
            !fs::copy_file(dir + "/client_key.pub", dir + "/authorized_keys", copyError))
            return "ssh-keygen: " + out;
        m_madeRunSshd = !fs::exists("/run/sshd");  // sshd's privilege separation folder
        if (m_madeRunSshd && ::mkdir("/run/sshd", 0755) != 0) return "cannot make /run/sshd";
        std::string knownHosts, clientConfig;
        for (int k = 0; k < kHosts; ++k) {
            const std::string n = std::to_string(k);
            const std::string key = dir + "/host_key" + n, address = m_lab.address(k, 2);
            if (!run("ssh-keygen", {"-q", "-t", "ed25519", "-N", "", "-f", key}, &out)) return "ssh-keygen: " + out;
            if (!fs::exists(key + ".pub")) return "no " + key + ".pub";
            const std::vector<std::string> pub = split(readFile(key + ".pub"), ' ');
            knownHosts += address + " " + pub[0] + (pub.size() > 1 ? " " + pub[1] : std::string()) + "\n";
            clientConfig += "Host lab" + n + "\n  HostName " + address + "\nHost lab" + n + "-closed\n  HostName " + address +
                            "\n  Port 2222\n";
            const std::string config = dir + "/sshd_config" + n;
            writeFile(config, "ListenAddress " + address + "\nHostKey " + key + "\nAuthorizedKeysFile " + dir +
                                  "/authorized_keys\n"
                                  "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                                  "PermitRootLogin prohibit-password\nUsePAM no\nStrictModes no\nPidFile none\n"
                                  "UseDNS no\nPrintMotd no\n");
            auto sshd = std::make_unique<ChildProcess>();
            ChildOptions options;
            options.stdoutPath = options.stderrPath = dir + "/sshd" + n + ".log";
            const Args launcher = m_lab.launcher(k);
            if (!sshd->start(launcher.front(), Args(launcher.begin() + 1, launcher.end()) + Args{kSshd, "-D", "-e", "-f", config},
                             options))
                return "cannot start sshd in " + m_lab.name(k);
            m_sshd.push_back(std::move(sshd));
        }
        const std::string common = "Host *\n  User root\n  IdentityFile " + dir + "/client_key\n  IdentitiesOnly yes\n"
                                   "  UserKnownHostsFile " + dir + "/known_hosts\n  GlobalKnownHostsFile /dev/null\n"
                                   "  StrictHostKeyChecking yes\n";
        writeFile(dir + "/known_hosts", knownHosts);
        writeFile(dir + "/ssh_config", clientConfig + common);
        writeFile(dir + "/ssh_config_nokey", clientConfig + std::regex_replace(common, std::regex("client_key"), "no_such_key"));
        for (int k = 0; k < kHosts; ++k) {  // until each sshd answers: a login that runs `true`
            const Deadline deadline(15'000);
            while (!run("ssh", {"-F", dir + "/ssh_config", "-o", "BatchMode=yes", "lab" + std::to_string(k), "true"}, &out))
                if (deadline.expired()) return "no ssh login to lab" + std::to_string(k) + ": " + out + "\n" + sshdLog(k);
                else sleepMs(200);
        }
        return {};
    }
    static std::string describe(const std::string& pid, int k) {
        std::string args = readFile("/proc/" + pid + "/cmdline");
        if (args.empty()) args = "?";
        for (char& c : args)
            if (c == '\0') c = ' ';
        return "lab" + std::to_string(k) + " pid " + pid + ": " + trimmed(args);
    }

    NetworkLab m_lab;
    TempDir m_dir;
    std::vector<std::unique_ptr<ChildProcess>> m_sshd;
    bool m_ready = false, m_madeRunSshd = false;
    std::string m_error;
};

// The paths `launch` says it stored the worker credentials at on each host.
std::vector<std::string> credentialsCopies(const std::string& launchLog) {
    std::vector<std::string> paths;
    for (const auto& m : matchingLines(launchLog, R"(^lab\d: worker credentials in (\S+) )")) paths.push_back(m[1]);
    return paths;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (size_t i = 0; i < lines.size(); ++i) text += (i ? "\n" : "") + lines[i];
    return text;
}

}  // namespace

// The tests share one lab (two hosts with their sshds) the suite sets up.
class TestSshLaunch : public ::testing::Test {
protected:
    static void SetUpTestSuite() { s_lab = std::make_unique<SshLab>(); }
    static void TearDownTestSuite() { s_lab.reset(); }
    void SetUp() override { ASSERT_TRUE(s_lab->ready()) << s_lab->error(); }

    static std::unique_ptr<EngineChild> startLaunch(const Args& runFlags, const std::string& sshConfig = "ssh_config") {
        static int runs = 0;
        // launch makes the run's credentials in its working folder
        if (::chdir(s_lab->dir().c_str()) != 0) testFatal("cannot change to %s", s_lab->dir().c_str());
        return std::make_unique<EngineChild>(
            s_lab->dir(), "launch" + std::to_string(runs++),
            Args{"launch", "--hosts", s_lab->dir() + "/lab.hosts", "--ssh", "ssh -F " + s_lab->dir() + "/" + sshConfig,
                 "--bind", s_lab->coordinatorAddress(), "--data-port", "0", "--control-port", "0", "--telemetry-port",
                 "0", "--data", SYNCSCOPE_FASHION_MNIST_DIR, "--model", "mlp", "--batch", "128", "--eval-interval", "2",
                 "--backend", "cpu"} +
                runFlags);
    }
    // 1 + 2 workers on lab0 and lab1 in a long asp run, returned once training started (or after 2 min).
    static std::unique_ptr<EngineChild> startTrainingForLong() {
        writeFile(s_lab->dir() + "/lab.hosts", "lab0 1\nlab1 2\n");
        auto launch = startLaunch({"--mode", "asp", "--max-seconds", "300"});
        const Deadline deadline(120'000);
        while (!contains(launch->stderrText(), "training started with 3 workers") && !deadline.expired() && launch->running())
            sleepMs(200);
        return launch;
    }
    static std::string logs(EngineChild& launch) {
        return "--- stdout:\n" + launch.stdoutText() + "--- stderr:\n" + launch.stderrText();
    }

    static std::unique_ptr<SshLab> s_lab;
};

std::unique_ptr<SshLab> TestSshLaunch::s_lab;

// 1 + 2 workers on two hosts, the coordinator here on 10.200.0.1 with credentials made for the
// run: the mlp to 85%, then nothing left anywhere.
TEST_F(TestSshLaunch, trainsOnTwoHostsAndLeavesNothing) {
    writeFile(s_lab->dir() + "/lab.hosts", "# two hosts in namespaces of their own\nlab0      # 1 worker\nlab1 2\n");
    const Stopwatch clock;
    // The target is above 85: the closing evaluation is of the model a few rounds after the one that met it.
    auto launch = startLaunch({"--mode", "bsp", "--target-accuracy", "87", "--max-seconds", "240"});
    ASSERT_TRUE(launch->waitForExit(280'000)) << "the run did not end\n" << logs(*launch);
    const double seconds = clock.elapsedMs() / 1000.0;
    ASSERT_EQ(launch->exitCode(), 0);
    const std::string out = launch->stdoutText(), err = launch->stderrText();
    const std::string bind = escaped(s_lab->coordinatorAddress());
    ASSERT_TRUE(!matchingLines(out, "^hosts: coordinator here, on " + bind +
                                        "; 3 workers on 2 hosts \\(lab0 1, lab1 2\\) connect to tcp://" + bind + ":\\d+$")
                     .empty())
        << logs(*launch);
    const auto attach = matchingLines(out, "^attach a console: syncscope --attach tcp://" + bind +
                                               R"(:\d+ --credentials (\S+/syncscope-launch-\d+\.credentials) )");
    ASSERT_TRUE(!attach.empty()) << logs(*launch);
    ASSERT_TRUE(!fs::exists(attach.front()[1])) << "the run's own credentials outlived it";
    ASSERT_TRUE(contains(err, "training started with 3 workers")) << logs(*launch);
    ASSERT_EQ(matchingLines(err, R"(^lab\d: worker \d: the run is over)").size(), size_t(3));
    const auto final = matchingLines(out, R"(^final test accuracy: ([0-9.]+)%)");
    ASSERT_TRUE(!final.empty()) << logs(*launch);
    const std::string accuracy = final.front()[1];
    ASSERT_TRUE(toDouble(accuracy) >= 85.0) << logs(*launch);
    const std::vector<std::string> copies = credentialsCopies(err);
    ASSERT_EQ(copies.size(), size_t(kHosts));
    for (const std::string& copy : copies) ASSERT_TRUE(!fs::exists(copy)) << copy << " is still on its host";
    const std::vector<std::string> left = s_lab->leftovers();
    ASSERT_TRUE(left.empty()) << "left behind:\n" << joined(left);
    testLog("final test accuracy %s%% in %.1f s from launch to its end; nothing left in the hosts' namespaces, "
            "credentials removed here and on both hosts",
            accuracy.c_str(), seconds);
}

// --worker-command on the hosts: 1 + 2 PyTorch workers (python/tests/external_model.py, the mlp's
// twin) that each host's script starts under sh, told where the run is by their environment, with
// ranks 0..2 across the hosts in file order; they train to the target and nothing is left.
TEST_F(TestSshLaunch, startsPyTorchWorkersFromACommand) {
    if (const std::string why = whyNoPyTorch(); !why.empty()) GTEST_SKIP() << why;
    writeFile(s_lab->dir() + "/lab.hosts", "lab0 1\nlab1 2\n");
    auto launch = startLaunch({"--mode", "bsp", "--target-accuracy", "85", "--max-seconds", "240", "--threads", "1",
                               "--worker-command", pytorchWorkerCommand("mlp")});
    ASSERT_TRUE(launch->waitForExit(280'000)) << "the run did not end\n" << logs(*launch);
    ASSERT_EQ(launch->exitCode(), 0) << logs(*launch);
    const std::string out = launch->stdoutText(), err = launch->stderrText();
    ASSERT_TRUE(contains(err, "training started with 3 workers")) << logs(*launch);
    std::vector<std::string> places;
    for (const auto& m : matchingLines(err, R"(^(lab\d): rank (\d) of (\d) \(local rank (\d)\), OMP_NUM_THREADS (\d+))"))
        places.push_back(m[1] + " " + m[2] + "/" + m[3] + " " + m[4] + " " + m[5]);
    std::sort(places.begin(), places.end());
    ASSERT_EQ(places, (std::vector<std::string>{"lab0 0/3 0 1", "lab1 1/3 0 1", "lab1 2/3 1 1"})) << logs(*launch);
    ASSERT_EQ(matchingLines(err, R"(^lab\d: worker \d: done at version \d+)").size(), size_t(3)) << logs(*launch);
    const auto final = matchingLines(out, R"(^final test accuracy: ([0-9.]+)%)");
    ASSERT_TRUE(!final.empty() && toDouble(final.front()[1]) >= 83.0) << logs(*launch);
    for (const std::string& copy : credentialsCopies(err)) ASSERT_TRUE(!fs::exists(copy)) << copy << " is still on its host";
    const std::vector<std::string> left = s_lab->leftovers();
    ASSERT_TRUE(left.empty()) << "left behind:\n" << joined(left);
    testLog("--worker-command: 3 PyTorch workers over ssh, final test accuracy %s%%; nothing left",
            final.front()[1].c_str());
}

// SIGINT (Ctrl-C) mid-training: the coordinator stops gracefully, the workers end, nothing is left.
TEST_F(TestSshLaunch, anInterruptLeavesNothing) {
    auto launch = startTrainingForLong();
    ASSERT_TRUE(contains(launch->stderrText(), "training started with 3 workers")) << logs(*launch);
    sleepMs(2000);
    ASSERT_TRUE(s_lab->leftovers(0).size() >= 3) << "the workers are not running in the hosts' namespaces";
    const Stopwatch clock;
    ::kill(launch->pid(), SIGINT);
    ASSERT_TRUE(launch->waitForExit(60'000)) << "launch did not stop after SIGINT\n" << logs(*launch);
    const double seconds = clock.elapsedMs() / 1000.0;
    ASSERT_EQ(launch->exitCode(), 0);
    ASSERT_TRUE(contains(launch->stdoutText(), "final test accuracy: ")) << logs(*launch);
    for (const std::string& copy : credentialsCopies(launch->stderrText()))
        ASSERT_TRUE(!fs::exists(copy)) << copy << " is still on its host";
    const std::vector<std::string> left = s_lab->leftovers();
    ASSERT_TRUE(left.empty()) << "left behind:\n" << joined(left);
    testLog("SIGINT: launch ended %.1f s later; nothing left in the hosts' namespaces", seconds);
}

// launch killed outright (SIGKILL: no cleanup of its own): its ssh sessions die with it, each
// remote terminal hangs up, and the hosts' scripts stop their workers and remove their keys.
TEST_F(TestSshLaunch, aKilledLaunchLeavesNoWorker) {
    auto launch = startTrainingForLong();
    ASSERT_TRUE(contains(launch->stderrText(), "training started with 3 workers")) << logs(*launch);
    launch->kill();
    const std::vector<std::string> left = s_lab->leftovers();
    ASSERT_TRUE(left.empty()) << "left behind:\n" << joined(left);
    for (const std::string& copy : credentialsCopies(launch->stderrText()))
        ASSERT_TRUE(!fs::exists(copy)) << copy << " is still on its host";
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(s_lab->dir(), error)) {
        const std::string name = entry.path().filename().string();
        if (startsWith(name, "syncscope-launch-") && name.ends_with(".credentials"))
            fs::remove(entry.path(), error);  // the run's own file: a killed launch cannot remove it
    }
}

// ssh cannot log in, or cannot reach a host: an error naming that host, nothing started, and the
// copy already made on the host before it removed again.
TEST_F(TestSshLaunch, sshFailuresNameTheHost) {
    writeFile(s_lab->dir() + "/lab.hosts", "lab0 1\nlab1 1\n");
    auto denied = startLaunch({"--max-seconds", "60"}, "ssh_config_nokey");
    ASSERT_TRUE(denied->waitForExit(60'000));
    ASSERT_EQ(denied->exitCode(), 2);
    ASSERT_TRUE(contains(denied->stderrText(), "error: ssh to lab0 failed: root@10.200.0.2: Permission denied (publickey); "
                                               "check that `ssh -o BatchMode=yes lab0 true` works"))
        << logs(*denied);
    ASSERT_TRUE(!contains(denied->stdoutText(), "attach a console"));

    writeFile(s_lab->dir() + "/lab.hosts", "lab0 1\nlab1-closed 1\n");
    auto closed = startLaunch({"--max-seconds", "60"});
    ASSERT_TRUE(closed->waitForExit(60'000));
    ASSERT_EQ(closed->exitCode(), 2);
    ASSERT_TRUE(contains(closed->stderrText(), "error: ssh to lab1-closed failed: ssh: connect to host 10.200.1.2 port 2222: "
                                               "Connection refused"))
        << logs(*closed);
    const std::vector<std::string> copies = credentialsCopies(closed->stderrText());
    ASSERT_EQ(copies.size(), size_t(1));  // lab0's, made before lab1 failed
    ASSERT_TRUE(!fs::exists(copies.front())) << "the copy on lab0 was not removed";
    ASSERT_TRUE(s_lab->leftovers().empty());
}

int main(int argc, char** argv) {
    if (const std::string reason = whyNotHere(); !reason.empty()) {
        std::printf("SKIP: %s\n", reason.c_str());
        return 77;
    }
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
