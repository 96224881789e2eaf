// Control request builders (see control_requests.h).
#include "ui/net/control_requests.h"

#include <algorithm>

namespace syncscope::ui {

wire::ControlRequest startRequest() {
    wire::ControlRequest request;
    request.set_start(true);
    return request;
}

wire::ControlRequest pauseRequest() {
    wire::ControlRequest request;
    request.set_pause(true);
    return request;
}

wire::ControlRequest resumeRequest() {
    wire::ControlRequest request;
    request.set_resume(true);
    return request;
}

wire::ControlRequest stopRequest() {
    wire::ControlRequest request;
    request.set_stop(true);
    return request;
}

wire::ControlRequest setModeRequest(wire::SyncMode mode, uint32_t stalenessBound, wire::LrModulation lrModulation) {
    wire::ControlRequest request;
    wire::ModeSettings* settings = request.mutable_set_mode()->mutable_settings();
    settings->set_mode(mode);
    settings->set_staleness_bound(stalenessBound);
    settings->set_lr_modulation(lrModulation);
    return request;
}

wire::ControlRequest setModeRequest(const wire::ModeSettings& settings) {
    wire::ControlRequest request;
    *request.mutable_set_mode()->mutable_settings() = settings;
    return request;
}

wire::ControlRequest setGroupsRequest(uint32_t count, wire::GroupBy by) {
    wire::ControlRequest request;
    request.mutable_set_groups()->set_count(count);
    request.mutable_set_groups()->set_by(by);
    return request;
}

wire::ControlRequest setGroupsExplicitRequest(const std::map<uint32_t, uint32_t>& assignment, uint32_t count) {
    wire::ControlRequest request;
    wire::SetGroups* groups = request.mutable_set_groups();
    groups->set_by(wire::GROUP_EXPLICIT);
    count = std::max(count, 1u);
    for (const auto& [worker, group] : assignment) {
        (*groups->mutable_assignment())[worker] = group;
        count = std::max(count, group + 1);
    }
    groups->set_count(count);
    return request;
}

wire::ControlRequest setSlowdownRequest(uint32_t workerId, double factor, double fixedDelayMs) {
    wire::ControlRequest request;
    request.mutable_set_slowdown()->set_worker_id(workerId);
    wire::Slowdown* slowdown = request.mutable_set_slowdown()->mutable_slowdown();
    slowdown->set_factor(factor);
    slowdown->set_fixed_delay_ms(fixedDelayMs);
    return request;
}

wire::ControlRequest setLearningRateRequest(float learningRate) {
    wire::ControlRequest request;
    request.mutable_set_learning_rate()->set_learning_rate(learningRate);
    return request;
}

wire::ControlRequest rollbackRequest(uint64_t changeId) {
    wire::ControlRequest request;
    request.mutable_rollback()->set_change_id(changeId);
    return request;
}

wire::ControlRequest answerAdviceRequest(uint64_t adviceId, bool accept) {
    wire::ControlRequest request;
    request.mutable_answer_advice()->set_advice_id(adviceId);
    request.mutable_answer_advice()->set_accept(accept);
    return request;
}

std::optional<wire::Event> eventFromReply(const QByteArray& serializedEvent) {
    wire::Event event;
    if (serializedEvent.isEmpty() || !event.ParseFromArray(serializedEvent.constData(), static_cast<int>(serializedEvent.size())))
        return std::nullopt;
    return event;
}

}  // namespace syncscope::ui
