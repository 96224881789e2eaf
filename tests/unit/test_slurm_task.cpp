// A Slurm task's role and the coordinator's host come from srun's variables: host lists in the forms
// Slurm writes, missing or inconsistent variables refused with the variable named, and the GPU a
// worker binds picked from CUDA_VISIBLE_DEVICES by SLURM_LOCALID.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "engine/launch/slurm_task.h"
#include "engine/launch/task_roles.h"

using namespace syncscope::engine;

namespace {

auto environment(std::map<std::string, std::string> values) {
    return [values = std::move(values)](const char* name) -> const char* {
        auto it = values.find(name);
        return it == values.end() ? nullptr : it->second.c_str();
    };
}

}  // namespace

TEST(TestSlurmTask, firstHostOfEachForm) {
    const struct {
        const char* row;
        std::string list, first;
    } rows[] = {{"one host", "vm", "vm"},
                {"several hosts", "gpu-a,gpu-b", "gpu-a"},
                {"range, padded", "node[07-09,12]", "node07"},
                {"single in brackets", "node[3]", "node3"},
                {"list then range", "node[12,4-5],login1", "node12"},
                {"suffix", "r[1-4]n", "r1n"},
                {"two dimensions", "a[1-2]-b[03-04]", "a1-b03"}};
    for (const auto& r : rows) {
        SCOPED_TRACE(r.row);
        [&] {
            auto host = firstHostOf(r.list);
            ASSERT_TRUE(host) << host.status().message();
            ASSERT_EQ(*host, r.first);
        }();
    }
}

TEST(TestSlurmTask, malformedHostListsAreRefused) {
    for (const char* list : {"", "node[", "node[a-b]", ",node1", "node[]"}) {
        auto host = firstHostOf(list);
        ASSERT_TRUE(!host) << list;
        ASSERT_TRUE(host.status().message().find("scontrol show hostnames") != std::string::npos);
    }
}

TEST(TestSlurmTask, readsTheTask) {
    auto task = slurmTaskFromEnvironment(environment({{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "5"},
                                                      {"SLURM_LOCALID", "1"}, {"SLURM_STEP_NODELIST", "n[2-3]"},
                                                      {"SLURMD_NODENAME", "n3"}, {"SLURM_JOB_ID", "77"},
                                                      {"SLURM_SUBMIT_DIR", "/home/a"}}));
    ASSERT_TRUE(task) << task.status().message().c_str();
    ASSERT_EQ(task->rank, 3u);
    ASSERT_EQ(task->tasks, 5u);
    ASSERT_EQ(task->localId, 1u);
    ASSERT_EQ(task->firstHost, std::string("n2"));
    ASSERT_EQ(task->nodeName, std::string("n3"));
    ASSERT_EQ(task->jobId, std::string("77"));
    ASSERT_EQ(task->submitDir, std::string("/home/a"));
}

TEST(TestSlurmTask, missingVariableIsNamed) {
    auto task = slurmTaskFromEnvironment(environment({{"SLURM_PROCID", "0"}, {"SLURM_LOCALID", "0"}}));
    ASSERT_TRUE(!task);
    ASSERT_TRUE(task.status().message().find("SLURM_NTASKS is not set") != std::string::npos) << task.status().message().c_str();
    ASSERT_TRUE(task.status().message().find("srun") != std::string::npos);
    auto noList = slurmTaskFromEnvironment(environment({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}, {"SLURM_LOCALID", "0"}}));
    ASSERT_TRUE(!noList);
    ASSERT_TRUE(noList.status().message().find("SLURM_STEP_NODELIST") != std::string::npos);
    auto bad = slurmTaskFromEnvironment(environment({{"SLURM_PROCID", "x"}, {"SLURM_NTASKS", "2"}, {"SLURM_LOCALID", "0"}}));
    ASSERT_TRUE(!bad);
    ASSERT_TRUE(bad.status().message().find("SLURM_PROCID='x'") != std::string::npos);
}

TEST(TestSlurmTask, rankBeyondTasksIsRefused) {
    auto task = slurmTaskFromEnvironment(environment(
        {{"SLURM_PROCID", "2"}, {"SLURM_NTASKS", "2"}, {"SLURM_LOCALID", "0"}, {"SLURM_STEP_NODELIST", "a"}}));
    ASSERT_TRUE(!task);
    ASSERT_TRUE(task.status().message().find("SLURM_PROCID 2") != std::string::npos);
}

TEST(TestSlurmTask, gpuFollowsLocalId) {
    ASSERT_TRUE(!gpuForLocalTask(1, ""));      // nothing listed: the backend's device 0
    ASSERT_TRUE(!gpuForLocalTask(3, "2"));     // --gpus-per-task: Slurm already gave this task its own
    ASSERT_EQ(*gpuForLocalTask(0, "0,1,2,3"), std::string("0"));
    ASSERT_EQ(*gpuForLocalTask(2, "4,5,6,7"), std::string("6"));
    ASSERT_EQ(*gpuForLocalTask(5, "4,5,6,7"), std::string("5"));  // more tasks than GPUs on the node: shared
    ASSERT_EQ(*gpuForLocalTask(1, "GPU-aa,GPU-bb"), std::string("GPU-bb"));  // UUIDs as well as indices
}

// A step's ranks take the roles in the order the Cluster starts them: coordinator, shards,
// aggregators, workers.
TEST(SlurmTask, RanksTakeTheClustersStartOrder) {
    syncscope::wire::RunLayout layout;
    layout.set_workers(3);
    layout.set_shards(2);
    EXPECT_EQ(tasksFor(layout), 6u);
    const TaskRole sharded[] = {TaskRole::Coordinator, TaskRole::Shard, TaskRole::Shard,
                                TaskRole::Worker, TaskRole::Worker, TaskRole::Worker};
    for (unsigned rank = 0; rank < 6; ++rank) EXPECT_EQ(roleOfTask(rank, layout), sharded[rank]) << "rank " << rank;
    layout.set_shards(1);
    layout.set_aggregators(2);
    const TaskRole both[] = {TaskRole::Coordinator, TaskRole::Shard, TaskRole::Aggregator, TaskRole::Aggregator,
                             TaskRole::Worker};
    for (unsigned rank = 0; rank < 5; ++rank) EXPECT_EQ(roleOfTask(rank, layout), both[rank]) << "rank " << rank;
}
