// Coordinator, control plane: start, pause, resume, stop, mode, slowdown, learning rate and
// snapshot requests from consoles; each change becomes an event and is answered with it.
#include <cmath>

#include "engine/net/protocol.h"
#include "engine/ps/coordinator.h"
#include "engine/ps/grouping.h"
#include "engine/ps/mode_catalog.h"

namespace syncscope::engine {
void Coordinator::pollControl() {
    const ReceiveLimits limits{kMaxControlBytes, 0};
    for (int i = 0; i < 64; ++i) {
        std::string identity;
        auto message = receiveMessage(m_control, true, limits, &identity);
        if (!message) return;
        if (!*message) {
            ++m_badMessages;
            sendError(m_control, &identity, 0, "refused: " + message->status().message());
            continue;
        }
        InboundMessage& in = message->value();
        if (in.envelope.body_case() != wire::Envelope::kControl) {
            ++m_badMessages;
            sendError(m_control, &in.identity, in.envelope.correlation_id(),
                      "refused: the control endpoint takes control requests only");
            continue;
        }
        wire::Envelope reply;
        reply.set_correlation_id(in.envelope.correlation_id());
        *reply.mutable_control_reply() = executeControl(in.envelope.control());
        sendMessage(m_control, &in.identity, reply);
    }
}

wire::ControlReply Coordinator::executeControl(const wire::ControlRequest& request) {
    wire::ControlReply reply;
    auto fail = [&](const std::string& error) {
        reply.set_ok(false);
        reply.set_error(error);
        return reply;
    };
    using R = wire::ControlRequest;
    if (m_state == wire::RUN_STOPPED && request.command_case() != R::kSnapshot) return fail("the run has stopped");
    switch (request.command_case()) {
        case R::kStart:
            if (m_state != wire::RUN_WAITING_FOR_WORKERS) return fail("the run has already started");
            startTraining();
            break;
        case R::kPause:
            if (m_state != wire::RUN_RUNNING) return fail("the run is not running");
            m_state = wire::RUN_PAUSED;
            emitEvent(wire::EVENT_PAUSE, "paused");
            break;
        case R::kResume:
            if (m_state != wire::RUN_PAUSED) return fail("the run is not paused");
            m_state = wire::RUN_RUNNING;
            emitEvent(wire::EVENT_RESUME, "resumed");
            m_policy->reconsider();
            break;
        case R::kStop: beginStop("stop requested on the control channel"); break;
        case R::kSetMode:
            if (Status s = setMode(request.set_mode().settings()); !s) return fail(s.message());
            break;
        case R::kSetGroups:
            if (Status s = setGroups(request.set_groups()); !s) return fail(s.message());
            break;
        case R::kSetSlowdown: {
            WorkerRecord* w = m_workers.find(request.set_slowdown().worker_id());
            if (!w) return fail("no worker " + std::to_string(request.set_slowdown().worker_id()));
            if (Status s = validateSlowdown(request.set_slowdown().slowdown()); !s) return fail(s.message());
            w->slowdown = request.set_slowdown().slowdown();
            emitEvent(wire::EVENT_SLOWDOWN, describeSlowdown(w->id, w->slowdown), w->id);
            break;
        }
        case R::kSetLearningRate: {
            const float lr = request.set_learning_rate().learning_rate();
            if (!std::isfinite(lr) || lr <= 0 || lr > 10) return fail("learning rate must be in (0, 10]");
            m_store.sgd().learningRate = lr;
            emitEvent(wire::EVENT_LEARNING_RATE, "learning rate " + std::to_string(lr));
            break;
        }
        case R::kSnapshot: {
            wire::Snapshot* snapshot = reply.mutable_snapshot();
            *snapshot->mutable_header() = header();
            for (const auto& t : m_history) *snapshot->add_ticks() = t;
            for (const auto& e : m_events) *snapshot->add_events() = e;
            *snapshot->mutable_catalog() = modeCatalog();
            reply.set_ok(true);
            return reply;
        }
        case R::kAnswerAdvice: {
            const auto& answer = request.answer_advice();
            if (Status s = m_policy->answerAdvice(answer.advice_id(), answer.accept()); !s) return fail(s.message());
            break;
        }
        default: return fail("empty or unknown control command");
    }
    reply.set_ok(true);
    if (!m_events.empty()) *reply.mutable_event() = m_events.back();
    return reply;
}

Status Coordinator::setMode(const wire::ModeSettings& settings, wire::EventKind kind) {
    if (Status s = validateModeSettings(settings); !s) return s;
    // The version boundary: a partial aggregate is applied, then the new rule holds. Groups are
    // cleared first, so the new policy assigns them afresh.
    m_policy->drain(true);
    m_policy.reset();
    m_workers.clearGroups();
    auto next = createSyncPolicy(settings, *this);
    if (!next) {  // cannot happen after validation; never leave the run without a policy
        m_policy = std::move(*createSyncPolicy(m_mode, *this));
        return next.status();
    }
    m_policy = std::move(*next);
    m_mode = settings;
    std::string detail = describeMode(settings);
    if (settings.mode() == wire::GROUPED) detail += ": " + describeGroups(m_workers);
    emitEvent(kind, detail);
    m_policy->reconsider();
    return Status::ok();
}

Status Coordinator::setGroups(const wire::SetGroups& request) {
    if (m_mode.mode() != wire::GROUPED)
        return invalidArgument("regrouping needs the grouped mode (the run is in " + describeMode(m_mode) +
                                  "); switch with set_mode grouped first");
    wire::ModeSettings settings = m_mode;
    settings.set_group_by(request.by());
    settings.set_group_count(request.count());
    *settings.mutable_assignment() = request.assignment();
    if (request.by() == wire::GROUP_EXPLICIT && request.assignment().empty())
        return invalidArgument("an explicit grouping needs an assignment of workers to groups");
    if (request.by() != wire::GROUP_EXPLICIT && request.count() == 0)
        return invalidArgument("regrouping by count or speed needs a group count of at least 1");
    return setMode(settings, wire::EVENT_GROUPS);
}

void Coordinator::startTraining() {
    m_state = wire::RUN_RUNNING;
    m_started = true;
    m_trainingStart = Clock::now();
    emitEvent(wire::EVENT_START, "training started with " + std::to_string(m_workers.participantIds().size()) + " workers, " +
                           describeMode(m_mode));
    m_policy->reconsider();
}

void Coordinator::beginStop(const std::string& reason) {
    if (m_state == wire::RUN_STOPPED) return;
    m_state = wire::RUN_STOPPED;  // first, so draining releases no one into another iteration
    m_policy->drain(false);
    m_stopDeadline = Clock::now() + std::chrono::seconds(3);
    emitEvent(wire::EVENT_STOP, reason);
    for (auto& [id, w] : m_workers.all())
        if (w.waiting) sendStop(w);
}

}  // namespace syncscope::engine
