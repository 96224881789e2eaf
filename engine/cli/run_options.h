// The flags that describe a run (model, data, mode, stop conditions, stragglers), shared by
// `serve` (a coordinator) and `run` (a local cluster, which hands them on to its coordinator).
// The mode and its parameters' flags come from the mode catalogue (engine/ps/mode_catalog.h).
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "engine/ps/coordinator.h"

namespace syncscope::engine {

struct RunOptions {
    std::string model = "mlp", data, mode = "bsp", record, schedule = "cosine";
    unsigned batch = 64, workers = 1;
    float lr = 0.05f, momentum = 0.9f, weightDecay = 5e-4f;
    uint64_t seed = 1;
    uint64_t parameters = 0;  ///< --model external: the model's parameter count
    double epochs = 0, maxSeconds = 0, targetAccuracy = 0, evalInterval = 1.0, tickHz = 10, heartbeatTimeout = 2.0;
    std::vector<std::string> slowdowns;  ///< "WORKER:FACTOR[:FIXED_MS[:P:TRANSIENT_FACTOR]]"
    /// The mode parameters' flags as given, by ModeSettings field ("staleness_bound" -> "3").
    std::map<std::string, std::string> modeParameters;
    bool paused = false;
    bool untilStopped = false;  ///< no stop condition: trains until a stop command
    unsigned spareWorkers = 2;
    double maxGradientNorm = 0;
    unsigned shards = 0;  ///< parameter shards (0: the model lives in the coordinator)
    /// Checkpoints and resume (defaults from CoordinatorOptions).
    std::string checkpointDir, resumeDir, onStorageFailure = "continue";
    double checkpointSeconds = CoordinatorOptions{}.checkpointSeconds;
    size_t keepCheckpoints = CoordinatorOptions{}.keepCheckpoints;
    size_t keepChangeCheckpoints = CoordinatorOptions{}.keepChangeCheckpoints;
};

/// Registers the run flags on a subcommand.
void addRunOptions(CLI::App& cmd, RunOptions& options);
/// The mode settings the flags describe (defaults from the catalogue for flags not given).
Result<wire::ModeSettings> toModeSettings(const RunOptions& options);
/// Turns parsed flags into coordinator options; errors name the flag and the fix.
Result<CoordinatorOptions> toCoordinatorOptions(const RunOptions& options);
/// The same flags as command-line arguments again, for a child `serve` process.
std::vector<std::string> toServeArguments(const RunOptions& options);

}  // namespace syncscope::engine
