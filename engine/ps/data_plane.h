// DataPlane: the coordinator's side of the workers' protocol on the data endpoint: registration,
// gradient pushes handed to the sync policy, parameters and stops sent back, heartbeats and
// liveness. Every frame is untrusted: anything malformed or out of turn is refused and counted.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <random>
#include <string>

#include "engine/net/endpoint.h"
#include "engine/ps/coordinator_state.h"
#include "engine/ps/event_log.h"
#include "engine/ps/remote_evaluator.h"

namespace syncscope::engine {

class DataPlane {
public:
    /// Peer strings kept and printed at most this long (escaped).
    static constexpr size_t kMaxHostnameBytes = 255, kMaxBackendBytes = 32;
    /// A turn of poll() ends after this many messages or this long, whichever comes first: then the
    /// coordinator's loop serves consoles and its 10 Hz tick. (Bounded by count alone, a turn at 256
    /// asp workers took ~0.5 s: ticks came at 2.7 Hz and a console's snapshot waited as long.)
    static constexpr int kMaxMessagesPerTurn = 1024;
    static constexpr std::chrono::milliseconds kTurnBudget{10};

    /// `startTraining` is called when the expected workers have all pulled for the first time.
    /// `evaluator` takes the messages of an evaluator process (runs of an external model).
    DataPlane(CoordinatorState& state, ServerEndpoint& endpoint, EventLog& events, PolicyContext& policyContext,
              RemoteEvaluator& evaluator, std::function<void()> startTraining)
        : m_state(state), m_endpoint(endpoint), m_events(events), m_policyContext(policyContext),
          m_evaluator(evaluator), m_startTraining(std::move(startTraining)) {}

    /// Handles the messages waiting, for one turn (so control and ticks are never starved).
    void poll();
    /// Sends a waiting worker the parameters of `version`; false when it cannot be sent now
    /// (not waiting, lost, or the run not running: reconsidered on resume).
    bool sendParameters(WorkerRecord& worker, SharedFloats parameters, uint64_t version);
    /// Tells a worker the run is over.
    void sendStop(WorkerRecord& worker);
    /// Declares workers silent for the heartbeat timeout lost (the policy then goes on without them).
    void checkHeartbeats();
    /// Frames refused on the data endpoint so far.
    uint64_t refused() const { return m_endpoint.refused(); }

private:
    void handle(InboundMessage& message);
    void handleRegister(const InboundMessage& message);
    /// Whether a worker's model fits the run's; an external run's first worker brings its initial
    /// parameters and training-set size. Refuses the registration (and says why) when not.
    bool acceptModel(const InboundMessage& message);
    /// Admits a worker (new, or `returning` under its old id) and sends it the run.
    void welcome(const InboundMessage& message, WorkerRecord& worker, const wire::Register& reg, bool returning);
    void handleHeartbeat(const InboundMessage& message);
    void handlePush(InboundMessage& message, WorkerRecord& worker);
    bool acceptGradient(const InboundMessage& message, WorkerRecord& worker);
    void dropNonFinite(uint32_t worker, uint64_t baseVersion);
    void dropOversized(uint32_t worker, uint64_t baseVersion, double norm);
    void markLost(WorkerRecord& w, const std::string& why);
    void revive(WorkerRecord& worker, const std::string& why);

    CoordinatorState& m_state;
    ServerEndpoint& m_endpoint;
    EventLog& m_events;
    PolicyContext& m_policyContext;
    RemoteEvaluator& m_evaluator;
    std::function<void()> m_startTraining;
    std::map<std::string, uint32_t> m_heartbeatOwners;  ///< heartbeat socket identity -> worker
    bool m_divergenceReported = false;
    std::mt19937_64 m_tokens{std::random_device{}()};  ///< session tokens
};

}  // namespace syncscope::engine
