// ExperimentSpec: the grid `syncscope-engine experiment` runs (modes × straggler delays × seeds) and
// how each run is made; the seeds' protocol is built in and also shipped as a JSON scenario file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/status.h"

namespace syncscope::engine {

/// One row of the result tables: a label and the `run` flags that make the mode.
struct ExperimentMode {
    std::string name;               ///< "ssp-s3": a label in tables and plots
    std::vector<std::string> args;  ///< handed to `run`: {"--mode", "ssp", "--staleness", "3"}
    /// The sync mode itself (the value after --mode): "bsp", "grouped", ...
    std::string family() const;
};

struct ExperimentSpec {
    std::string name = "seeds-protocol";
    unsigned workers = 8;
    std::string model = "mlp";
    unsigned straggler = 0;                       ///< the worker slowed down
    std::vector<int> delaysPercent{0, 100, 200, 300, 400};  ///< the straggler's extra delay d%
    /// With a base: d% is a fixed extra delay of d/100 x delayBaseMs per iteration (a normal
    /// iteration's time); without (0): the slowdown factor 1 + d/100 on its compute time.
    double delayBaseMs = 8;
    /// How the straggler is slowed: "inject" (the worker sleeps: --slowdown) or "cpu-quota" (the
    /// kernel limits its process to its fair share of the host's CPUs / (1 + d/100): run --cpu-quota;
    /// a real straggler; see fairCpuShare).
    std::string stragglerKind = "inject";
    /// Heterogeneous speeds, worker by worker (worker i at workerSpeeds[i]): a speed below 1 limits
    /// that worker's process to speed x its fair CPU share (run --cpu-quota); 1 leaves it alone.
    std::vector<double> workerSpeeds;
    std::vector<uint64_t> seeds{1, 2, 3};
    double targetAccuracyPercent = 85;  ///< a run stops here (unless runToCap) and "time to target" means this
    double maxSeconds = 20;             ///< time cap of one run (training time)
    double fixedTimeSeconds = 5;        ///< "accuracy at a fixed time" (runs here reach 85% in 2-10 s)
    double evalIntervalSeconds = 0.5;
    bool runToCap = false;              ///< keep training past the target until maxSeconds
    std::vector<std::string> runArgs;   ///< flags for every run (schedule, backend, ...)
    std::string dataDir;                ///< Fashion-MNIST folder; empty: `run`'s default
    std::vector<ExperimentMode> modes;
    /// results.md ends with issue 5's two targets (the seeds' protocol); a reproduction's parts have
    /// claims instead (claims.md) and leave them out.
    bool seedsTargets = true;
};

/// The seeds' protocol (issue 5): 8 workers, mlp, worker 0 slowed by 0-400%, ten modes, three seeds.
ExperimentSpec seedsProtocol();

/// Reads a JSON spec (format: resources/experiments/seeds-protocol.json); keys left out keep the
/// built-in protocol's values. Unknown keys and wrong types are errors that name the key.
Result<ExperimentSpec> loadExperimentSpec(const std::string& path);

/// Keeps only the named modes, in the order given; an unknown name is an error listing the known ones.
Status selectModes(ExperimentSpec& spec, const std::vector<std::string>& names);

/// Checks what a run needs: at least one mode, delay and seed; sane numbers; unique mode names.
Status validateSpec(const ExperimentSpec& spec);

/// Reads a spec from JSON text; `where` names it in errors (a file, or a file's part). Keys left out
/// keep the built-in protocol's values.
Result<ExperimentSpec> parseExperimentSpec(const std::string& jsonText, const std::string& where);

/// One worker's fair share of this host's CPUs, min(1, CPUs / workers): what a cpu-quota straggler's
/// delay and a worker speed are relative to (8 workers on 2 cores each get a quarter of a CPU, so a
/// quota of a fifth of a CPU would hardly slow one).
double fairCpuShare(unsigned workers);

/// The `syncscope-engine run` arguments of one run of the grid (recording to recordPath).
std::vector<std::string> runArguments(const ExperimentSpec& spec, const ExperimentMode& mode, int delayPercent,
                                      uint64_t seed, const std::string& recordPath);

/// A stable fingerprint of a run's arguments (the recording path and data folder left out): a
/// finished run is reused only while everything that shaped it is unchanged.
std::string configHash(const std::vector<std::string>& runArgs);

}  // namespace syncscope::engine
