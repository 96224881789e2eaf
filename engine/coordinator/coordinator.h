// Coordinator: the parameter server process (`syncscope-engine serve`). It wires the parts named
// after what they do (the DataPlane that talks to workers, the ControlHandler that answers consoles,
// the TelemetryPublisher, the EventLog and the RunRecorder) around the shared CoordinatorState and
// the current SyncPolicy, implements what policies may do (PolicyContext), and runs the one loop
// that owns every socket.
#pragma once

#include <zmq.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/net/endpoint.h"
#include "engine/net/endpoints_line.h"
#include "engine/net/zap_authenticator.h"
#include "engine/coordinator/background_evaluator.h"
#include "engine/coordinator/chance_level_watch.h"
#include "engine/coordinator/evaluation_pace_watch.h"
#include "engine/coordinator/checkpointing.h"
#include "engine/coordinator/control_handler.h"
#include "engine/coordinator/coordinator_state.h"
#include "engine/coordinator/data_plane.h"
#include "engine/coordinator/event_log.h"
#include "engine/coordinator/model_store.h"
#include "engine/coordinator/remote_evaluator.h"
#include "engine/coordinator/run_recorder.h"
#include "engine/coordinator/shard_links.h"
#include "engine/coordinator/telemetry_publisher.h"

namespace syncscope::engine {

class Coordinator final : private PolicyContext {
public:
    /// Loads the test set and the initial model; fails with a clear Status on bad options or data.
    static Result<std::unique_ptr<Coordinator>> create(const CoordinatorOptions& options);
    ~Coordinator() override;

    /// Binds the sockets; after this endpoints() is valid.
    Status bind();
    const CoordinatorEndpoints& endpoints() const { return m_endpoints; }
    /// Why the run could not go on, when it stopped for that (a parameter shard lost); empty otherwise.
    std::string failure() const { return m_model->failure(); }
    /// Runs until a stop condition or a stop command; returns the final evaluation (none: an external
    /// model's run that no evaluator reported on).
    std::optional<EvaluationResult> run();

private:
    /// `test` is empty for an external model (its evaluator process has the test set).
    Coordinator(const CoordinatorOptions& options, std::vector<float> initial, ImageDataset test, uint64_t trainCount);

    // PolicyContext: what a sync policy may do to the run.
    uint64_t version() const override { return m_state.store.version(); }
    WorkerRegistry& workers() override { return m_state.workers; }
    const wire::ModeSettings& modeSettings() const override { return m_state.mode; }
    GradientAccumulator newSum() const override { return m_model->newSum(); }
    void applyUpdate(const GradientAccumulator& gradient, const std::vector<wire::Contribution>& contributions,
                     float lrScale) override;
    void applyUpdate(const GradientIn& gradient, const std::vector<wire::Contribution>& contributions,
                     float lrScale) override;
    using PolicyContext::dropGradient;
    void dropGradient(uint32_t worker, uint64_t baseVersion, uint64_t sequence, const std::string& reason) override;
    void release(uint32_t worker) override;
    bool releaseAt(uint32_t worker, const PinnedModel& model) override;
    PinnedModel pin() override { return m_model->pin(); }
    uint32_t baseBatchSize() const override { return m_state.options.plan.spec().batch_size(); }
    void announce(wire::EventKind kind, const std::string& detail, const wire::AutoDecision* decision) override;

    /// Opens checkpoints and the recording, resuming a run when asked.
    Status start();
    Status restoreHistory(const std::string& path, uint64_t* lastVersion);
    void replaceLostShards(const std::vector<std::string>& lost);
    void reportStorage();
    void onTick();
    /// Follows the credentials file (ZapAuthenticator): revoked workers cut off, new names admitted.
    void followCredentials();
    void collectEvaluation();
    /// An update just applied at learning rate lr: its contributors' counts, telemetry and recording.
    void recordUpdate(const std::vector<wire::Contribution>& contributions, float lr);
    /// Serves the data plane (and the tick) until `done` says so or `within` has passed.
    void serveDataPlaneUntil(std::chrono::duration<double> within, const std::function<bool()>& done);
    /// The model of the last version, for the final evaluation (none: it could not be had whole).
    std::optional<GatheredModel> finalModel();
    /// The final model's test accuracy: evaluated here, or by an external model's evaluator.
    std::optional<EvaluationResult> evaluateFinal(const std::optional<GatheredModel>& model);
    bool finished() const;
    /// Whether every worker that was sent its stop said its last heartbeat, or has been silent for
    /// kSilentAfterStopSeconds (gone, or a peer older than protocol 1.15).
    bool workersLeft() const;
    /// Messages and connections refused so far, on every endpoint.
    uint64_t refusedSoFar() const;

    CoordinatorState m_state;
    zmq::context_t m_context{2};  // two I/O threads: every worker's parameters go through them
    std::unique_ptr<ZapAuthenticator> m_zap;  // before the endpoints: it must answer their first peer
    uint64_t m_admissionSeen = 0;             // m_zap's generation the data plane followed last
    ServerEndpoint m_data, m_control;
    PublisherEndpoint m_telemetryEndpoint;
    CoordinatorEndpoints m_endpoints;
    RunRecorder m_recorder;
    EventLog m_events{m_state, m_recorder};
    TelemetryPublisher m_telemetry{m_state, m_telemetryEndpoint, m_events, m_recorder};
    ShardLinks m_shards{m_state, m_data, m_events};  ///< in a sharded run: the links m_model's shards talk over
    std::unique_ptr<ModelStore> m_model;             ///< where the model lives; asked, never branched on
    Checkpointing m_checkpoints;
    RemoteEvaluator m_remoteEvaluator{m_state, m_data, m_events};
    ChanceLevelWatch m_chanceLevel{ImageDataset{}.numClasses};  // Fashion-MNIST's, external models' too
    EvaluationPaceWatch m_evaluationPace;
    DataPlane m_dataPlane;
    ControlHandler m_controlHandler;
    std::unique_ptr<BackgroundEvaluator> m_evaluator;  ///< null for an external model
    Clock::time_point m_lastEvalSubmit;
    bool m_evaluationGathering = false;  ///< a periodic evaluation's model is on its way
};

}  // namespace syncscope::engine
