// `syncscope-engine` refuses bad flags, unknown names, impossible values and missing data with a
// clear message and a non-zero exit, before doing any work.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/integration/engine_process.h"

using namespace syncscope::testing;

namespace {

struct Rejected {
    const char* row;
    Args args;
    std::string expected;  // a piece of the message the user must see
};

const Rejected kRejected[] = {
    {"no subcommand", {}, "subcommand"},
    {"unknown flag", {"train", "--bogus"}, "--bogus"},
    {"unknown model", {"train", "--model", "resnet"}, "resnet"},
    {"zero batch", {"train", "--batch", "0"}, "--batch must be greater than 0"},
    {"negative lr", {"train", "--lr", "-0.1"}, "--lr must be greater than 0"},
    {"zero epochs", {"train", "--epochs", "0"}, "--epochs must be greater than 0"},
    {"momentum 1", {"train", "--momentum", "1"}, "--momentum must be in"},
    {"batch not a number", {"train", "--batch", "lots"}, "--batch"},
    {"unknown backend", {"train", "--backend", "tpu"}, "tpu"},
    {"bad slowdown", {"run", "--slowdown", "0:0.5"}, "--slowdown '0:0.5'"},
    {"slowdown probability", {"run", "--slowdown", "1:1:0:2:5"}, "transient probability 2 must be from 0 to 1"},
    {"unknown mode", {"run", "--mode", "gossip"}, "gossip"},
    {"until stopped and epochs", {"serve", "--until-stopped", "--epochs", "2"}, "--until-stopped and a stop condition"},
    {"serve port", {"serve", "--data-port", "70000"}, "--data-port"},
    {"work without connect", {"work"}, "--connect"},
    {"aggregate without connect", {"aggregate"}, "--connect"},
    {"aggregate insecure off loopback", {"aggregate", "--connect", "tcp://127.0.0.1:1", "--insecure", "--bind", "0.0.0.0"},
      "0.0.0.0"},
    {"aggregate without credentials", {"aggregate", "--connect", "tcp://127.0.0.1:1", "--credentials", "/nonexistent/credentials"},
      "/nonexistent/credentials"},
    {"more aggregators than workers", {"run", "--workers", "2", "--aggregators", "3"},
      "--aggregators 3 is more than the 2 workers"},
    {"shard without connect", {"shard"}, "--connect"},
    {"shard without credentials", {"shard", "--connect", "tcp://127.0.0.1:1", "--credentials", "/nonexistent/credentials"},
      "/nonexistent/credentials"},
    {"too many shards", {"serve", "--shards", "65"}, "--shards"},
    {"missing hosts file", {"launch", "--hosts", "/nonexistent/hosts"}, "cannot read the hosts file /nonexistent/hosts"},
    {"export missing file", {"export", "/nonexistent.ssrec", "--format", "csv"}, "/nonexistent.ssrec"},
    {"missing data", {"train", "--data", "/nonexistent/fmnist"}, "apt-get install dataset-fashion-mnist"},
};

void rejected(const Rejected& r) {
    const EngineRun run = runEngine(r.args, 60'000);
    ASSERT_TRUE(run.finished) << "the engine did not exit";
    ASSERT_TRUE(run.exitCode > 0) << "exit code " << run.exitCode;
    ASSERT_TRUE(contains(run.err, r.expected)) << "stderr was: " << run.err;
    ASSERT_TRUE(!contains(run.err, "terminate called")) << run.err;
}

}  // namespace

TEST(TestCliErrors, rejected) {
    for (const Rejected& r : kRejected) {
        SCOPED_TRACE(r.row);
        rejected(r);
    }
}

// Relays have no hosts of their own in a hosts file: launch --hosts says where to start them, from
// the plan's validation, after reading the file and before any ssh session.
TEST(TestCliErrors, relaysOverSsh) {
    const std::string hosts = ::testing::TempDir() + "/relays.hosts";
    std::ofstream(hosts) << "node1 2\nnode2 1\n";
    const Rejected rows[] = {
        {"shards over ssh", {"launch", "--hosts", hosts, "--shards", "2", "--insecure", "--bind", "127.0.0.1"},
         "syncscope-engine shard --connect"},
        {"aggregators over ssh", {"launch", "--hosts", hosts, "--aggregators", "1", "--insecure", "--bind", "127.0.0.1"},
         "syncscope-engine aggregate --connect"},
        {"workers disagree", {"launch", "--hosts", hosts, "--workers", "4", "--insecure", "--bind", "127.0.0.1"},
         "--workers 4 disagrees with the 3 workers of " + hosts},
    };
    for (const Rejected& r : rows) {
        SCOPED_TRACE(r.row);
        rejected(r);
    }
}

// --backend cuda on a machine without a usable GPU is an error that says so; auto falls back.
TEST(TestCliErrors, cudaWithoutGpu) {
    const EngineRun probe = runEngine({"train", "--backend", "cuda", "--epochs", "1", "--train-limit", "64"});
    if (probe.exitCode == 0) GTEST_SKIP() << "a usable GPU is present; nothing to refuse";
    ASSERT_TRUE(probe.exitCode > 0);
    ASSERT_TRUE(contains(probe.err, "--backend cuda:") && contains(probe.err, "cpu")) << probe.err;
    const EngineRun fallback = runEngine({"train", "--backend", "auto", "--epochs", "1", "--train-limit", "64"});
    ASSERT_EQ(fallback.exitCode, 0);
    ASSERT_TRUE(contains(fallback.err, "training on the CPU backend")) << fallback.err;
}
