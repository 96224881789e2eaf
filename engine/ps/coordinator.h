// Coordinator: the parameter server process (`syncscope-engine serve`). One thread owns its three
// sockets: data ROUTER (workers), control ROUTER (consoles), telemetry PUB; it applies gradients
// through the current SyncPolicy, tracks workers, evaluates, publishes ticks and records the run.
#pragma once

#include <zmq.hpp>

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/net/wire_codec.h"
#include "engine/ps/background_evaluator.h"
#include "engine/ps/parameter_store.h"
#include "engine/ps/sync_policy.h"
#include "engine/ps/worker_registry.h"
#include "engine/telemetry/recording_writer.h"

namespace syncscope::engine {

struct CoordinatorOptions {
    std::string bindHost = "127.0.0.1";
    int dataPort = 0, controlPort = 0, telemetryPort = 0;  ///< 0: any free port
    uint32_t expectedWorkers = 1;  ///< training starts once this many have registered
    bool startPaused = false;      ///< wait for a `start` command instead
    wire::RunSpec spec;
    wire::ModeSettings mode;
    double maxEpochs = 0, maxSeconds = 0, targetAccuracy = 0;  ///< stop conditions (0: off)
    bool cosineSchedule = true;  ///< with maxEpochs: the learning rate decays to 0 over the epochs
    std::string recordPath;                                    ///< empty: no recording
    double evalIntervalSeconds = 1.0;
    double tickHz = 10.0;
    double heartbeatTimeoutSeconds = 2.0;
    std::map<uint32_t, wire::Slowdown> slowdowns;  ///< by worker id, applied when it registers
    const std::atomic<bool>* interrupted = nullptr;  ///< set by a signal handler: stop gracefully
};

/// The endpoints a coordinator bound (ports resolved when 0 was asked for).
struct CoordinatorEndpoints {
    std::string data, control, telemetry;
};

class Coordinator final : private PolicyContext {
public:
    /// Loads the test set and the initial model; fails with a clear Status on bad options or data.
    static Result<std::unique_ptr<Coordinator>> create(const CoordinatorOptions& options);
    ~Coordinator() override;

    /// Binds the sockets; after this endpoints() is valid.
    Status bind();
    const CoordinatorEndpoints& endpoints() const { return m_endpoints; }
    /// Runs until a stop condition or a stop command; returns the final evaluation.
    EvaluationResult run();

private:
    Coordinator(const CoordinatorOptions& options, std::vector<float> initial, ImageDataset test, int trainCount);

    // PolicyContext
    uint64_t version() const override { return m_store.version(); }
    size_t parameterCount() const override { return m_store.size(); }
    WorkerRegistry& workers() override { return m_workers; }
    const wire::ModeSettings& modeSettings() const override { return m_mode; }
    void applyUpdate(const float* gradient, const std::vector<wire::Contribution>& contributions,
                     float lrScale) override;
    void dropGradient(uint32_t worker, uint64_t baseVersion, const std::string& reason) override;
    void release(uint32_t worker) override;
    bool releaseAt(uint32_t worker, SharedFloats parameters, uint64_t version) override;
    SharedFloats parameters() override { return m_store.snapshot(); }
    uint32_t baseBatchSize() const override { return m_options.spec.batch_size(); }
    void announce(wire::EventKind kind, const std::string& detail, const wire::AutoDecision* decision) override;

    // Data plane (coordinator_data_plane.cpp).
    void pollData();
    void handleData(InboundMessage& message);
    void handleRegister(const InboundMessage& message);
    void handlePush(InboundMessage& message, WorkerRecord& worker);
    void sendStop(WorkerRecord& worker);
    void dropNonFinite(uint32_t worker, uint64_t baseVersion);
    void checkHeartbeats();
    void reviveWorker(WorkerRecord& worker, const std::string& why);

    // Control (coordinator_control.cpp).
    void pollControl();
    wire::ControlReply executeControl(const wire::ControlRequest& request);
    Status setMode(const wire::ModeSettings& settings, wire::EventKind kind = wire::EVENT_MODE);
    Status setGroups(const wire::SetGroups& request);
    void startTraining();
    void beginStop(const std::string& reason);

    // Telemetry and recording (coordinator_telemetry.cpp).
    wire::Event& emitEvent(wire::EventKind kind, const std::string& detail, uint32_t worker = 0,
                           const wire::AutoDecision* decision = nullptr);
    void tick();
    wire::Tick buildTick();
    void record(const wire::Record& record);
    void keepHistory(const wire::Tick& tick);
    wire::RecordingHeader header() const;
    double elapsedSeconds() const;
    void collectEvaluation();
    void checkStopConditions();
    double progress() const;
    float scheduledLearningRate() const;

    CoordinatorOptions m_options;
    int m_trainCount;
    zmq::context_t m_context{2};  // two I/O threads: every worker's parameters go through them
    zmq::socket_t m_data, m_control, m_telemetry;
    CoordinatorEndpoints m_endpoints;

    ParameterStore m_store;
    WorkerRegistry m_workers;
    std::map<std::string, uint32_t> m_heartbeatOwners;  ///< heartbeat socket identity -> worker
    wire::ModeSettings m_mode;
    std::unique_ptr<SyncPolicy> m_policy;
    wire::RunState m_state = wire::RUN_WAITING_FOR_WORKERS;

    BackgroundEvaluator m_evaluator;
    std::optional<EvaluationResult> m_lastEvaluation;
    uint64_t m_runId, m_startUnixMs;
    Clock::time_point m_startTime, m_trainingStart, m_lastTick, m_lastEvalSubmit, m_stopDeadline;
    bool m_started = false;
    bool m_divergenceReported = false;

    uint64_t m_pushed = 0, m_applied = 0, m_dropped = 0, m_badMessages = 0;
    uint64_t m_samplesTotal = 0, m_updatesSinceTick = 0;
    double m_updatesPerSecond = 0.0, m_trainLoss = 0.0;
    bool m_haveLoss = false;

    std::unique_ptr<RecordingWriter> m_recorder;
    std::vector<wire::Event> m_pendingEvents, m_events;
    std::vector<wire::Tick> m_history;
};

}  // namespace syncscope::engine
