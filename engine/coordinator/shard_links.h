// ShardLinks: the coordinator's side of its parameter shards (see parameter_shard.h). It admits the
// run's S shards in the order they register and gives each a contiguous range of the model; it
// matches each worker's push (metadata only) with the shards' word that every range of that gradient
// arrived, and hands the whole gradient on once both are there; it sends every shard the updates,
// drops, pins and restores the coordinator decides, in one order; it gathers the model back (for
// evaluation and checkpoints). A shard that goes silent takes its range of the model with it: where
// the run keeps checkpoints its place falls vacant (the coordinator restores the model from the
// newest checkpoint meanwhile, see Coordinator::recoverLostShard) and the next shard to register takes
// that range; a shard that registers while every place is taken waits as a standby. Without
// checkpoints the run stops, and no standby is kept. With --shard-replicas R each range has R copies,
// each a shard process of its own: every copy gets each gradient's range from the workers and every
// update, a gradient goes on once every live copy holds its range, and a model is gathered by asking
// every copy and taking the first answer per range; a copy that goes silent while another of its range lives is let go at once (its
// workers register again for the copies left) and nothing is rolled back. A new shard takes only a
// range with no copy left (a lost copy is not replaced during the run: it would need the live copy's
// state). ShardedModelStore puts it behind the ModelStore seam.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/net/endpoint.h"
#include "engine/coordinator/coordinator_state.h"
#include "engine/coordinator/event_log.h"
#include "engine/coordinator/model_store.h"
#include "engine/plan/run_plan.h"

namespace syncscope::engine {

class ShardLinks {
public:
    /// Most shards a run may have (--shards).
    static constexpr uint32_t kMaxShards = kMaxParameterShards;
    /// A worker's push whose ranges wait at the shards for this long at most; then the push is
    /// refused (or, with no push, the ranges are let go).
    static constexpr std::chrono::seconds kArrivalTimeout{30};

    /// A gradient whose push and every range have arrived: the push as the worker sent it, and the
    /// checks of its values, added up over the shards.
    struct Arrival {
        InboundMessage push;
        std::vector<uint32_t> ackedBy;  ///< the Link::slot()s of the shards (copies) that hold their range
        bool finite = true;
        double sumOfSquares = 0;
        bool pushed = false;
        Clock::time_point since;
    };

    /// Called with a whole gradient and the session token its ranges are kept under (the worker's
    /// when it pushed).
    using Completion = std::function<void(Arrival&, uint64_t sessionToken)>;

    ShardLinks(CoordinatorState& state, ServerEndpoint& endpoint, EventLog& events);

    /// Whether the run's model lives on shards (serve --shards S).
    bool enabled() const { return m_expected > 0; }
    /// Whether all S x R have registered, and since then whether every range still has a copy
    /// (workers are admitted while it is).
    bool ready() const { return m_started ? covered() : m_links.size() == places(); }
    /// Whether a lost shard's place is empty now (nothing is updated until it is taken).
    bool vacant() const { return m_vacant; }
    /// The ranges, for a worker's Welcome: one entry per live copy, by range then copy (a worker
    /// pushes to every copy and pulls from the first of each range).
    std::vector<wire::ShardRange> ranges() const;
    bool isShard(const std::string& identity) const { return m_links.count(identity) != 0; }

    /// A shard's registration: it takes the lowest free place (its range), or, while every place is
    /// taken, waits as a standby (up to S of them, where lost shards are replaced) for a place to fall vacant.
    void handleRegister(const InboundMessage& message);
    /// Whether a lost shard's place is filled again from the newest checkpoint (the run keeps
    /// checkpoints) rather than the run stopped.
    void setReplaceable(bool replaceable) { m_replaceable = replaceable; }
    /// The shards lost since the last call ("parameter shard 1 (pid ...) sent nothing for 2 s"): each
    /// left its place vacant, and the pulls and arrivals that needed it were given up.
    std::vector<std::string> takeLosses() { return std::exchange(m_losses, {}); }
    /// The copies lost since the last call while another copy of their range lives on: nothing to
    /// restore, but the workers register again for the copies left.
    std::vector<std::string> takeCopyLosses() { return std::exchange(m_copyLosses, {}); }
    /// Gives each vacant place to a standby shard, in the order they registered (call once the model
    /// they get their ranges of is restored).
    void fillVacancies();
    /// A heartbeat from a standby shard (it heartbeats while it waits): noted, and true; false when
    /// `identity` is no standby.
    bool noteStandbyHeartbeat(const std::string& identity);
    /// A message from a registered shard: ranges received, an answer to a pull, a heartbeat, an error.
    /// `complete` is called for each gradient that is now whole.
    void handleShardMessage(InboundMessage& message, const Completion& complete);
    /// A worker's push of a gradient (metadata only); `complete` is called now when its ranges are
    /// all there already.
    void handlePush(InboundMessage& message, uint64_t sessionToken, const Completion& complete);

    /// A whole gradient goes on to the policy (or is dropped at once): from now on it is named by
    /// its worker and sequence, until an update applies it or a drop lets it go.
    void accept(uint32_t worker, uint64_t sequence, uint64_t sessionToken);
    /// An update of the terms' gradients at learning rate lr, as version `version`, sent to every shard.
    void applyUpdate(std::vector<wire::GradientTerm> terms, float lr, uint64_t version);
    /// A dropped gradient's ranges are let go (sent with the next update, or by flush()).
    void forget(uint32_t worker, uint64_t sequence);
    /// A worker was released on the current version (the shards keep it until it has pulled).
    void noteRelease() { ++m_releasedAtCurrent; }
    /// Keeps `version` (the current one) on every shard while the returned hold, or a copy, lives:
    /// workers released on it later still find it (a grouped round's pinned version).
    std::shared_ptr<const void> pin(uint64_t version);
    /// Sends what is queued (forgotten ranges, pins and unpins) without waiting for an update.
    void flush();
    /// Hands every shard its range of `parameters` and `momentum` as `version` (a rollback; shards
    /// that register later get theirs from the coordinator's store).
    void restore(const std::vector<float>& parameters, const std::vector<float>& momentum, uint64_t version);

    /// Asks every shard for its range of the current version (of the updates sent so far), with its
    /// momentum when `withMomentum`; `done` gets the whole model once every shard has answered. False
    /// (and `done` is not kept) while the shards are not all there or one is lost.
    bool gather(bool withMomentum, ModelStore::Gathered done);

    /// Shards silent for the heartbeat timeout and gradients waiting too long (called every tick);
    /// returns why the run cannot go on, if it cannot.
    std::string check();
    /// Why the run cannot go on (a shard lost or out of step); empty while it can.
    const std::string& failure() const { return m_failure; }
    /// Tells every shard the run is over.
    void stopAll();

private:
    using ArrivalKey = std::tuple<uint32_t, uint64_t, uint64_t>;  ///< worker, session token, sequence
    struct Link {
        uint32_t index = 0;
        uint32_t copy = 0;     ///< which copy of its range (0 without replicas)
        std::string endpoint;  ///< where its workers connect
        bool answersPulls = true;  ///< the first live copy of its range (markFirstCopies)
        std::string describe;  ///< "parameter shard 1 (pid 42@node3, [117573, 235146))"
        Clock::time_point lastSeen;
        uint32_t slot() const { return index * kMaxShardReplicas + copy; }
    };
    struct Gather {
        std::vector<float> values;  ///< the parameters, then (withMomentum) the momentum
        std::vector<bool> answeredRange;  ///< by range index: one copy's answer each
        uint32_t answered = 0;
        uint64_t version = 0;
        bool withMomentum = false;
        ModelStore::Gathered done;
    };
    /// Versions pinned: how many holds of each live; shared with the holds' deleters (which may run
    /// after this object is gone: a policy outlives it).
    struct Pins {
        std::map<uint64_t, uint32_t> holds;
    };

    void broadcast(wire::Envelope& envelope);
    /// A shard's assignment of `range` at `version` (its values follow as the tensor frame).
    wire::Envelope assignment(const wire::ShardRange& range, uint64_t version) const;
    void fail(const std::string& why);
    /// A silent shard's place falls vacant (see setReplaceable).
    void vacate(std::map<std::string, Link>::iterator link, const std::string& why);
    /// Places in all: a copy of each range.
    uint32_t places() const { return m_expected * m_replicas; }
    /// Whether every range has a live copy.
    bool covered() const;
    /// The lowest (range, copy) no registered shard has.
    std::pair<uint32_t, uint32_t> freePlace() const;
    /// Sets each link's answersPulls (after a link comes or goes): the receive loop asks per message.
    void markFirstCopies();
    /// The live copy of range `index` that answers pulls (the first), or m_links.end().
    std::map<std::string, Link>::const_iterator firstCopy(uint32_t index) const;
    /// A silent copy whose range has another copy: let go, and the gradients arriving are given up
    /// (gathers were sent to every copy: another answers).
    void dropCopy(std::map<std::string, Link>::iterator link, const std::string& why);
    /// Range `index` with this link's endpoint, as the link is assigned it.
    wire::ShardRange rangeOf(const Link& link) const;
    void takeParams(const InboundMessage& message, const Link& link);
    void acknowledge(const wire::SliceReceived& slice, const Link& link, const Completion& complete);
    void forgetRanges(uint32_t worker, uint64_t sessionToken, uint64_t sequence);
    /// Adds the pins and unpins the shards have not been told of yet (pins before unpins).
    bool addPins(wire::ShardUpdate* update);
    /// A link's range of the whole model's parameters and momentum, in one buffer.
    zmq::message_t rangeFrame(const wire::ShardRange& range, const std::vector<float>& parameters,
                              const std::vector<float>& momentum) const;

    CoordinatorState& m_state;
    ServerEndpoint& m_endpoint;
    EventLog& m_events;
    uint32_t m_expected = 0;  ///< ranges
    uint32_t m_replicas = 1;  ///< copies of each
    bool m_started = false;   ///< all places were taken once
    std::map<std::string, Link> m_links;     ///< by routing identity
    std::vector<wire::ShardRange> m_ranges;  ///< by index
    std::map<ArrivalKey, Arrival> m_arrivals;
    std::map<std::pair<uint32_t, uint64_t>, uint64_t> m_accepted;  ///< (worker, sequence) -> session token
    std::vector<wire::GradientTerm> m_forget;
    uint32_t m_releasedAtCurrent = 0;
    std::map<uint64_t, Gather> m_gathers;  ///< by request id
    uint64_t m_nextRequest = 1;
    std::shared_ptr<Pins> m_pins = std::make_shared<Pins>();
    std::set<uint64_t> m_pinnedAtShards;  ///< what the shards keep pinned, as told
    std::string m_failure;
    bool m_replaceable = false;
    bool m_vacant = false;
    std::vector<std::string> m_losses;
    std::vector<std::string> m_copyLosses;
    struct Standby {
        InboundMessage registration;
        Clock::time_point lastSeen;
    };
    /// Standbys silent for the heartbeat timeout are let go (killed while they waited).
    void dropSilentStandbys(Clock::time_point now);
    Standby* findStandby(const std::string& identity);

    std::vector<Standby> m_standby;  ///< registrations waiting for a vacant place, oldest first
};

}  // namespace syncscope::engine
