// The role of each process of a run, by its place in the start order the Cluster follows: the
// coordinator, then the parameter shards, then the group aggregators, then the workers. In a Slurm
// step srun places the tasks and each takes the role of its rank (SLURM_PROCID) from here, so a
// step and a local or ssh-placed cluster start the same processes in the same order.
#pragma once

#include "engine/plan/run_plan.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

enum class TaskRole { Coordinator, Shard, Aggregator, Worker };

/// Rank 0 coordinates; ranks 1..S are the layout's shards, the next A its aggregators, the rest work.
inline TaskRole roleOfTask(unsigned rank, const wire::RunLayout& layout) {
    if (rank == 0) return TaskRole::Coordinator;
    if (rank <= shardProcesses(layout)) return TaskRole::Shard;
    if (rank <= shardProcesses(layout) + layout.aggregators()) return TaskRole::Aggregator;
    return TaskRole::Worker;
}

/// The tasks a step needs for `layout`: one coordinator, its relays and its workers.
inline unsigned tasksFor(const wire::RunLayout& layout) {
    return 1 + shardProcesses(layout) + layout.aggregators() + layout.workers();
}

}  // namespace syncscope::engine
