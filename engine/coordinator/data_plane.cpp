// DataPlane (see data_plane.h).
#include "engine/coordinator/data_plane.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>

#include "engine/core/printable.h"

#include "engine/net/protocol.h"
#include "engine/model/gradient_checks.h"

namespace syncscope::engine {

void DataPlane::poll() {
    const auto end = std::chrono::steady_clock::now() + kTurnBudget;
    for (int i = 0; i < kMaxMessagesPerTurn && std::chrono::steady_clock::now() < end; ++i) {
        auto message = m_endpoint.receive();
        if (!message) return;
        handle(*message);
        flushFanouts();
    }
}

void DataPlane::handle(InboundMessage& message) {
    const wire::Envelope& envelope = message.envelope;
    if (m_shards.isShard(message.identity) && !envelope.has_register_())
        return m_shards.handleShardMessage(message, shardedPushCompleted());
    const auto aggregator = m_aggregators.find(message.identity);
    if (aggregator != m_aggregators.end()) aggregator->second.lastSeen = Clock::now();
    if (!envelope.route().empty()) {  // relayed for a worker behind a group aggregator
        if (aggregator == m_aggregators.end())
            return m_endpoint.refuse(message.identity, envelope.correlation_id(),
                                     "only a registered group aggregator relays messages for other peers");
        message.route = envelope.route();
    }
    switch (envelope.body_case()) {
        case wire::Envelope::kRegister: return handleRegister(message);
        case wire::Envelope::kHeartbeat: return handleHeartbeat(message);
        case wire::Envelope::kEvaluation:
            if (!message.route.empty()) return m_endpoint.refuse(message, "an evaluator connects to the coordinator itself");
            return m_evaluator.handleReport(message);
        case wire::Envelope::kGradientSum: return handleGradientSum(message);
        case wire::Envelope::kPush: {
            WorkerRecord* w = m_state.workers.findByIdentity(message.identity, message.route);
            if (w && w->mustRejoin)
                return m_endpoint.refuse(message, "a parameter shard was replaced: register again for the new ranges",
                                         wire::Error::LAYOUT_CHANGED);
            if (!w || w->id != envelope.push().worker_id() || w->sessionToken == 0)
                return m_endpoint.refuse(message, "unknown sender; a worker must register before pushing or heartbeating",
                                         wire::Error::NOT_REGISTERED);
            return handlePush(message, *w);
        }
        default:
            return m_endpoint.refuse(message, "the data endpoint takes register, push, heartbeat and evaluation messages");
    }
}

void DataPlane::handleHeartbeat(const InboundMessage& message) {
    if (message.route.empty() && m_shards.noteStandbyHeartbeat(message.identity)) return;  // it waits for no answer
    if (message.route.empty() && m_aggregators.count(message.identity)) {  // an aggregator's own: seen, answered
        wire::Envelope ack;
        ack.mutable_heartbeat_ack();
        return m_endpoint.send(message.identity, ack);
    }
    auto owner = m_heartbeatOwners.find({message.identity, message.route});
    WorkerRecord* w = owner == m_heartbeatOwners.end() ? nullptr : m_state.workers.find(owner->second);
    if (!w)
        return m_endpoint.refuse(message, "unknown sender; a worker must register before pushing or heartbeating",
                                 wire::Error::NOT_REGISTERED);
    const wire::Heartbeat& beat = message.envelope.heartbeat();
    if (beat.worker_id() != w->id || beat.session_token() != w->sessionToken)
        return m_endpoint.refuse(message, fmt::format("a heartbeat for worker {} without that worker's session token", beat.worker_id()));
    if (w->mustRejoin)
        return m_endpoint.refuse(message, "a parameter shard was replaced: register again for the new ranges",
                                 wire::Error::LAYOUT_CHANGED);
    w->lastSeen = Clock::now();
    if (beat.leaving()) {  // its last: it heard the run is over, and waits for no answer
        w->leaving = true;
        if (m_state.state == wire::RUN_STOPPED) w->state = wire::WORKER_DONE;
        return;
    }
    if (w->state == wire::WORKER_LOST) revive(*w, "heartbeats resumed");
    wire::Envelope ack;
    wire::HeartbeatAck* answer = ack.mutable_heartbeat_ack();
    answer->set_awaiting_worker(w->state == wire::WORKER_COMPUTING || w->state == wire::WORKER_STARTING);
    if (m_state.state == wire::RUN_STOPPED) {  // its stop may have gone down with a dropped connection
        answer->set_run_over(true);
        answer->set_version(m_state.store.version());
    }
    m_endpoint.send(message.identity, ack, nullptr, message.route);
}

void DataPlane::handleRegister(const InboundMessage& message) {
    const wire::Register& reg = message.envelope.register_();
    if (reg.role() == wire::ROLE_AGGREGATOR) return handleAggregatorRegister(message);
    if (reg.role() == wire::ROLE_SHARD) {
        m_shards.handleRegister(message);
        return admitDeferredWorkers();
    }
    if (reg.heartbeat_only() || reg.session_token() != 0) {
        WorkerRecord* w = m_state.workers.find(reg.worker_id());
        if (w && w->state == wire::WORKER_DONE && reg.session_token() == w->sessionToken)
            return m_endpoint.refuse(message, "the run is over", wire::Error::RUN_OVER);
        if (!w || !w->active())
            return m_endpoint.refuse(message, fmt::format("no active worker {}", reg.worker_id()));
        if (reg.session_token() != w->sessionToken)  // only the worker its Welcome went to knows it
            return m_endpoint.refuse(message, fmt::format("{} worker {} need its session token",
                                                          reg.heartbeat_only() ? "heartbeats for" : "registering again as",
                                                          reg.worker_id()));
        if (!reg.heartbeat_only()) return handleMovedRegister(message, *w);
        m_heartbeatOwners[{message.identity, message.route}] = w->id;
        wire::Envelope ack;
        ack.mutable_heartbeat_ack();
        m_endpoint.send(message.identity, ack, nullptr, message.route);
        return;
    }
    if (reg.role() == wire::ROLE_EVALUATOR) {
        if (!message.route.empty()) return m_endpoint.refuse(message, "an evaluator connects to the coordinator itself");
        return m_evaluator.handleRegister(message);
    }
    WorkerRecord* known = m_state.workers.findByIdentity(message.identity, message.route);
    // Registering here directly after it worked behind an aggregator: found by its own routing id.
    WorkerRecord* cameBack = known || !message.route.empty() ? nullptr : m_state.workers.findByRoutingId(message.identity);
    if (m_state.state == wire::RUN_STOPPED)  // one of its workers registering again: its stop was lost
        return known || cameBack ? m_endpoint.refuse(message, "the run is over", wire::Error::RUN_OVER)
                                 : m_endpoint.refuse(message, "the run has stopped");
    if (!acceptModel(message)) return;
    if (deferUntilShardsReady(message)) return;
    if (cameBack) {
        m_state.workers.reroute(*cameBack, message.identity, {});
        known = cameBack;
    }
    if (known) {
        // The same worker process again (its routing id is its own): after a restart of this
        // coordinator, once it gave this one up for lost, or after one of its messages was lost on
        // the way (a dropped connection). It is lost and back, and gets its id back.
        if (known->active() && known->sessionToken != 0) markLost(*known, "it registered again: a message was lost");
        return welcome(message, *known, reg, true);
    }
    const size_t active = std::count_if(m_state.workers.all().begin(), m_state.workers.all().end(),
                                        [](const auto& entry) { return entry.second.active(); });
    const size_t admitted = size_t(m_state.options.plan.layout().workers()) + m_state.options.plan.layout().spare_workers();
    if (active >= admitted)
        return m_endpoint.refuse(message, fmt::format("the run takes {} workers and {} spare ones, and {} are registered",
                                                      m_state.options.plan.layout().workers(), m_state.options.plan.layout().spare_workers(), active));
    WorkerRecord& w = m_state.workers.add(message.identity, message.route, m_state.options.plan.spec().batch_size());
    const auto& slowdowns = m_state.options.plan.slowdowns();
    if (auto it = slowdowns.find(m_joinedHere++); it != slowdowns.end()) w.slowdown = it->second;
    welcome(message, w, reg, false);
}

bool DataPlane::acceptModel(const InboundMessage& message) {
    const wire::Register& reg = message.envelope.register_();
    const size_t count = m_state.store.size();
    if (!m_state.external()) {
        if (reg.parameter_count() == 0 || reg.parameter_count() == count) return true;
        m_endpoint.refuse(message,
                          fmt::format("this run trains the engine's {} model with {} parameters, and this worker's "
                                      "model has {}; its flat layout must be the same",
                                      m_state.options.plan.spec().model(), count, reg.parameter_count()));
        return false;
    }
    if (reg.parameter_count() != count) {
        m_endpoint.refuse(message,
                          reg.parameter_count() == 0
                              ? fmt::format("this run trains an external model of {} parameters that only its own "
                                            "workers have (Python ones, see python/); a native worker cannot join it",
                                            count)
                              : fmt::format("this run's external model has {} parameters (serve --parameters), and "
                                            "this worker's has {}",
                                            count, reg.parameter_count()));
        return false;
    }
    if (reg.buffer_count() != m_state.options.plan.spec().buffer_count()) {
        m_endpoint.refuse(message,
                          fmt::format("this run's external model has {} buffers among its {} parameters (serve "
                                      "--buffers), and this worker's has {} (syncscope.buffer_count(model)): start "
                                      "the coordinator with --buffers {}",
                                      m_state.options.plan.spec().buffer_count(), count, reg.buffer_count(),
                                      reg.buffer_count()));
        return false;
    }
    if (!m_state.awaitingInitialParameters) return true;
    // The first worker brings the model's initial values and the training-set size, when asked (so
    // the others need not send them, and a model of another size is told so before any frame).
    if (!message.tensor) {  // a question, not a bad message: it is not counted as refused
        wire::Envelope ask;
        ask.mutable_error()->set_message("this run of an external model has no parameters yet: register again with "
                                         "your model's initial ones");
        ask.mutable_error()->set_code(wire::Error::INITIAL_PARAMETERS_NEEDED);
        m_endpoint.send(message.identity, ask, nullptr, message.route);
        return false;
    }
    if (message.tensor->size() != count * sizeof(float) || reg.train_examples() == 0 ||
        reg.train_examples() > kMaxTrainExamples) {
        m_endpoint.refuse(message,
                          fmt::format("the first worker of a run of an external model registers with its initial "
                                      "parameters ({} floats) and its training-set size (1..{}), and this one sent "
                                      "{} bytes and {} examples",
                                      count, kMaxTrainExamples, message.tensor ? message.tensor->size() : 0,
                                      reg.train_examples()));
        return false;
    }
    const auto* values = static_cast<const float*>(message.tensor->data());
    if (!allFinite(values, count)) {
        m_endpoint.refuse(message, "the initial parameters hold NaN or infinite values");
        return false;
    }
    m_model.restore(std::vector<float>(values, values + count), std::vector<float>(count, 0.0f), 0);
    m_state.setTrainCount(reg.train_examples());
    m_state.awaitingInitialParameters = false;
    return true;
}

void DataPlane::welcome(const InboundMessage& message, WorkerRecord& w, const wire::Register& reg, bool returning) {
    w.pid = std::to_string(reg.pid()) + "@" + printable(reg.hostname(), kMaxHostnameBytes);
    w.user = message.userId;
    w.sessionToken = m_tokens();
    w.mustRejoin = false;
    w.movable = reg.movable();
    w.moving = false;
    w.lastSeen = Clock::now();
    w.waiting = false;
    w.state = wire::WORKER_STARTING;
    // A worker joining a running SSP run starts level with the slowest, so it blocks nobody.
    w.clock = m_state.workers.minParticipantClock();
    wire::Envelope welcome;
    welcome.mutable_welcome()->set_worker_id(w.id);
    *welcome.mutable_welcome()->mutable_spec() = m_state.options.plan.spec();
    const uint32_t shards = m_state.options.plan.spec().shard_count(), shard = w.id % shards;
    w.shardSize = static_cast<uint32_t>(std::min<uint64_t>((m_state.trainCount + shards - 1 - shard) / shards, UINT32_MAX));
    welcome.mutable_welcome()->set_shard_index(shard);
    welcome.mutable_welcome()->set_session_token(w.sessionToken);
    for (const wire::ShardRange& range : m_shards.ranges()) *welcome.mutable_welcome()->add_parameter_shards() = range;
    m_endpoint.send(message.identity, welcome, nullptr, message.route);
    wire::WorkerProcess process;
    process.set_pid(reg.pid());
    process.set_host(printable(reg.hostname(), kMaxHostnameBytes));
    m_events.raise(returning ? wire::EVENT_WORKER_REJOINED : wire::EVENT_WORKER_JOINED,
                   fmt::format("worker {} (pid {}, {}){}", w.id, w.pid, printable(reg.backend(), kMaxBackendBytes),
                               returning ? ", registered again" : ""),
                   w.id, nullptr, &process);
}

std::string DataPlane::pushRefusal(const wire::Push& push, const WorkerRecord& w) const {
    const uint32_t expectedBatch = std::min(w.assignedBatch, w.shardSize);
    if (push.base_version() <= m_state.store.version() && push.batch_size() == expectedBatch) return {};
    // No real worker computes on a future version, or on another batch than it was given: a batch
    // claimed larger would weigh more in an average.
    return fmt::format("a push on model version {} (the model is at {}) with batch size {} (it was given {})",
                       push.base_version(), m_state.store.version(), push.batch_size(), expectedBatch);
}

void DataPlane::noteArrival(WorkerRecord& w, const wire::Push& push) {
    w.lastSeen = Clock::now();
    if (w.state == wire::WORKER_LOST) revive(w, "it pushed again");
    if (w.state == wire::WORKER_DONE) return;
    w.computeMs = push.compute_ms();
    w.commMs = push.comm_ms();
    w.recordComm(push.comm_ms());
    w.waitMs = push.wait_ms();
}

void DataPlane::countGradient(WorkerRecord& w, const wire::Push& push) {
    ++w.pushed;
    ++w.clock;
    // Its own speed, slowdown included, for elastic, auto and grouping by speed; the first two
    // iterations (allocation, cold caches) would mislead it.
    if (w.pushed > 2) {
        w.recordCompute(push.batch_size(), push.compute_ms());
        const double limitBefore = w.cpuLimit;
        w.recordCpu(push.batch_size(), push.cpu_ms(), push.cpu_limit());
        if (std::abs(w.cpuLimit - limitBefore) > 0.01 * std::max(w.cpuLimit, limitBefore))
            m_events.raise(wire::EVENT_SLOWDOWN,
                           w.cpuLimit > 0 ? fmt::format("worker {} runs under a CPU limit of {:.2f} CPUs (a quota on its "
                                                        "cgroup): its iterations are timed by its CPU time over the limit",
                                                        w.id, w.cpuLimit)
                                          : fmt::format("worker {}'s CPU limit was lifted", w.id),
                           w.id);
    }
    ++m_state.totals.pushed;
    m_state.totals.samples += push.batch_size();
    w.samplesSinceTick += push.batch_size();
    ++w.iterationsSinceTick;
    if (std::isfinite(push.loss())) {
        m_state.trainLoss = m_state.haveLoss ? 0.98 * m_state.trainLoss + 0.02 * push.loss() : push.loss();
        m_state.haveLoss = true;
    }
}

std::string DataPlane::dropBeforePolicy(uint64_t baseVersion) const {
    if (m_state.state == wire::RUN_STOPPED) return "run stopped";
    if (baseVersion < m_state.minimumBaseVersion)  // on a model a rollback or a restart replaced
        return fmt::format("computed on version {}, before the model was restored at version {}", baseVersion,
                           m_state.minimumBaseVersion);
    return {};
}

bool DataPlane::acceptGradient(const InboundMessage& message, WorkerRecord& w) {
    const wire::Push& push = message.envelope.push();
    const size_t count = m_state.store.size();
    if (!message.tensor || message.tensor->size() != count * sizeof(float)) {
        m_endpoint.refuse(message, fmt::format("a push needs a gradient of {} floats", count));
        return false;
    }
    if (const std::string why = pushRefusal(push, w); !why.empty()) {
        m_endpoint.refuse(message, why);
        return false;
    }
    countGradient(w, push);
    const GradientIn gradient{w.id, push.base_version(), static_cast<const float*>(message.tensor->data()),
                              push.batch_size()};
    const GradientSquares checked = gradientSquares(gradient.data, count, m_state.store.bufferBegin());
    decide(gradient, checked.finite, std::sqrt(checked.squares));
    return true;
}

void DataPlane::decide(const GradientIn& gradient, bool finite, double norm) {
    if (const std::string why = dropBeforePolicy(gradient.baseVersion); !why.empty())
        m_policyContext.dropGradient(gradient, why);
    else if (!finite)
        dropNonFinite(gradient);
    else if (m_state.options.plan.max_gradient_norm() > 0 && norm > m_state.options.plan.max_gradient_norm())
        dropOversized(gradient, norm);
    else
        m_state.policy->onGradient(gradient);
}

void DataPlane::handlePush(InboundMessage& message, WorkerRecord& w) {
    const wire::Push& push = message.envelope.push();
    noteArrival(w, push);
    if (w.state == wire::WORKER_DONE) return sendStop(w);
    if (push.has_gradient() && m_shards.enabled()) return handleShardedPush(message, w);
    if (push.has_gradient() && !acceptGradient(message, w)) return;
    enterWaiting(w);
}

void DataPlane::enterWaiting(WorkerRecord& w) {
    if (m_state.state == wire::RUN_STOPPED) return sendStop(w);
    const bool firstPull = w.state == wire::WORKER_STARTING;
    w.state = wire::WORKER_WAITING;
    w.waiting = true;
    w.waitingSince = Clock::now();
    // Training starts once the expected workers are ready (data loaded: their first pull), so
    // start-up time is neither trained-through by early workers nor counted in time limits.
    if (firstPull && m_state.state == wire::RUN_WAITING_FOR_WORKERS && !m_state.options.plan.start_paused() &&
        m_state.workers.participantIds().size() >= m_state.options.plan.layout().workers())
        return m_startTraining();
    m_state.policy->onWaiting(w.id);
}

bool DataPlane::sendParameters(WorkerRecord& w, SharedFloats parameters, uint64_t version) {
    if (!w.waiting || !w.active() || w.moving || m_state.state != wire::RUN_RUNNING) return false;
    if (const auto* target = aggregatorFor(w); target && target->first != w.identity) {
        sendMove(w, target->first);  // it is released where it arrives
        return false;
    }
    wire::Envelope envelope;
    wire::Params* params = envelope.mutable_params();
    params->set_version(version);
    const bool handOff = w.handOffBatch > 0;
    params->set_batch_size(w.takeReleaseBatch(Clock::now()));
    *params->mutable_slowdown() = w.slowdown;
    params->set_held_ms(std::chrono::duration<double, std::milli>(Clock::now() - w.waitingSince).count());
    if (!parameters) {  // the worker pulls them from the shards, which keep this version for it
        params->set_from_shards(true);  // (through its aggregator, if it has one: it relays, the shards sum)
        m_endpoint.send(w.identity, envelope, nullptr, w.route);
    } else if (w.route.empty()) {
        zmq::message_t tensor = sharedFloatsFrame(std::move(parameters));
        m_endpoint.send(w.identity, envelope, &tensor);
    } else {  // one message per aggregator and version, after this message (flushFanouts)
        params->set_group(w.group);
        // A share of a late worker's batch goes up alone: its group's round has been summed already.
        params->set_reduce(m_state.policy->takesSums() && !handOff);
        Fanout& fanout = m_fanouts[std::make_pair(w.identity, static_cast<const float*>(parameters->data()))];
        if (!fanout.parameters) fanout.parameters = std::move(parameters);
        fanout.envelope.mutable_params_fanout()->add_routes(w.route);
        *fanout.envelope.mutable_params_fanout()->add_params() = std::move(*params);
    }
    w.waiting = false;
    w.state = wire::WORKER_COMPUTING;
    return true;
}

void DataPlane::dropNonFinite(const GradientIn& gradient) {
    const uint32_t worker = gradient.worker;
    m_policyContext.dropGradient(gradient, "gradient has NaN or infinite values");  // it would poison the model
    m_state.policy->reconsider();  // its clock moved on without the policy seeing a gradient (ssp bounds)
    if (m_divergenceReported) return;
    m_divergenceReported = true;  // once: every later gradient of a diverged model is the same story
    m_events.raise(wire::EVENT_ERROR,
                  fmt::format("training diverged: worker {} computed a NaN or infinite gradient, so the model has "
                              "blown up; lower the learning rate or, in asynchronous modes, modulate it by staleness "
                              "(dynsgd or inverse)",
                              worker),
                  worker);
}

void DataPlane::dropOversized(const GradientIn& gradient, double norm) {
    m_policyContext.dropGradient(gradient,
                                 fmt::format("gradient norm {:.4g} exceeds the limit {:.4g} (--max-gradient-norm)", norm,
                                             m_state.options.plan.max_gradient_norm()));
    m_state.policy->reconsider();  // its clock moved on without the policy seeing a gradient
}

void DataPlane::sendStop(WorkerRecord& w) {
    flushFanouts();  // what was queued for it goes first
    wire::Envelope envelope;
    envelope.mutable_params()->set_stop(true);
    envelope.mutable_params()->set_version(m_state.store.version());
    m_endpoint.send(w.identity, envelope, nullptr, w.route);
    w.waiting = false;
    w.state = wire::WORKER_DONE;
}

void DataPlane::revive(WorkerRecord& w, const std::string& why) {
    w.state = w.stateBeforeLoss;  // it was only silent (stalled, partitioned), not dead
    m_events.raise(wire::EVENT_WORKER_REJOINED, fmt::format("worker {} ({})", w.id, why), w.id);
    if (m_state.state != wire::RUN_STOPPED) m_state.policy->reconsider();
}

void DataPlane::markLost(WorkerRecord& w, const std::string& why) {
    w.stateBeforeLoss = w.state;
    w.state = wire::WORKER_LOST;  // `waiting` stays: if it comes back, it is still owed parameters
    m_events.raise(wire::EVENT_WORKER_LOST, fmt::format("worker {} {}", w.id, why), w.id);
    if (m_state.state != wire::RUN_STOPPED) m_state.policy->reconsider();
}

void DataPlane::cutOff(const std::set<std::string>& revokedUsers) {
    for (auto& [id, w] : m_state.workers.all()) {
        if (!w.active() || !revokedUsers.count(w.user)) continue;
        // Told why while its sealed session still stands; then the endpoint drops all it sends.
        wire::Envelope refusal;
        refusal.mutable_error()->set_message(fmt::format(
            "refused: this worker's keys ('{}') were revoked (`syncscope-engine revoke`); ask the run's owner for new ones",
            w.user.substr(w.user.find(':') + 1)));
        m_endpoint.send(w.identity, refusal, nullptr, w.route);
        markLost(w, fmt::format("was cut off: its keys ('{}') were revoked", w.user.substr(w.user.find(':') + 1)));
    }
}

void DataPlane::checkHeartbeats() {
    const auto timeout = std::chrono::duration<double>(m_state.options.plan.heartbeat_timeout_seconds());
    for (auto& [id, w] : m_state.workers.all())
        if (w.active() && Clock::now() - w.lastSeen >= timeout)
            markLost(w, fmt::format("sent nothing for {:g} s", m_state.options.plan.heartbeat_timeout_seconds()));
    checkAggregators();
    signalDeferredWorkers();
}

}  // namespace syncscope::engine
