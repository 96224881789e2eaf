// Coordinator, data plane: worker registration, gradient pushes, heartbeats and liveness.
// Every frame is untrusted: anything malformed is answered with an error and counted.

#include <cmath>

#include "engine/net/protocol.h"
#include "engine/ps/coordinator.h"

namespace syncscope::engine {
namespace {

bool allFinite(const float* values, size_t count) {
    float sum = 0.0f;  // NaN or infinity anywhere makes the sum non-finite; one branch-free pass
    for (size_t i = 0; i < count; ++i) sum += values[i] * 0.0f;
    return sum == 0.0f;
}

}  // namespace

void Coordinator::pollData() {
    const ReceiveLimits limits{kMaxEnvelopeBytes, m_store.size() * sizeof(float)};
    for (int i = 0; i < 1024; ++i) {  // bounded, so control and ticks are never starved
        std::string identity;
        auto message = receiveMessage(m_data, true, limits, &identity);
        if (!message) return;
        if (!*message) {
            ++m_badMessages;
            sendError(m_data, &identity, 0, "refused: " + message->status().message());
            continue;
        }
        handleData(message->value());
    }
}

void Coordinator::handleData(InboundMessage& message) {
    const wire::Envelope& envelope = message.envelope;
    switch (envelope.body_case()) {
        case wire::Envelope::kRegister: return handleRegister(message);
        case wire::Envelope::kHeartbeat: {
            auto owner = m_heartbeatOwners.find(message.identity);
            WorkerRecord* w = owner == m_heartbeatOwners.end() ? nullptr : m_workers.find(owner->second);
            if (!w) break;
            w->lastSeen = Clock::now();
            if (w->state == wire::WORKER_LOST) reviveWorker(*w, "heartbeats resumed");
            wire::Envelope ack;
            ack.mutable_heartbeat_ack();
            sendMessage(m_data, &message.identity, ack);
            return;
        }
        case wire::Envelope::kPush: {
            WorkerRecord* w = m_workers.findByIdentity(message.identity);
            if (!w || w->id != envelope.push().worker_id()) break;
            return handlePush(message, *w);
        }
        default:
            ++m_badMessages;
            sendError(m_data, &message.identity, envelope.correlation_id(),
                      "refused: the data endpoint takes register, push and heartbeat messages");
            return;
    }
    ++m_badMessages;
    sendError(m_data, &message.identity, envelope.correlation_id(),
              "refused: unknown sender; a worker must register before pushing or heartbeating");
}

void Coordinator::handleRegister(const InboundMessage& message) {
    const wire::Register& reg = message.envelope.register_();
    if (reg.heartbeat_only()) {
        WorkerRecord* w = m_workers.find(reg.worker_id());
        if (!w || !w->active()) {
            ++m_badMessages;
            sendError(m_data, &message.identity, 0, "refused: no active worker " + std::to_string(reg.worker_id()));
            return;
        }
        m_heartbeatOwners[message.identity] = w->id;
        wire::Envelope ack;
        ack.mutable_heartbeat_ack();
        sendMessage(m_data, &message.identity, ack);
        return;
    }
    if (m_state == wire::RUN_STOPPED || m_workers.findByIdentity(message.identity)) {
        ++m_badMessages;
        sendError(m_data, &message.identity, 0,
                  m_state == wire::RUN_STOPPED ? "refused: the run has stopped" : "refused: already registered");
        return;
    }
    WorkerRecord& w = m_workers.add(message.identity, m_options.spec.batch_size());
    if (auto it = m_options.slowdowns.find(w.id); it != m_options.slowdowns.end()) w.slowdown = it->second;
    w.pid = std::to_string(reg.pid()) + "@" + reg.hostname();
    // A worker joining a running SSP run starts level with the slowest, so it blocks nobody.
    w.clock = m_workers.minParticipantClock();
    wire::Envelope welcome;
    welcome.mutable_welcome()->set_worker_id(w.id);
    *welcome.mutable_welcome()->mutable_spec() = m_options.spec;
    welcome.mutable_welcome()->set_shard_index(w.id % m_options.spec.shard_count());
    sendMessage(m_data, &message.identity, welcome);
    emitEvent(wire::EVENT_WORKER_JOINED, "worker " + std::to_string(w.id) + " (pid " + w.pid + ", " + reg.backend() + ")", w.id);
}

void Coordinator::handlePush(InboundMessage& message, WorkerRecord& w) {
    const wire::Push& push = message.envelope.push();
    w.lastSeen = Clock::now();
    if (w.state == wire::WORKER_LOST) reviveWorker(w, "it pushed again");
    if (w.state == wire::WORKER_DONE) return sendStop(w);
    w.computeMs = push.compute_ms();
    w.commMs = push.comm_ms();
    w.waitMs = push.wait_ms();
    if (push.has_gradient()) {
        if (!message.tensor || message.tensor->size() != m_store.size() * sizeof(float)) {
            ++m_badMessages;
            sendError(m_data, &message.identity, message.envelope.correlation_id(),
                      "refused: a push needs a gradient of " + std::to_string(m_store.size()) + " floats");
            return;
        }
        if (push.base_version() > m_store.version() || push.batch_size() == 0 ||
            push.batch_size() > kElasticBatchRange * m_options.spec.batch_size()) {
            ++m_badMessages;  // no real worker computes on a future version, or on no samples
            sendError(m_data, &message.identity, message.envelope.correlation_id(),
                      "refused: a push on model version " + std::to_string(push.base_version()) + " (the model is at " +
                          std::to_string(m_store.version()) + ") with batch size " + std::to_string(push.batch_size()));
            return;
        }
        ++w.pushed;
        ++w.clock;
        // Its own speed, slowdown included, for elastic, auto and grouping by speed; the first two
        // iterations (allocation, cold caches) would mislead it.
        if (w.pushed > 2 && std::isfinite(push.compute_ms()) && push.compute_ms() > 0)
            w.recordSpeed(push.batch_size() / push.compute_ms() * 1000.0);
        ++m_pushed;
        w.samplesSinceTick += push.batch_size();
        ++w.iterationsSinceTick;
        m_samplesTotal += push.batch_size();
        if (std::isfinite(push.loss())) {
            m_trainLoss = m_haveLoss ? 0.98 * m_trainLoss + 0.02 * push.loss() : push.loss();
            m_haveLoss = true;
        }
        const GradientIn gradient{w.id, push.base_version(), static_cast<const float*>(message.tensor->data()),
                                  push.batch_size()};
        if (m_state == wire::RUN_STOPPED)
            dropGradient(w.id, push.base_version(), "run stopped");
        else if (!allFinite(gradient.data, m_store.size()))
            dropNonFinite(w.id, push.base_version());
        else
            m_policy->onGradient(gradient);
    }
    if (m_state == wire::RUN_STOPPED) return sendStop(w);
    const bool firstPull = w.state == wire::WORKER_STARTING;
    w.state = wire::WORKER_WAITING;
    w.waiting = true;
    w.waitingSince = Clock::now();
    // Training starts once the expected workers are ready (data loaded: their first pull), so
    // start-up time is neither trained-through by early workers nor counted in time limits.
    if (firstPull && m_state == wire::RUN_WAITING_FOR_WORKERS && !m_options.startPaused &&
        m_workers.participantIds().size() >= m_options.expectedWorkers)
        return startTraining();
    m_policy->onWaiting(w.id);
}


void Coordinator::dropNonFinite(uint32_t worker, uint64_t baseVersion) {
    dropGradient(worker, baseVersion, "gradient has NaN or infinite values");  // it would poison the model
    m_policy->reconsider();  // its clock moved on without the policy seeing a gradient (ssp bounds)
    if (m_divergenceReported) return;
    m_divergenceReported = true;  // once: every later gradient of a diverged model is the same story
    emitEvent(wire::EVENT_ERROR, "training diverged: worker " + std::to_string(worker) +
                           " computed a NaN or infinite gradient, so the model has blown up; lower the learning rate "
                           "or, in asynchronous modes, modulate it by staleness (dynsgd or inverse)",
              worker);
}

void Coordinator::sendStop(WorkerRecord& w) {
    wire::Envelope envelope;
    envelope.mutable_params()->set_stop(true);
    envelope.mutable_params()->set_version(m_store.version());
    sendMessage(m_data, &w.identity, envelope);
    w.waiting = false;
    w.state = wire::WORKER_DONE;
}

void Coordinator::reviveWorker(WorkerRecord& w, const std::string& why) {
    w.state = w.stateBeforeLoss;  // it was only silent (stalled, partitioned), not dead
    emitEvent(wire::EVENT_WORKER_REJOINED, "worker " + std::to_string(w.id) + " (" + why + ")", w.id);
    if (m_state != wire::RUN_STOPPED) m_policy->reconsider();
}

void Coordinator::checkHeartbeats() {
    const auto timeout = std::chrono::duration<double>(m_options.heartbeatTimeoutSeconds);
    bool changed = false;
    for (auto& [id, w] : m_workers.all()) {
        if (!w.active() || Clock::now() - w.lastSeen < timeout) continue;
        w.stateBeforeLoss = w.state;
        w.state = wire::WORKER_LOST;  // `waiting` stays: if it comes back, it is still owed parameters
        changed = true;
        emitEvent(wire::EVENT_WORKER_LOST, "worker " + std::to_string(id) + " sent nothing for " +
                                     std::to_string(m_options.heartbeatTimeoutSeconds).substr(0, 3) + " s",
                  id);
    }
    if (changed && m_state != wire::RUN_STOPPED) m_policy->reconsider();
}

}  // namespace syncscope::engine
