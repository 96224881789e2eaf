// ParameterShard: one server process of a sharded run (`syncscope-engine shard`), as ps-lite splits
// a model over servers by key range. It registers with the coordinator, which gives it a contiguous
// range of the model (with the optimiser's momentum); workers push that range of each gradient to it
// and pull that range of the parameters from it, so the model's bytes no longer all pass through the
// coordinator. The coordinator keeps every decision: the workers send it their pushes' metadata and
// the shards tell it what arrived (SlicesReceived); it tells every shard, in one order, which ranges
// make each update (ShardUpdate). So every shard walks through the same versions.
#pragma once

#include <zmq.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "engine/core/status.h"
#include "engine/net/credentials.h"
#include "engine/net/endpoint.h"
#include "engine/net/zap_authenticator.h"
#include "engine/relay/relay_process.h"
#include "engine/relay/shard_state.h"

namespace syncscope::engine {

class ParameterShard {
public:
    /// It tells the coordinator it is alive this often, from its registration on (a standby waiting
    /// for a place too); a shard silent for the run's heartbeat timeout is given up (a standby is
    /// passed over), and with it the run where no checkpoint can give its range back.
    static constexpr std::chrono::milliseconds kHeartbeatEvery{250};

    explicit ParameterShard(RelayOptions options);
    ~ParameterShard();
    ParameterShard(const ParameterShard&) = delete;
    ParameterShard& operator=(const ParameterShard&) = delete;

    /// Binds the workers' endpoint, registers with the coordinator and takes its range.
    Status start();
    /// The endpoint its workers connect to.
    const std::string& endpoint() const { return m_advertised; }
    /// Its place in the model (valid after start()).
    const wire::ShardRange& range() const { return m_range; }
    /// Serves until the coordinator says the run is over, or `interrupted`.
    Status run();
    ShardStats stats() const { return m_state ? m_state->stats() : ShardStats{}; }

private:
    Status takeAssignment(const InboundMessage& reply);
    /// The coordinator put this shard's range back (a rollback): the same range, new values.
    Status restore(const InboundMessage& message, std::vector<ShardState::Answer>* answers);
    void fromWorker(InboundMessage& message);
    /// A coordinator's message; false when the run is over (or `failure` says why it cannot go on).
    bool fromCoordinator(InboundMessage& message, Status* failure);
    /// The ShardParams that goes before a range of `version` (frame 2).
    wire::Envelope paramsEnvelope(uint64_t version, uint64_t requestId) const;
    void send(const ShardState::Answer& answer);
    void sendAnswers(std::vector<ShardState::Answer>& answers);
    void flushReceived();
    void heartbeatIfDue();

    RelayOptions m_options;
    zmq::context_t m_context{2};
    std::unique_ptr<ZapAuthenticator> m_zap;  // before the workers' endpoint binds
    ServerEndpoint m_workers;
    ClientEndpoint m_coordinator;
    std::string m_advertised;
    wire::ShardRange m_range;
    std::unique_ptr<ShardState> m_state;
    wire::Envelope m_received;  ///< SlicesReceived of this turn, sent as one message
    std::chrono::steady_clock::time_point m_lastHeartbeat, m_lastExpiry;
    CoordinatorWatch m_watch{m_options};
};

}  // namespace syncscope::engine
