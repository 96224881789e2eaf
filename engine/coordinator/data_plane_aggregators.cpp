// DataPlane, the part that serves group aggregators (see aggregator.h): their registration, the
// gradient sums they send for their workers, the parameters fanned out to them, and workers moving
// to their group's aggregator. An aggregator is admitted with the worker role and speaks only for
// the workers that registered through it (their routes); every figure it relays is checked as a
// worker's own would be.
#include <fmt/format.h>

#include <cmath>

#include "engine/core/printable.h"
#include "engine/net/endpoints_line.h"
#include "engine/net/protocol.h"
#include "engine/coordinator/data_plane.h"
#include "engine/model/gradient_checks.h"

namespace syncscope::engine {

void DataPlane::handleAggregatorRegister(const InboundMessage& message) {
    const wire::Register& reg = message.envelope.register_();
    if (!message.route.empty()) return m_endpoint.refuse(message, "an aggregator connects to the coordinator itself");
    if (!plausibleEndpoint(reg.endpoint()))
        return m_endpoint.refuse(message, "an aggregator registers with the tcp:// or ipc:// endpoint its workers connect to");
    if (reg.parameter_count() != 0 && reg.parameter_count() != m_state.store.size())
        return m_endpoint.refuse(message, fmt::format("this run's model has {} parameters, and the aggregator expects {}",
                                                      m_state.store.size(), reg.parameter_count()));
    auto [it, added] = m_aggregators.try_emplace(message.identity);
    if (added) {
        it->second.index = m_aggregatorOrder.size();
        m_aggregatorOrder.push_back(message.identity);
    }
    it->second.endpoint = reg.endpoint();
    it->second.lastSeen = Clock::now();
    wire::Envelope welcome;
    *welcome.mutable_welcome()->mutable_spec() = m_state.options.plan.spec();
    welcome.mutable_welcome()->set_max_gradient_norm(m_state.options.plan.max_gradient_norm());
    m_endpoint.send(message.identity, welcome);
    m_events.raise(wire::EVENT_GROUPS,
                   fmt::format("group aggregator {} (pid {}@{}) serves workers at {}", it->second.index, reg.pid(),
                               printable(reg.hostname(), kMaxHostnameBytes), reg.endpoint()));
}

void DataPlane::handleMovedRegister(const InboundMessage& message, WorkerRecord& w) {
    const std::string& unreachable = message.envelope.register_().unreachable();
    for (auto it = m_aggregatorOrder.begin(); !unreachable.empty() && it != m_aggregatorOrder.end(); ++it) {
        const AggregatorLink& link = m_aggregators.at(*it);
        if (link.endpoint != unreachable) continue;
        m_events.raise(wire::EVENT_ERROR,
                       fmt::format("worker {} could not reach group aggregator {} at {}: no worker is sent there any "
                                   "more (is that address reachable from the workers' nodes? see aggregate --advertise)",
                                   w.id, link.index, link.endpoint),
                       w.id);
        m_aggregators.erase(*it);
        m_aggregatorOrder.erase(it);
        break;
    }
    m_state.workers.reroute(w, message.identity, message.route);
    w.moving = false;
    w.lastSeen = Clock::now();
    wire::Envelope welcome;  // the same session: its id, shard and token
    welcome.mutable_welcome()->set_worker_id(w.id);
    *welcome.mutable_welcome()->mutable_spec() = m_state.options.plan.spec();
    welcome.mutable_welcome()->set_shard_index(w.id % m_state.options.plan.spec().shard_count());
    welcome.mutable_welcome()->set_session_token(w.sessionToken);
    m_endpoint.send(message.identity, welcome, nullptr, message.route);
}

const std::pair<const std::string, DataPlane::AggregatorLink>* DataPlane::aggregatorFor(const WorkerRecord& w) const {
    // Grouped mode ties a worker to its group's aggregator. In the others any aggregator serves:
    // a worker behind one stays there, and one connected here directly is dealt one by its id when
    // the mode sums rounds (bsp), so workers need only know the coordinator's address; in a mode
    // that takes gradients one by one an aggregator would only add a hop. A worker that cannot
    // move (one of a release before Register.movable) stays where it is.
    if (!w.movable || m_aggregatorOrder.empty()) return nullptr;
    const size_t count = m_aggregatorOrder.size();
    if (m_state.mode.mode() == wire::GROUPED) return &*m_aggregators.find(m_aggregatorOrder[w.group % count]);
    if (!w.route.empty() || !m_state.policy->takesSums()) return nullptr;
    return &*m_aggregators.find(m_aggregatorOrder[w.id % count]);
}

void DataPlane::checkAggregators() {
    const auto timeout = std::chrono::duration<double>(m_state.options.plan.heartbeat_timeout_seconds());
    for (auto it = m_aggregatorOrder.begin(); it != m_aggregatorOrder.end();) {
        const AggregatorLink& link = m_aggregators.at(*it);
        if (Clock::now() - link.lastSeen < timeout) {
            ++it;
            continue;
        }
        // Its workers find out by themselves (their messages go unanswered) and register with the
        // coordinator again, which deals them to the aggregators still alive.
        m_events.raise(wire::EVENT_GROUPS,
                       fmt::format("group aggregator {} ({}) sent nothing for {:g} s: gone; no worker is sent there",
                                   link.index, link.endpoint, m_state.options.plan.heartbeat_timeout_seconds()));
        m_aggregators.erase(*it);
        it = m_aggregatorOrder.erase(it);
    }
}

void DataPlane::sendMove(WorkerRecord& w, const std::string& aggregator) {
    flushFanouts();
    const AggregatorLink& to = m_aggregators.at(aggregator);
    wire::Envelope envelope;
    envelope.mutable_params()->set_version(m_state.store.version());
    envelope.mutable_params()->set_group(w.group);
    envelope.mutable_params()->set_move_to(to.endpoint);
    m_endpoint.send(w.identity, envelope, nullptr, w.route);
    w.moving = true;
    m_events.raise(wire::EVENT_GROUPS,
                   m_state.mode.mode() == wire::GROUPED
                       ? fmt::format("worker {} moves to group {}'s aggregator ({})", w.id, w.group, to.index)
                       : fmt::format("worker {} moves to aggregator {}", w.id, to.index),
                   w.id);
}

void DataPlane::handleGradientSum(InboundMessage& message) {
    const wire::GradientSum& sum = message.envelope.gradient_sum();
    const size_t count = m_state.store.size();
    if (!message.route.empty() || !m_aggregators.count(message.identity))
        return m_endpoint.refuse(message, "only a registered group aggregator sends gradient sums");
    if (m_shards.enabled())  // its workers' ranges went to the shards, which sum them; it relays only
        return m_endpoint.refuse(message, "this run keeps its model on parameter shards, which sum the gradients: "
                                          "an aggregator relays there and sends no sums");
    if (!message.tensor || message.tensor->size() != count * sizeof(float) || sum.pushes_size() == 0 ||
        sum.pushes_size() != sum.routes_size())
        return m_endpoint.refuse(message, fmt::format("a gradient sum needs its workers' pushes, their routes and a sum "
                                                      "of {} floats", count));
    std::vector<WorkerRecord*> members;
    GradientSum in{sum.group(), sum.base_version(), static_cast<const float*>(message.tensor->data()), {}};
    std::string spoiled;  // a member that does not belong spoils the sum: its gradients are dropped
    for (int i = 0; i < sum.pushes_size(); ++i) {
        const wire::Push& push = sum.pushes(i);
        const std::string& route = sum.routes(i);
        WorkerRecord* w = m_state.workers.findByIdentity(message.identity, route);
        if (!w || w->id != push.worker_id() || w->sessionToken == 0 || !push.has_gradient()) {
            m_endpoint.refuse(message.identity, 0, "unknown sender; a worker must register before pushing",
                              wire::Error::NOT_REGISTERED, route);
            spoiled = fmt::format("summed with a gradient of an unknown worker ({})", push.worker_id());
            continue;
        }
        noteArrival(*w, push);
        if (w->state == wire::WORKER_DONE) {
            sendStop(*w);
            continue;
        }
        if (std::string why = pushRefusal(push, *w); !why.empty() || push.base_version() != sum.base_version()) {
            m_endpoint.refuse(message.identity, 0, why.empty() ? "a push in a sum of another version" : why,
                              wire::Error::CODE_UNSPECIFIED, route);
            spoiled = fmt::format("summed with a refused push of worker {}", w->id);
            continue;
        }
        countGradient(*w, push);
        members.push_back(w);
        in.members.push_back({w->id, push.base_version(), nullptr, push.batch_size()});
    }
    std::string drop = dropBeforePolicy(sum.base_version());
    if (drop.empty()) drop = spoiled;
    if (drop.empty() && !m_state.policy->takesSums())
        drop = fmt::format("summed by a group aggregator for a mode that averages rounds, and the mode is {} now",
                           wire::SyncMode_Name(m_state.mode.mode()));
    if (drop.empty() && !allFinite(in.weightedSum, count))
        drop = "the gradient sum has NaN or infinite values (the aggregator relays a non-finite gradient alone)";
    if (drop.empty())
        m_state.policy->onGradientSum(in);
    else
        for (const GradientIn& g : in.members) m_policyContext.dropGradient(g, drop);
    for (WorkerRecord* w : members) enterWaiting(*w);
}

void DataPlane::flushFanouts() {
    for (auto& [key, fanout] : m_fanouts) {
        zmq::message_t tensor = sharedFloatsFrame(std::move(fanout.parameters));
        m_endpoint.send(key.first, fanout.envelope, &tensor);
    }
    m_fanouts.clear();
}

void DataPlane::stopAggregators() {
    flushFanouts();
    for (const std::string& identity : m_aggregatorOrder) {
        wire::Envelope envelope;
        envelope.mutable_params()->set_stop(true);
        envelope.mutable_params()->set_version(m_state.store.version());
        m_endpoint.send(identity, envelope);
    }
}

}  // namespace syncscope::engine
