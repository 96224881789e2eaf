// A worker that is a command of the user's (RunLayout.worker_command, `run` / `launch --worker-command`):
// a PyTorch script joining the run through python/syncscope. It runs under `sh -c` wherever the plan
// places workers (here, on the hosts over ssh, in a Slurm task), with the environment that says where
// the run is, in torchrun's names where torchrun has one. syncscope.Worker() reads the same names
// (python/syncscope/worker.py, ENVIRONMENT).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

/// The shell a worker command runs under.
inline constexpr const char* kWorkerShell = "/bin/sh";

/// The environment's names.
inline constexpr const char* kConnectVariable = "SYNCSCOPE_CONNECT";          ///< the coordinator's data endpoint
inline constexpr const char* kCredentialsVariable = "SYNCSCOPE_CREDENTIALS";  ///< the worker keys' file
inline constexpr const char* kDataPlaneVariable = "SYNCSCOPE_DATA_PLANE";     ///< encrypted or authenticated
inline constexpr const char* kInsecureVariable = "SYNCSCOPE_INSECURE";        ///< 1: no keys (--insecure)
inline constexpr const char* kRankVariable = "RANK";                          ///< the worker's index, 0..WORLD_SIZE-1
inline constexpr const char* kLocalRankVariable = "LOCAL_RANK";               ///< its index on its host
inline constexpr const char* kWorldSizeVariable = "WORLD_SIZE";               ///< the run's workers
/// --threads-per-worker, in each threading library's variable: torch.set_num_threads reaches OpenMP and
/// MKL but not an OpenBLAS that PyTorch links as libblas.so.3 (Debian's python3-torch), whose threads
/// spin after every product and take the CPU a worker's ZeroMQ I/O thread and its neighbours need.
inline constexpr std::array<const char*, 3> kThreadsVariables = {"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                                                                 "MKL_NUM_THREADS"};
inline constexpr const char* kSeedVariable = "SYNCSCOPE_SEED";                ///< the run's --seed (initial model, data order)

/// Where one worker command stands in its run.
struct WorkerPlace {
    std::string connect;      ///< the data endpoint it reaches the coordinator (or its aggregator's dealer) at
    std::string credentials;  ///< the worker keys' file; empty: the run is --insecure
    std::string dataPlane;    ///< "encrypted" or "authenticated" (with credentials)
    unsigned rank = 0, localRank = 0, worldSize = 1, threads = 1;
    uint64_t seed = 0;  ///< the run's seed, for the script's initial model and data order
};

/// The place of a worker of `plan` (its world size, threads and seed), reaching the coordinator at
/// `connect` with `credentials` on `dataPlane` (no credentials: --insecure); rank 0.
WorkerPlace workerPlace(const wire::RunPlan& plan, const std::string& connect, const std::string& credentials,
                        const std::string& dataPlane);

/// Its environment, "NAME=value" each, to add to the launching process's.
std::vector<std::string> workerCommandEnvironment(const WorkerPlace& place);
/// An evaluator command's (RunLayout.evaluator_command): where the run is and the threads, without a
/// rank (it is not a worker; syncscope.rank() says 0, world_size() 1).
std::vector<std::string> evaluatorCommandEnvironment(const WorkerPlace& place);

}  // namespace syncscope::engine
