// What a task of a Slurm job step is, read from the variables srun sets: its rank, the step's size,
// the node the coordinator (rank 0) runs on, and the GPU this task should use.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "engine/core/status.h"

namespace syncscope::engine {

struct SlurmTask {
    unsigned rank = 0;          ///< SLURM_PROCID: 0 is the coordinator, the rest are workers
    unsigned tasks = 0;         ///< SLURM_NTASKS
    unsigned localId = 0;       ///< SLURM_LOCALID: this task's index on its node
    std::string firstHost;      ///< the first node of SLURM_STEP_NODELIST, where rank 0 runs
    std::string nodeName;       ///< SLURMD_NODENAME: this task's node (empty when not set)
    std::string jobId;          ///< SLURM_JOB_ID
    std::string submitDir;      ///< SLURM_SUBMIT_DIR (empty when not set)
};

/// Reads the task from `getenv` (the process environment by default); an error names the missing
/// or malformed variable and says to start the command with srun inside an allocation.
Result<SlurmTask> slurmTaskFromEnvironment(const std::function<const char*(const char*)>& getenv = {});

/// The first host of a Slurm host list: "node[07-09,12],gpu01" -> "node07", "a[1-2]-b[3-4]" -> "a1-b3".
Result<std::string> firstHostOf(const std::string& nodeList);

/// The GPU a worker task should see: with CUDA_VISIBLE_DEVICES listing several devices (the GPUs
/// Slurm gave the step on this node), the one at SLURM_LOCALID modulo their count; none (keep the
/// environment) when it lists one or none.
std::optional<std::string> gpuForLocalTask(unsigned localId, const std::string& cudaVisibleDevices);

}  // namespace syncscope::engine
