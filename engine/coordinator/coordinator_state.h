// CoordinatorState: what the coordinator's parts (data plane, control handler, telemetry, event log)
// share: the run's options, model, workers, mode and policy, its state, gradient totals and clock.
// The parts are named after what they do; the Coordinator wires them and runs the loop.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/net/credentials.h"
#include "engine/plan/run_plan.h"
#include "engine/proto/syncscope.pb.h"
#include "engine/coordinator/background_evaluator.h"
#include "engine/model/parameter_store.h"
#include "engine/policy/sync_policy.h"
#include "engine/policy/worker_registry.h"

namespace syncscope::engine {

/// A coordinator's run is its plan; the rest is where it listens and who may connect, which a plan
/// leaves to the process that serves it.
struct CoordinatorOptions {
    /// The run (a validated one): spec.data_dir resolved and spec.shard_count the layout's workers
    /// (coordinatorOptionsFor). The parts read it from here, never from copies of their own.
    wire::RunPlan plan = defaultRunPlan();
    std::string bindHost = "127.0.0.1";
    int dataPort = 0, controlPort = 0, telemetryPort = 0;  ///< 0: any free port
    const std::atomic<bool>* interrupted = nullptr;  ///< set by a signal handler: stop gracefully
    /// Who may connect; empty: nobody is authenticated (--insecure, loopback only).
    std::optional<Credentials> credentials;
    /// The file `credentials` came from, read again when it changes (named workers added, revoked).
    std::string credentialsPath;
    bool plainDataPlane = false;   ///< the data plane authenticated (PLAIN + ZAP) but not encrypted
};

/// Every gradient pushed is applied, dropped, or pending in the policy's partial aggregate.
struct GradientTotals {
    uint64_t pushed = 0, applied = 0, dropped = 0;
    uint64_t samples = 0;  ///< samples of all pushed gradients
    /// Samples of the applied gradients, counted when applied; and the same, each worth 1 / (1 +
    /// kStalenessCost x its staleness) (mode_predictions.h): the what-if view's measure of progress.
    double appliedSamples = 0, effectiveSamples = 0;
};

struct CoordinatorState {
    CoordinatorState(const CoordinatorOptions& options, std::vector<float> initial, uint64_t trainCount);
    /// The training-set size (for epochs, the schedule and shards), in the run spec too.
    void setTrainCount(uint64_t count);

    CoordinatorOptions options;
    uint64_t trainCount;  ///< training-set size, for epochs (0: not known yet, an external model)
    ParameterStore store;
    WorkerRegistry workers;
    wire::ModeSettings mode;
    std::unique_ptr<SyncPolicy> policy;
    wire::RunState state = wire::RUN_WAITING_FOR_WORKERS;
    GradientTotals totals;
    double trainLoss = 0.0;  ///< smoothed over pushes
    bool haveLoss = false;
    std::optional<EvaluationResult> lastEvaluation;
    uint64_t runId = 0, startUnixMs = 0;
    Clock::time_point startTime, trainingStart;
    bool started = false;
    double trainingSecondsBefore = 0;  ///< training time before a resume (the time limit counts it)
    uint64_t nextChangeId = 1;         ///< the number the next control change gets
    uint64_t currentChange = 0;        ///< while a change is carried out: its number (stamped on its events)
    uint64_t minimumBaseVersion = 0;   ///< gradients on older versions are dropped (after a rollback)
    bool pausedForStorage = false;     ///< the run paused itself because the disk is full
    /// A run of an external model waits for its first worker's initial parameters (and its
    /// training-set size) before anything else registers.
    bool awaitingInitialParameters = false;

    bool external() const;
    /// Passes over the training set so far (all workers together).
    double epochsDone() const;
    double elapsedSeconds() const;
    double trainingSeconds() const;
    /// The base learning rate, with the cosine schedule over maxEpochs applied.
    float scheduledLearningRate() const;
    /// 0..1 toward the run's stop condition.
    double progress() const;
    wire::RecordingHeader header() const;
    /// "curve", "curve, data plane plain" or "none": how the endpoints authenticate.
    std::string authentication() const;
    /// The stop condition reached, or empty.
    std::string stopReason() const;
};

}  // namespace syncscope::engine
