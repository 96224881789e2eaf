// ControlHandler (see control_handler.h).
#include "engine/coordinator/control_handler.h"

#include <fmt/format.h>

#include <cmath>

#include "engine/plan/mode_catalog.h"
#include "engine/policy/grouping.h"
#include "engine/policy/policy_factory.h"

namespace syncscope::engine {

void ControlHandler::poll() {
    for (int i = 0; i < 64; ++i) {
        auto message = m_endpoint.receive();
        if (!message) return;
        if (message->envelope.body_case() != wire::Envelope::kControl) {
            m_endpoint.refuse(message->identity, message->envelope.correlation_id(),
                              "the control endpoint takes control requests only");
            continue;
        }
        wire::Envelope reply;
        reply.set_correlation_id(message->envelope.correlation_id());
        // Without authentication nobody has a role, and everyone may steer (loopback only).
        const std::string role = m_state.options.credentials ? message->userId : roleName(Role::Steer);
        *reply.mutable_control_reply() = execute(message->envelope.control(), role, message->identity);
        m_endpoint.send(message->identity, reply);
    }
}

wire::ControlReply ControlHandler::execute(const wire::ControlRequest& request, const std::string& role,
                                           const std::string& client) {
    using R = wire::ControlRequest;
    wire::ControlReply reply;
    auto fail = [&](const std::string& error) {
        reply.set_ok(false);
        reply.set_error(error);
        return reply;
    };
    if (request.command_case() == R::kSnapshot) {
        if (!snapshotAllowed(client))
            return fail(fmt::format("at most one snapshot per {} s per console; ask again shortly", kSnapshotIntervalSeconds));
        *reply.mutable_snapshot() = snapshot(role);
        reply.set_ok(true);
        return reply;
    }
    if (role != roleName(Role::Steer))
        return fail("refused: the " + (role.empty() ? std::string("unknown") : role) +
                    " role may watch the run but not steer it; steering needs the steer role's credentials "
                    "(`syncscope-engine keygen --role steer`)");
    const wire::RunState state = m_state.state;
    if (state == wire::RUN_STOPPED && request.command_case() != R::kSnapshot) return fail("the run has stopped");
    // A change of the training (not of the run's state) is numbered, and checkpointed before it is
    // made, so it can be rolled back; its events carry its number.
    const bool change = request.command_case() == R::kSetMode || request.command_case() == R::kSetGroups ||
                        request.command_case() == R::kSetSlowdown || request.command_case() == R::kSetLearningRate ||
                        request.command_case() == R::kRollback ||
                        (request.command_case() == R::kAnswerAdvice && request.answer_advice().accept());
    if (change) m_checkpoints.beginChange(request.ShortDebugString());
    Status status = executeCommand(request);
    if (change) m_checkpoints.endChange();
    if (!status) return fail(status.message());
    reply.set_ok(true);
    if (!m_events.all().empty()) *reply.mutable_event() = m_events.all().back();
    return reply;
}

Status ControlHandler::executeCommand(const wire::ControlRequest& request) {
    using R = wire::ControlRequest;
    const wire::RunState state = m_state.state;
    Status status;
    switch (request.command_case()) {
        case R::kStart:
            if (state != wire::RUN_WAITING_FOR_WORKERS) return invalidArgument("the run has already started");
            startTraining();
            break;
        case R::kPause:
            if (state != wire::RUN_RUNNING) return invalidArgument("the run is not running");
            m_state.state = wire::RUN_PAUSED;
            m_events.raise(wire::EVENT_PAUSE, "paused");
            break;
        case R::kResume:
            if (state != wire::RUN_PAUSED) return invalidArgument("the run is not paused");
            m_state.state = wire::RUN_RUNNING;
            m_state.pausedForStorage = false;
            m_events.raise(wire::EVENT_RESUME, "resumed");
            m_state.policy->reconsider();
            break;
        case R::kStop: beginStop("stop requested on the control channel"); break;
        case R::kSetMode: status = setMode(request.set_mode().settings()); break;
        case R::kSetGroups: status = setGroups(request.set_groups()); break;
        case R::kSetSlowdown: status = setSlowdown(request.set_slowdown()); break;
        case R::kSetLearningRate: status = setLearningRate(request.set_learning_rate().learning_rate()); break;
        case R::kAnswerAdvice:
            status = m_state.policy->answerAdvice(request.answer_advice().advice_id(), request.answer_advice().accept());
            break;
        case R::kRollback: status = m_checkpoints.rollback(request.rollback().change_id()); break;
        default: return invalidArgument("empty or unknown control command");
    }
    return status;
}

bool ControlHandler::snapshotAllowed(const std::string& client) {
    const auto now = Clock::now();
    const auto interval = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kSnapshotIntervalSeconds));
    if (m_lastSnapshot.size() > 1024)  // forget consoles long gone
        std::erase_if(m_lastSnapshot, [&](const auto& entry) { return now - entry.second > 20 * interval; });
    auto [it, first] = m_lastSnapshot.try_emplace(client, now);
    if (!first && now - it->second < interval) return false;
    it->second = now;
    return true;
}

wire::Snapshot ControlHandler::snapshot(const std::string& role) const {
    wire::Snapshot snapshot;
    snapshot.set_client_role(m_state.options.credentials ? role : std::string());
    snapshot.set_authentication(m_state.authentication());
    *snapshot.mutable_header() = m_state.header();
    for (auto& t : m_telemetry.history()) *snapshot.add_ticks() = std::move(t);
    for (const auto& e : m_events.all()) *snapshot.add_events() = e;
    *snapshot.mutable_catalog() = modeCatalog();
    return snapshot;
}

Status ControlHandler::setMode(const wire::ModeSettings& settings, wire::EventKind kind) {
    if (Status s = validateModeSettings(settings); !s) return s;
    // The version boundary: a partial aggregate is applied, then the new rule holds. Groups are
    // cleared first, so the new policy assigns them afresh.
    m_state.policy->drain(true);
    m_state.policy.reset();
    m_state.workers.clearGroups();
    auto next = createSyncPolicy(settings, m_policyContext);
    if (!next) {  // cannot happen after validation; never leave the run without a policy
        m_state.policy = std::move(*createSyncPolicy(m_state.mode, m_policyContext));
        return next.status();
    }
    m_state.policy = std::move(*next);
    m_state.mode = settings;
    std::string detail = describeMode(settings);
    if (settings.mode() == wire::GROUPED) detail += ": " + describeGroups(m_state.workers);
    m_events.raise(kind, detail);
    m_state.policy->reconsider();
    return Status::ok();
}

Status ControlHandler::setGroups(const wire::SetGroups& request) {
    if (m_state.mode.mode() != wire::GROUPED)
        return invalidArgument("regrouping needs the grouped mode (the run is in " + describeMode(m_state.mode) +
                               "); switch with set_mode grouped first");
    if (request.by() == wire::GROUP_EXPLICIT && request.assignment().empty())
        return invalidArgument("an explicit grouping needs an assignment of workers to groups");
    if (request.by() != wire::GROUP_EXPLICIT && request.count() == 0)
        return invalidArgument("regrouping by count or speed needs a group count of at least 1");
    wire::ModeSettings settings = m_state.mode;
    settings.set_group_by(request.by());
    settings.set_group_count(request.count());
    *settings.mutable_assignment() = request.assignment();
    return setMode(settings, wire::EVENT_GROUPS);
}

Status ControlHandler::setSlowdown(const wire::SetSlowdown& request) {
    WorkerRecord* w = m_state.workers.find(request.worker_id());
    if (!w) return invalidArgument(fmt::format("no worker {}", request.worker_id()));
    if (Status s = validateSlowdown(request.slowdown()); !s) return s;
    w->slowdown = request.slowdown();
    m_events.raise(wire::EVENT_SLOWDOWN, describeSlowdown(w->id, w->slowdown), w->id);
    return Status::ok();
}

Status ControlHandler::setLearningRate(float learningRate) {
    const double most = runLimits().max_learning_rate();
    if (!std::isfinite(learningRate) || learningRate <= 0 || learningRate > most)
        return invalidArgument(fmt::format("learning rate {} must be in (0, {}]", learningRate, most));
    m_state.store.sgd().learningRate = learningRate;
    m_events.raise(wire::EVENT_LEARNING_RATE, fmt::format("learning rate {}", learningRate));
    return Status::ok();
}

void ControlHandler::startTraining() {
    m_state.state = wire::RUN_RUNNING;
    m_state.started = true;
    m_state.trainingStart = Clock::now();
    m_events.raise(wire::EVENT_START, fmt::format("training started with {} workers, {}",
                                                 m_state.workers.participantIds().size(), describeMode(m_state.mode)));
    m_state.policy->reconsider();
}

void ControlHandler::beginStop(const std::string& reason) {
    if (m_state.state == wire::RUN_STOPPED) return;
    m_state.state = wire::RUN_STOPPED;  // first, so draining releases no one into another iteration
    m_state.policy->drain(false);
    m_stopDeadline = Clock::now() + std::chrono::seconds(3);
    m_events.raise(wire::EVENT_STOP, reason);
    for (auto& [id, w] : m_state.workers.all())
        if (w.waiting) m_dataPlane.sendStop(w);
}

}  // namespace syncscope::engine
