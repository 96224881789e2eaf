// DataPlane, the part that serves a run whose model lives on parameter shards (see shard_links.h):
// workers are admitted once every shard is there and told where the shards are; a push carries the
// gradient's metadata only, and goes on once every shard has its range (ShardLinks::Arrival), checked
// as a whole gradient would be.
#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "engine/coordinator/data_plane.h"

namespace syncscope::engine {

bool DataPlane::deferUntilShardsReady(const InboundMessage& message) {
    if (!m_shards.enabled()) return false;
    if (!message.envelope.register_().parameter_shards()) {
        m_endpoint.refuse(message, fmt::format("this run keeps its model on {} parameter shards, which this worker "
                                               "cannot use (the native worker can from protocol 1.6, the Python "
                                               "package from 1.8): update it, or run without --shards",
                                               m_state.options.plan.layout().shards()));
        return true;
    }
    if (m_shards.ready()) return false;
    // A worker that registers again while it waits (its registration timed out, and it retries) is
    // answered once, for its newest registration.
    for (InboundMessage& waiting : m_deferredRegisters)
        if (waiting.identity == message.identity && waiting.route == message.route) {
            waiting.envelope = message.envelope;
            waiting.userId = message.userId;
            acknowledgeDeferred(waiting);
            return true;
        }
    // Room for every worker of the run twice over: the registrations of processes that died while they
    // waited stay until the shards are there (and are then given up like any silent worker).
    const size_t admitted = size_t(m_state.options.plan.layout().workers()) + m_state.options.plan.layout().spare_workers();
    if (m_deferredRegisters.size() >= 2 * admitted) {
        m_endpoint.refuse(message, fmt::format("the run waits for its {} parameter shards, and {} workers wait already",
                                               m_state.options.plan.layout().shards(), m_deferredRegisters.size()));
        return true;
    }
    // Answered when the last shard registers (a native worker's registration carries no tensor).
    m_deferredRegisters.push_back({message.identity, message.userId, message.route, message.envelope, std::nullopt});
    acknowledgeDeferred(m_deferredRegisters.back());
    return true;
}

void DataPlane::acknowledgeDeferred(const InboundMessage& waiting) {
    // Said at once, not at the next second's round: a worker whose register timeout is 1 s would
    // otherwise give up while its registration is held (seen in CI, a worker started late).
    wire::Envelope ack;
    ack.mutable_heartbeat_ack();
    m_endpoint.send(waiting.identity, ack, nullptr, waiting.route);
}

void DataPlane::signalDeferredWorkers() {
    // A sign of life four times a second to each worker whose registration waits for the shards (a
    // replaced one's place, or the run's start): it waits past its register timeout, which counts
    // silence (protocol 1.9; an older worker gives up after its timeout and registers again). Well
    // under the shortest timeout: at one a second, a worker with `--register-timeout 1` gave up
    // whenever a sign came a tick late (CI, workersWaitPastTheirRegisterTimeoutForTheShards).
    constexpr auto kPeriod = std::chrono::milliseconds(250);
    if (m_deferredRegisters.empty() || Clock::now() - m_deferredSignedAt < kPeriod) return;
    m_deferredSignedAt = Clock::now();
    for (const InboundMessage& waiting : m_deferredRegisters) acknowledgeDeferred(waiting);
}

void DataPlane::admitDeferredWorkers() {
    if (m_shards.ready())  // the workers that came before every shard are admitted now
        for (InboundMessage& deferred : std::exchange(m_deferredRegisters, {})) handleRegister(deferred);
}

void DataPlane::endSessionsForNewShards(const std::string& why) {
    for (auto& [id, w] : m_state.workers.all()) {
        if (w.state == wire::WORKER_DONE) continue;
        w.mustRejoin = true;
        if (w.active()) markLost(w, "registers again (" + why + ")");
    }
}

void DataPlane::fillShardVacancies() {
    m_shards.fillVacancies();
    admitDeferredWorkers();
}

void DataPlane::handleShardedPush(InboundMessage& message, WorkerRecord& w) {
    if (message.tensor)
        return m_endpoint.refuse(message, "this run keeps its model on parameter shards: a push carries no gradient "
                                          "(its ranges go to the shards, Welcome.parameter_shards)");
    m_shards.handlePush(message, w.sessionToken, shardedPushCompleted());
}

void DataPlane::completeShardedPush(ShardLinks::Arrival& arrival, uint64_t sessionToken) {
    const InboundMessage& message = arrival.push;
    const wire::Push& push = message.envelope.push();
    m_shards.accept(push.worker_id(), push.sequence(), sessionToken);
    WorkerRecord* w = m_state.workers.findByIdentity(message.identity, message.route);
    if (!w || w->id != push.worker_id() || w->sessionToken != sessionToken) {
        m_shards.forget(push.worker_id(), push.sequence());  // a session that ended while its ranges travelled
        return;
    }
    if (w->state == wire::WORKER_DONE) {
        m_shards.forget(w->id, push.sequence());
        return sendStop(*w);
    }
    if (const std::string why = pushRefusal(push, *w); !why.empty()) {
        m_shards.forget(w->id, push.sequence());
        return m_endpoint.refuse(message, why);
    }
    countGradient(*w, push);
    decide({w->id, push.base_version(), nullptr, push.batch_size(), push.sequence()}, arrival.finite,
           std::sqrt(arrival.sumOfSquares));
    enterWaiting(*w);
}

}  // namespace syncscope::engine
