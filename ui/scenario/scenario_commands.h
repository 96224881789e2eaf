// What a scenario sends to the engine: the control request of each scheduled step, and the
// `syncscope-engine serve` flags for its stragglers, learning rate and target accuracy.
#pragma once

#include <QStringList>

#include <optional>

#include "engine/proto/syncscope.pb.h"
#include "ui/scenario/scenario.h"

namespace syncscope::ui {

/// The request `step` sends; empty for a step that only shows a note.
std::optional<wire::ControlRequest> controlRequestFor(const ScenarioStep& step);

/// SetMode with every ModeSettings field of `settings` (ui/net's builder covers bsp/asp/ssp only).
wire::ControlRequest setModeSettingsRequest(const wire::ModeSettings& settings);
wire::ControlRequest setGroupsRequest(const wire::SetGroups& groups);
wire::ControlRequest setFullSlowdownRequest(uint32_t workerId, const wire::Slowdown& slowdown);

/// What a scenario's run has beyond what LocalClusterSettings carries (workers, model, mode and its
/// parameters, stop conditions): its stragglers from the start, and its learning rate.
void applyScenario(const Scenario& scenario, wire::RunPlan& plan);

}  // namespace syncscope::ui
