// launch --hosts: the hosts file's lines (HOST [WORKERS], comments, blank lines), every mistake named
// by file:line with what to write, and the ssh commands built from it quoted for a POSIX shell.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/launch/hosts_file.h"
#include "engine/launch/ssh_commands.h"
#include "tests/unit/test_support.h"

using namespace syncscope::engine;
using syncscope::testing::startsWith;
using syncscope::testing::TempDir;
using syncscope::testing::writeFile;

TEST(TestHostsFile, readsHostsCountsAndComments) {
    auto hosts = parseHostsFile("# the lab\n\nnode1 4\n  node2   # one worker\nroot@10.0.0.7\t2\n", "lab.hosts");
    ASSERT_TRUE(hosts) << (hosts ? "" : hosts.status().message().c_str());
    ASSERT_EQ(hosts->size(), size_t(3));
    ASSERT_EQ((*hosts)[0].host, std::string("node1"));
    ASSERT_EQ((*hosts)[0].workers, 4u);
    ASSERT_EQ((*hosts)[0].line, 3u);
    ASSERT_EQ((*hosts)[1].host, std::string("node2"));
    ASSERT_EQ((*hosts)[1].workers, 1u);
    ASSERT_EQ((*hosts)[2].host, std::string("root@10.0.0.7"));
    ASSERT_EQ((*hosts)[2].workers, 2u);
    ASSERT_EQ(totalWorkers(*hosts), 7u);
}

TEST(TestHostsFile, mistakesNameTheLineAndTheFix) {
    const struct {
        const char* row;
        std::string text, expected;
    } rows[] = {
        {"empty", "", "lab.hosts lists no hosts; write one host per line as HOST [WORKERS]"},
        {"comments only", "# node1 4\n\n", "lab.hosts lists no hosts"},
        {"zero workers", "node1 2\nnode2 0\n", "lab.hosts:2: 0 workers for node2; give 1 or more"},
        {"not a count", "node1 four\n", "lab.hosts:1: 'four' is not a worker count for node1"},
        {"negative", "node1 -2\n", "lab.hosts:1: '-2' is not a worker count"},
        {"too many fields", "node1 2 gpu\n", "lab.hosts:1: 'node1' has 3 fields; write one host"},
        {"an ssh option", "-oProxyCommand=evil 1\n", "lab.hosts:1: '-oProxyCommand=evil' is not a host"},
        {"twice", "node1 2\n\nnode1 1\n", "lab.hosts:3: node1 is listed again (first on line 1)"},
        {"huge", "node1 99999999999\n", "lab.hosts:1: 99999999999 workers for node1 is more than"},
    };
    for (const auto& r : rows) {
        SCOPED_TRACE(r.row);
        [&] {
            auto hosts = parseHostsFile(r.text, "lab.hosts");
            ASSERT_FALSE(hosts);
            const std::string& message = hosts.status().message();
            ASSERT_TRUE(startsWith(message, r.expected)) << message;
        }();
    }
}

TEST(TestHostsFile, aMissingFileIsNamed) {
    auto hosts = readHostsFile("/nonexistent/lab.hosts");
    ASSERT_TRUE(!hosts);
    ASSERT_TRUE(startsWith(hosts.status().message(),
                           "cannot read the hosts file /nonexistent/lab.hosts (No such file or directory)"))
        << hosts.status().message();
}

TEST(TestHostsFile, readsAFile) {
    TempDir dir;
    const std::string path = dir.filePath("cluster.hosts");
    ASSERT_TRUE(writeFile(path, "gpu01 8\ngpu02 8\n"));
    auto hosts = readHostsFile(path);
    ASSERT_TRUE(hosts) << (hosts ? "" : hosts.status().message().c_str());
    ASSERT_EQ(totalWorkers(*hosts), 16u);
}

// What reaches the remote shell is exactly the words given, whatever they hold.
TEST(TestHostsFile, shellQuotingSurvivesAShell) {
    const std::string tricky = "it's a $HOME `x` \"y\" \\ ;&|";
    const std::string command = "printf %s " + shellQuote(tricky);
    FILE* shell = popen(command.c_str(), "r");
    ASSERT_TRUE(shell);
    char buffer[256] = {};
    const size_t n = fread(buffer, 1, sizeof buffer - 1, shell);
    pclose(shell);
    ASSERT_EQ(std::string(buffer, n), tricky);
}

// The remote script starts the host's count of workers, each with the host's credentials copy.
TEST(TestHostsFile, startsEachHostsWorkersUnderSh) {
    const std::string script = startWorkersCommand({"/opt/syncscope-engine", "work", "--connect", "tcp://a:5555",
                                                    "--credentials", "/tmp/x y"}, 3, "/tmp/x y");
    ASSERT_TRUE(script.rfind("exec sh -c '", 0) == 0) << script.c_str();
    // Run it here with `echo` standing in for the engine: three lines, each with every argument.
    std::string local = startWorkersCommand({"echo", "work", "--credentials", "/tmp/x y"}, 3, "/nonexistent/c");
    FILE* shell = popen(local.c_str(), "r");
    ASSERT_TRUE(shell);
    char buffer[512] = {};
    const size_t n = fread(buffer, 1, sizeof buffer - 1, shell);
    ASSERT_EQ(pclose(shell), 0);
    ASSERT_EQ(std::string(buffer, n), std::string("work --credentials /tmp/x y\n") + "work --credentials /tmp/x y\n" +
                                          "work --credentials /tmp/x y\n");
}

// A worker command (--worker-command) on a host: each copy runs under sh with the run's environment,
// the host's credentials copy, and its rank (the host's first plus its index).
TEST(TestHostsFile, startsEachHostsWorkerCommandsWithTheirPlace) {
    WorkerPlace place;
    place.connect = "tcp://head:5555";
    place.credentials = "/tmp/the copy's";
    place.dataPlane = "authenticated";
    place.rank = 4;
    place.worldSize = 7;
    place.threads = 2;
    place.seed = 17;
    const std::string script = startWorkerCommandsCommand(
        "echo \"$RANK $LOCAL_RANK/$WORLD_SIZE $SYNCSCOPE_CONNECT $SYNCSCOPE_CREDENTIALS $SYNCSCOPE_DATA_PLANE "
        "$OMP_NUM_THREADS ${SYNCSCOPE_INSECURE:-secure} $SYNCSCOPE_SEED\"",
        3, place);
    FILE* shell = popen((script + " | sort").c_str(), "r");
    ASSERT_TRUE(shell);
    char buffer[1024] = {};
    const size_t n = fread(buffer, 1, sizeof buffer - 1, shell);
    ASSERT_EQ(pclose(shell), 0);
    const std::string common = "/7 tcp://head:5555 /tmp/the copy's authenticated 2 secure 17\n";
    ASSERT_EQ(std::string(buffer, n), "4 0" + common + "5 1" + common + "6 2" + common);
    // --insecure: no keys, said so.
    place.credentials.clear();
    const std::string insecure = startWorkerCommandsCommand("echo \"${SYNCSCOPE_CREDENTIALS:-none} $SYNCSCOPE_INSECURE\"", 1, place);
    shell = popen(insecure.c_str(), "r");
    ASSERT_TRUE(shell);
    const size_t m = fread(buffer, 1, sizeof buffer - 1, shell);
    ASSERT_EQ(pclose(shell), 0);
    ASSERT_EQ(std::string(buffer, m), "none 1\n");
}

TEST(TestHostsFile, sshArgumentsNeverAskAndEndOptions) {
    const auto args = sshArguments("node3", true, "true");
    const std::vector<std::string> list(args.begin(), args.end());
    ASSERT_TRUE(std::find(list.begin(), list.end(), "BatchMode=yes") != list.end());
    ASSERT_TRUE(std::find(list.begin(), list.end(), "-tt") != list.end());
    ASSERT_EQ(std::vector<std::string>(list.end() - std::min<size_t>(3, list.size()), list.end()),
              (std::vector<std::string>{"--", "node3", "true"}));
    ASSERT_EQ(splitCommand("  ssh -F  my.conf "), (std::vector<std::string>{"ssh", "-F", "my.conf"}));
}

TEST(TestHostsFile, sshFailuresQuoteSshAndSayWhatToCheck) {
    const std::string message = sshFailure("node3", "Warning: something\r\nroot@node3: Permission denied (publickey).\r\n");
    ASSERT_TRUE(startsWith(message, "ssh to node3 failed: root@node3: Permission denied (publickey); check that "
                                    "`ssh -o BatchMode=yes node3 true` works"))
        << message;
}
