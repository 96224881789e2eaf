// DataPlane: the coordinator's side of the workers' protocol on the data endpoint: registration,
// gradient pushes handed to the sync policy, parameters and stops sent back, heartbeats and
// liveness. Every frame is untrusted: anything malformed or out of turn is refused and counted.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/net/endpoint.h"
#include "engine/coordinator/coordinator_state.h"
#include "engine/coordinator/event_log.h"
#include "engine/coordinator/model_store.h"
#include "engine/coordinator/remote_evaluator.h"
#include "engine/coordinator/shard_links.h"

namespace syncscope::engine {

class DataPlane {
public:
    /// Peer strings kept and printed at most this long (escaped).
    /// A turn of poll() ends after this many messages or this long, whichever comes first: then the
    /// coordinator's loop serves consoles and its 10 Hz tick. (Bounded by count alone, a turn at 256
    /// asp workers took ~0.5 s: ticks came at 2.7 Hz and a console's snapshot waited as long.)
    static constexpr int kMaxMessagesPerTurn = 1024;
    static constexpr std::chrono::milliseconds kTurnBudget{10};

    /// `startTraining` is called when the expected workers have all pulled for the first time.
    /// `evaluator` takes the messages of an evaluator process (runs of an external model).
    /// `shards`: the run's parameter shards, when its model lives there (serve --shards).
    /// `model`: where the model lives (an external model's first worker's values are put there).
    DataPlane(CoordinatorState& state, ServerEndpoint& endpoint, EventLog& events, PolicyContext& policyContext,
              RemoteEvaluator& evaluator, ShardLinks& shards, ModelStore& model, std::function<void()> startTraining)
        : m_state(state), m_endpoint(endpoint), m_events(events), m_policyContext(policyContext),
          m_evaluator(evaluator), m_shards(shards), m_model(model), m_startTraining(std::move(startTraining)) {}

    /// Handles the messages waiting, for one turn (so control and ticks are never starved).
    void poll();
    /// Sends a waiting worker the parameters of `version` (null: tells it to pull them from the
    /// shards, where they live); false when it cannot be sent now (not waiting, lost, or the run not
    /// running: reconsidered on resume).
    bool sendParameters(WorkerRecord& worker, SharedFloats parameters, uint64_t version);
    /// Tells a worker the run is over.
    void sendStop(WorkerRecord& worker);
    /// Declares workers silent for the heartbeat timeout lost (the policy then goes on without them),
    /// and aggregators silent as long gone (no worker is sent to them any more).
    void checkHeartbeats();
    /// Frames refused on the data endpoint so far.
    uint64_t refused() const { return m_endpoint.refused(); }
    /// Sends the parameters queued for workers behind aggregators: one message per aggregator and
    /// version, which the aggregator fans out (called after every message and by the loop).
    void flushFanouts();
    /// Tells the group aggregators the run is over (they exit).
    void stopAggregators();
    /// A parameter shard was lost (`why`): every worker's session ends, and its next push or heartbeat
    /// is answered LAYOUT_CHANGED, so it registers again (admitted once every shard is there) and
    /// learns the new shards' endpoints.
    void endSessionsForNewShards(const std::string& why);
    /// Standby shards take the vacant places; once every place is taken, the workers waiting are admitted.
    void fillShardVacancies();
    /// Group aggregators alive (in the order they registered: the k-th serves group k mod count).
    size_t aggregatorCount() const { return m_aggregatorOrder.size(); }
    /// Cuts off the workers whose data connections authenticated as one of `revokedUsers` (named
    /// worker keys revoked while the run goes on): each is told why and marked lost.
    void cutOff(const std::set<std::string>& revokedUsers);

private:
    /// A group aggregator: a process its workers connect to instead of this one (see aggregator.h).
    struct AggregatorLink {
        std::string endpoint;  ///< where its workers connect
        size_t index = 0;      ///< in the order they registered (named in events)
        Clock::time_point lastSeen;
    };
    /// Parameters of one version for workers behind one aggregator, sent as one ParamsFanout.
    struct Fanout {
        SharedFloats parameters;
        wire::Envelope envelope;
    };

    void handle(InboundMessage& message);
    void handleAggregatorRegister(const InboundMessage& message);
    /// A worker behind an aggregator registering there after a move: it keeps its id and session.
    void handleMovedRegister(const InboundMessage& message, WorkerRecord& worker);
    void handleGradientSum(InboundMessage& message);
    /// The aggregator a worker should talk through now (grouped: its group's; otherwise a worker
    /// connected here directly is dealt one by its id); null: where it is.
    const std::pair<const std::string, AggregatorLink>* aggregatorFor(const WorkerRecord& worker) const;
    void sendMove(WorkerRecord& worker, const std::string& aggregator);
    void checkAggregators();
    /// Why a push's metadata is refused (a version from the future, another batch); empty: fine.
    std::string pushRefusal(const wire::Push& push, const WorkerRecord& worker) const;
    /// A push arrived from `worker`: it is alive (a lost one comes back), and its times are noted.
    void noteArrival(WorkerRecord& worker, const wire::Push& push);
    /// Counts a gradient pushed (the worker's clock, speed, the run's totals and loss).
    void countGradient(WorkerRecord& worker, const wire::Push& push);
    /// Why gradients on `baseVersion` are dropped before any policy sees them; empty: they go on.
    std::string dropBeforePolicy(uint64_t baseVersion) const;
    /// The worker waits for parameters now (after its push): training may start, or the policy decides.
    void enterWaiting(WorkerRecord& worker);
    void handleRegister(const InboundMessage& message);
    /// Admits the workers that registered while a shard's place was empty (once none is).
    void admitDeferredWorkers();
    /// A HeartbeatAck four times a second to the workers whose registrations wait (checkHeartbeats calls it).
    void signalDeferredWorkers();
    void acknowledgeDeferred(const InboundMessage& waiting);  ///< a HeartbeatAck: "held until the shards are there"
    /// Whether a worker's model fits the run's; an external run's first worker brings its initial
    /// parameters and training-set size. Refuses the registration (and says why) when not.
    bool acceptModel(const InboundMessage& message);
    /// Admits a worker (new, or `returning` under its old id) and sends it the run.
    void welcome(const InboundMessage& message, WorkerRecord& worker, const wire::Register& reg, bool returning);
    void handleHeartbeat(const InboundMessage& message);
    void handlePush(InboundMessage& message, WorkerRecord& worker);
    bool acceptGradient(const InboundMessage& message, WorkerRecord& worker);
    /// A gradient that passed the protocol's checks goes to the policy, or is dropped (a run stopped
    /// or rolled back, values not finite, a norm over the limit).
    void decide(const GradientIn& gradient, bool finite, double norm);
    void dropNonFinite(const GradientIn& gradient);
    void dropOversized(const GradientIn& gradient, double norm);
    /// Sharded runs (data_plane_shards.cpp): a worker registering before every shard has is
    /// admitted once they all have; a push waits for the shards' word on its ranges.
    bool deferUntilShardsReady(const InboundMessage& message);
    void handleShardedPush(InboundMessage& message, WorkerRecord& worker);
    void completeShardedPush(ShardLinks::Arrival& arrival, uint64_t sessionToken);
    ShardLinks::Completion shardedPushCompleted() {
        return [this](ShardLinks::Arrival& arrival, uint64_t token) { completeShardedPush(arrival, token); };
    }
    void markLost(WorkerRecord& w, const std::string& why);
    void revive(WorkerRecord& worker, const std::string& why);

    CoordinatorState& m_state;
    ServerEndpoint& m_endpoint;
    EventLog& m_events;
    PolicyContext& m_policyContext;
    RemoteEvaluator& m_evaluator;
    ShardLinks& m_shards;
    ModelStore& m_model;
    std::function<void()> m_startTraining;
    std::vector<InboundMessage> m_deferredRegisters;  ///< workers that came before every shard
    Clock::time_point m_deferredSignedAt{};           ///< when they were last told the coordinator lives
    std::map<std::pair<std::string, std::string>, uint32_t> m_heartbeatOwners;  ///< (identity, route) -> worker
    std::map<std::string, AggregatorLink> m_aggregators;  ///< by routing identity
    std::vector<std::string> m_aggregatorOrder;  ///< the live ones
    std::map<std::pair<std::string, const float*>, Fanout> m_fanouts;  ///< (aggregator, parameters) -> queued
    bool m_divergenceReported = false;
    /// Worker processes new to this coordinator so far: the plan's slowdowns go by join order, which
    /// is the worker id in a fresh run, and after --resume (ids go on from the checkpoint's) the n-th
    /// new process still gets slowdown n.
    uint32_t m_joinedHere = 0;
    std::mt19937_64 m_tokens{std::random_device{}()};  ///< session tokens
};

}  // namespace syncscope::engine
