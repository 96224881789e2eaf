// Scenario commands (see scenario_commands.h).
#include "ui/scenario/scenario_commands.h"

namespace syncscope::ui {

namespace {

wire::ControlRequest flagRequest(void (wire::ControlRequest::*set)(bool)) {
    wire::ControlRequest request;
    (request.*set)(true);
    return request;
}

}  // namespace

wire::ControlRequest setModeSettingsRequest(const wire::ModeSettings& settings) {
    wire::ControlRequest request;
    *request.mutable_set_mode()->mutable_settings() = settings;
    return request;
}

wire::ControlRequest setGroupsRequest(const wire::SetGroups& groups) {
    wire::ControlRequest request;
    *request.mutable_set_groups() = groups;
    return request;
}

wire::ControlRequest setFullSlowdownRequest(uint32_t workerId, const wire::Slowdown& slowdown) {
    wire::ControlRequest request;
    request.mutable_set_slowdown()->set_worker_id(workerId);
    *request.mutable_set_slowdown()->mutable_slowdown() = slowdown;
    return request;
}

std::optional<wire::ControlRequest> controlRequestFor(const ScenarioStep& step) {
    switch (step.action) {
        case ScenarioAction::Note: return std::nullopt;
        case ScenarioAction::SetMode: return setModeSettingsRequest(step.mode);
        case ScenarioAction::SetGroups: return setGroupsRequest(step.groups);
        case ScenarioAction::SetSlowdown: return setFullSlowdownRequest(step.workerId, step.slowdown);
        case ScenarioAction::SetLearningRate: {
            wire::ControlRequest request;
            request.mutable_set_learning_rate()->set_learning_rate(step.learningRate);
            return request;
        }
        case ScenarioAction::Pause: return flagRequest(&wire::ControlRequest::set_pause);
        case ScenarioAction::Resume: return flagRequest(&wire::ControlRequest::set_resume);
        case ScenarioAction::Stop: return flagRequest(&wire::ControlRequest::set_stop);
    }
    return std::nullopt;
}

void applyScenario(const Scenario& scenario, wire::RunPlan& plan) {
    for (const InitialSlowdown& s : scenario.slowdowns) (*plan.mutable_slowdowns())[uint32_t(s.workerId)] = s.slowdown;
    if (scenario.learningRate > 0) plan.mutable_spec()->set_learning_rate(static_cast<float>(scenario.learningRate));
}

}  // namespace syncscope::ui
