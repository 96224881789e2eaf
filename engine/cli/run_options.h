// The flags that describe a run (model, data, mode, stop conditions, stragglers), shared by
// `serve` (a coordinator) and `run` (a local cluster, which hands them on to its coordinator).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "engine/ps/coordinator.h"

namespace syncscope::engine {

struct RunOptions {
    std::string model = "mlp", data, mode = "bsp", lrModulation = "none", record, schedule = "cosine";
    unsigned batch = 64, staleness = 3, workers = 1;
    float lr = 0.05f, momentum = 0.9f, weightDecay = 5e-4f;
    uint64_t seed = 1;
    double epochs = 0, maxSeconds = 0, targetAccuracy = 0, evalInterval = 1.0, tickHz = 10, heartbeatTimeout = 2.0;
    std::vector<std::string> slowdowns;  ///< "WORKER:FACTOR[:FIXED_MS[:P:TRANSIENT_FACTOR]]"
    // The later modes' parameters (see ModeSettings in engine/proto/syncscope.proto).
    unsigned groups = 2, k = 0;
    std::string groupBy = "round-robin", intraGroup = "bsp", elasticBarrier = "enforced";
    double rebalanceSeconds = 2.0, decisionSeconds = 5.0;
    bool paused = false;
};

/// Registers the run flags on a subcommand.
void addRunOptions(CLI::App& cmd, RunOptions& options);
/// Turns parsed flags into coordinator options; errors name the flag and the fix.
Result<CoordinatorOptions> toCoordinatorOptions(const RunOptions& options);
/// The same flags as command-line arguments again, for a child `serve` process.
std::vector<std::string> toServeArguments(const RunOptions& options);

}  // namespace syncscope::engine
