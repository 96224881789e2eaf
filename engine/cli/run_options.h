// The flags that describe a run (model, data, mode, stop conditions, stragglers), shared by
// `serve`, `run` and `launch`: what a person types, turned into one validated wire::RunPlan
// (engine/plan/run_plan.h), which `run` hands its coordinator as a file. Defaults come from
// defaultRunPlan(); the mode and its parameters' flags from the mode catalogue.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "engine/coordinator/coordinator.h"

namespace syncscope::engine {

/// The flags as given; every default is defaultRunPlan()'s.
struct RunOptions {
    RunOptions();
    std::string model, data, mode, record, schedule;
    unsigned batch, workers;
    float lr, momentum, weightDecay;
    uint64_t seed;
    uint64_t parameters = 0;  ///< --model external: the model's parameter count
    uint64_t buffers = 0;     ///< --model external: how many of those are buffers
    double epochs = 0, maxSeconds = 0, targetAccuracy = 0, evalInterval, tickHz, heartbeatTimeout;
    std::vector<std::string> slowdowns;  ///< "WORKER:FACTOR[:FIXED_MS[:P:TRANSIENT_FACTOR]]"
    /// The mode parameters' flags as given, by ModeSettings field ("staleness_bound" -> "3").
    std::map<std::string, std::string> modeParameters;
    bool paused = false;
    bool untilStopped = false;  ///< no stop condition: trains until a stop command
    unsigned spareWorkers;
    double maxGradientNorm;
    unsigned shards;  ///< parameter shards (0: the model lives in the coordinator)
    unsigned shardReplicas;  ///< copies of each shard's range
    unsigned aggregators = 0;  ///< `run` and `launch --slurm`: group aggregator processes
    /// `run`'s placement of its workers: --backend, --threads-per-worker, --cpu-quota WORKER:SHARE.
    std::string workerBackend = "auto";
    unsigned workerThreads = 1;
    std::vector<std::string> cpuQuotas;
    std::string workerCommand;  ///< --worker-command: workers that are this shell command
    std::string evaluatorCommand;  ///< `run --evaluator-command`: an external model's evaluator, this shell command
    std::string checkpointDir, resumeDir, onStorageFailure = "continue";
    double checkpointSeconds;
    size_t keepCheckpoints, keepChangeCheckpoints;
    std::string planFile;  ///< `serve --plan FILE`: the whole run from a file instead of these flags
    wire::Placement placement;  ///< where the workers run: here unless `launch` places them (no flag of its own)
};

/// Registers the run flags on a subcommand; with `planFlag`, also --plan FILE, which excludes them
/// (and any registered before with addPlacementOptions).
void addRunOptions(CLI::App& cmd, RunOptions& options, bool planFlag = false);
/// `run`'s own: --aggregators, --backend, --threads-per-worker, --cpu-quota, --worker-command,
/// --evaluator-command (before
/// addRunOptions).
void addPlacementOptions(CLI::App& cmd, RunOptions& options);
/// --worker-command (`run` and `launch`): the workers are a command of the user's.
void addWorkerCommandOption(CLI::App& cmd, RunOptions& options);
/// The mode settings the flags describe (defaults from the catalogue for flags not given).
Result<wire::ModeSettings> toModeSettings(const RunOptions& options);
/// The run the flags describe (or --plan's file), validated once; errors name the flag and the fix.
/// Without a stop condition or --until-stopped the run stops after 5 epochs.
Result<wire::RunPlan> toRunPlan(const RunOptions& options);
/// What a coordinator is given for `plan` (a valid one); where it listens and who may connect are
/// set apart. An empty data folder becomes defaultFashionMnistDir().
CoordinatorOptions coordinatorOptionsFor(const wire::RunPlan& plan);

}  // namespace syncscope::engine
