// The run plan: what the flags describe, validated once, and the file a coordinator is given
// (`serve --plan`) reading back the same run, zeros included.
#include <gtest/gtest.h>

#include <google/protobuf/util/message_differencer.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "engine/cli/run_options.h"
#include "engine/core/temporary_folder.h"
#include "engine/plan/mode_catalog.h"
#include "engine/plan/run_plan.h"

namespace {

using namespace syncscope::engine;
namespace wire = syncscope::wire;

// `run`'s flags parsed from `args` (as a person types them) into a plan.
Result<wire::RunPlan> planFromFlags(std::vector<std::string> args) {
    CLI::App app;
    RunOptions options;
    addPlacementOptions(app, options);  // as `run` adds them: --aggregators, --backend, --cpu-quota ...
    addRunOptions(app, options, true);
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    try {
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        return invalidArgument(e.what());
    }
    return toRunPlan(options);
}

TEST(RunPlan, TheDefaultsAreARunOnceItHasAnEnd) {
    const Status noEnd = validateRunPlan(defaultRunPlan());
    ASSERT_FALSE(noEnd);
    EXPECT_NE(noEnd.message().find("the run has no end"), std::string::npos) << noEnd.message();
    wire::RunPlan plan = defaultRunPlan();
    plan.mutable_stop()->set_until_stopped(true);
    EXPECT_TRUE(validateRunPlan(plan)) << validateRunPlan(plan).message();
}

TEST(RunPlan, FlagsBecomeOnePlan) {
    auto plan = planFromFlags({"--workers", "4", "--mode", "ssp", "--staleness", "5", "--lr", "0.02", "--shards", "2",
                               "--shard-replicas", "2", "--slowdown", "1:3:20", "--target-accuracy", "85", "--checkpoint-dir", "/tmp/ck",
                               "--record", "/tmp/r.ssrec", "--momentum", "0", "--spare-workers", "0"});
    ASSERT_TRUE(plan) << plan.status().message();
    EXPECT_EQ(plan->layout().workers(), 4u);
    EXPECT_EQ(plan->layout().shards(), 2u);
    EXPECT_EQ(plan->layout().shard_replicas(), 2u);
    EXPECT_EQ(shardProcesses(plan->layout()), 4u);
    EXPECT_EQ(plan->layout().spare_workers(), 0u);
    EXPECT_EQ(plan->mode().mode(), wire::SSP);
    EXPECT_EQ(plan->mode().staleness_bound(), 5u);
    EXPECT_FLOAT_EQ(plan->spec().learning_rate(), 0.02f);
    EXPECT_FLOAT_EQ(plan->spec().momentum(), 0.0f);
    EXPECT_DOUBLE_EQ(plan->stop().target_accuracy(), 0.85);
    EXPECT_DOUBLE_EQ(plan->stop().max_epochs(), 0.0);  // a condition is given: no default 5 epochs
    ASSERT_EQ(plan->slowdowns().count(1), 1u);
    EXPECT_DOUBLE_EQ(plan->slowdowns().at(1).factor(), 3.0);
    EXPECT_DOUBLE_EQ(plan->slowdowns().at(1).fixed_delay_ms(), 20.0);
    EXPECT_EQ(plan->checkpoints().folder(), "/tmp/ck");
    EXPECT_FALSE(plan->checkpoints().resume());
    EXPECT_EQ(plan->record_path(), "/tmp/r.ssrec");

    auto placed = planFromFlags({"--workers", "3", "--backend", "cpu", "--threads-per-worker", "2", "--cpu-quota", "1:0.25",
                                 "--max-seconds", "10"});
    ASSERT_TRUE(placed) << placed.status().message();
    EXPECT_EQ(placed->layout().worker_backend(), "cpu");
    EXPECT_EQ(placed->layout().worker_threads(), 2u);
    ASSERT_EQ(placed->layout().cpu_quotas().count(1), 1u);
    EXPECT_DOUBLE_EQ(placed->layout().cpu_quotas().at(1), 0.25);

    auto bare = planFromFlags({});
    ASSERT_TRUE(bare) << bare.status().message();
    EXPECT_DOUBLE_EQ(bare->stop().max_epochs(), 5.0);  // a run needs an end
    EXPECT_EQ(bare->spec().batch_size(), defaultRunPlan().spec().batch_size());
}

TEST(RunPlan, RulesAcrossFlagsAreCheckedOnce) {
    const auto refused = [](std::vector<std::string> args, const std::string& words) {
        auto plan = planFromFlags(args);
        ASSERT_FALSE(plan) << "accepted: " << args.front();
        EXPECT_NE(plan.status().message().find(words), std::string::npos) << plan.status().message();
    };
    refused({"--until-stopped", "--epochs", "1"}, "contradict");
    refused({"--model", "external"}, "--parameters");
    refused({"--parameters", "100"}, "--parameters 100 is for --model external");
    refused({"--resume", "/a", "--checkpoint-dir", "/b"}, "differ");
    refused({"--workers", "2", "--aggregators", "3"}, "more than the 2 workers");
    refused({"--cpu-quota", "1:2"}, "SHARE in 0.01..1");
}

// Workers on hosts: the hosts' counts are the run's, every host runs some, and what only this
// machine can run (relays, CPU quotas) is refused naming what to do instead.
TEST(RunPlan, APlacementOnHostsAddsUp) {
    wire::RunPlan plan = defaultRunPlan();
    plan.mutable_stop()->set_until_stopped(true);
    plan.mutable_layout()->set_workers(3);
    wire::Placement& place = *plan.mutable_layout()->mutable_placement();
    place.set_kind(wire::Placement::PLACE_HOSTS);
    const auto refused = [](const wire::RunPlan& p, const std::string& words) {
        const Status s = validateRunPlan(p);
        ASSERT_FALSE(s) << "accepted: " << p.layout().placement().ShortDebugString();
        EXPECT_NE(s.message().find(words), std::string::npos) << s.message();
    };
    refused(plan, "no hosts");
    wire::HostWorkers* first = place.add_hosts();
    first->set_host("node1");
    first->set_workers(2);
    refused(plan, "--workers 3 disagrees with the 2 workers");
    wire::HostWorkers* second = place.add_hosts();
    second->set_host("node2");
    second->set_workers(1);
    EXPECT_TRUE(validateRunPlan(plan)) << validateRunPlan(plan).message();
    second->set_workers(0);
    refused(plan, "node2 runs 0 workers");
    second->set_workers(1);
    plan.mutable_layout()->set_shards(2);
    refused(plan, "syncscope-engine shard --connect");
    plan.mutable_layout()->set_shards(0);
    (*plan.mutable_layout()->mutable_cpu_quotas())[0] = 0.5;
    refused(plan, "--cpu-quota");
    plan.mutable_layout()->clear_cpu_quotas();
    place.set_kind(wire::Placement::PLACE_LOCAL);
    refused(plan, "hosts are given");
}

TEST(RunPlan, ReplicasNeedShardsAndStayFew) {
    const auto refused = [](const wire::RunPlan& p, const std::string& words) {
        const Status s = validateRunPlan(p);
        ASSERT_FALSE(s) << "accepted: " << p.layout().ShortDebugString();
        EXPECT_NE(s.message().find(words), std::string::npos) << s.message();
    };
    wire::RunPlan plan = defaultRunPlan();
    plan.mutable_stop()->set_until_stopped(true);
    plan.mutable_layout()->set_shard_replicas(2);
    refused(plan, "add --shards S");
    plan.mutable_layout()->set_shards(3);
    EXPECT_TRUE(validateRunPlan(plan)) << validateRunPlan(plan).message();
    EXPECT_EQ(shardProcesses(plan.layout()), 6u);
    plan.mutable_layout()->set_shard_replicas(kMaxShardReplicas + 1);
    refused(plan, "--shard-replicas");
    plan.mutable_layout()->set_shard_replicas(0);  // an older plan: one copy
    EXPECT_EQ(shardProcesses(plan.layout()), 3u);
}

TEST(RunPlan, TheFileReadsBackTheSameRunZerosIncluded) {
    auto folder = TemporaryFolder::create("syncscope-run-plan-");
    ASSERT_TRUE(folder) << folder.status().message();
    auto plan = planFromFlags({"--workers", "3", "--mode", "kasync", "--k", "2", "--momentum", "0", "--weight-decay", "0",
                               "--spare-workers", "0", "--schedule", "constant", "--slowdown", "0:2", "--slowdown",
                               "2:1:5:0.1:4", "--max-seconds", "30", "--paused"});
    ASSERT_TRUE(plan) << plan.status().message();
    const std::string path = folder->path() + "/run.plan";
    ASSERT_TRUE(writeRunPlan(path, *plan));
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u);  // it names the run's folders and files
    auto read = readRunPlan(path);
    ASSERT_TRUE(read) << read.status().message();
    std::string difference;
    google::protobuf::util::MessageDifferencer differ;
    differ.ReportDifferencesToString(&difference);
    EXPECT_TRUE(differ.Compare(*plan, *read)) << difference;
    EXPECT_FLOAT_EQ(read->spec().momentum(), 0.0f);  // not the default 0.9
    EXPECT_EQ(read->layout().spare_workers(), 0u);   // not the default 2
    EXPECT_FALSE(read->stop().cosine_schedule());    // not the default cosine

    auto viaFlag = planFromFlags({"--plan", path});
    ASSERT_TRUE(viaFlag) << viaFlag.status().message();
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*plan, *viaFlag));
    EXPECT_FALSE(planFromFlags({"--plan", path, "--workers", "2"}));  // a plan is the whole run
    EXPECT_FALSE(planFromFlags({"--plan", path, "--cpu-quota", "0:0.5"}));  // its placement too
}

TEST(RunPlan, ABadFileSaysWhereAndWhat) {
    auto folder = TemporaryFolder::create("syncscope-run-plan-");
    ASSERT_TRUE(folder) << folder.status().message();
    const std::string path = folder->path() + "/bad.plan";
    std::ofstream(path) << "spec { model: \"mlp\"\n  learning_rate: 0.1\n  lr: 3 }\n";
    auto garbled = readRunPlan(path);
    ASSERT_FALSE(garbled);
    EXPECT_NE(garbled.status().message().find("line 3"), std::string::npos) << garbled.status().message();
    EXPECT_NE(garbled.status().message().find("\"lr\""), std::string::npos) << garbled.status().message();

    wire::RunPlan invalid = defaultRunPlan();
    invalid.mutable_stop()->set_max_seconds(10);
    invalid.mutable_spec()->set_learning_rate(-1);
    ASSERT_TRUE(writeRunPlan(path, invalid));
    auto refused = readRunPlan(path);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.status().message().find("--lr -1"), std::string::npos) << refused.status().message();

    auto missing = readRunPlan(folder->path() + "/none.plan");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.status().message().find("cannot read the run plan"), std::string::npos);
}

}  // namespace
