// The auto controller's choice (STAR-like): of the options it weighs (bsp, ksync with backup workers,
// grouped by speed, asp), the predictions of mode_predictions.h (the same the console's what-if
// curves show), and the best of them. Pure functions over the registry, so tests drive them with
// synthetic speed profiles; AutoPolicy runs them on a timer and acts (or advises).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/proto/syncscope.pb.h"
#include "engine/policy/worker_registry.h"

namespace syncscope::engine {

/// A switch needs this predicted gain: speeds measured on shared cores wobble by 10-20%.
constexpr double kAutoSwitchGain = 1.25;
/// Pushes per worker before the first decision: the first 2 do not count (cold caches), and
/// at 8 ms iterations more would cost a straggler-bound run a third of its time to 85%.
constexpr uint64_t kAutoPushesBeforeDeciding = 6;

/// Every option auto weighs, for the participating workers at the run's batch size. Workers must
/// have a measured speed (computeSpeed > 0).
std::vector<wire::AutoCandidate> predictCandidates(const WorkerRegistry& workers, uint32_t batchSize);

/// The decision against the option running now (`currentLabel`, e.g. "ksync K=7"): SWITCHES to the
/// best when it beats the current prediction by kAutoSwitchGain (or the current one is not among
/// the candidates), else STAYS. Fills the slowest and median worker's iteration times.
wire::AutoDecision decideMode(const WorkerRegistry& workers, uint32_t batchSize, const std::string& currentLabel);

/// One line for logs and the event's detail: "switches to ksync K=7: worker 0 takes 26 ms ...".
std::string describeDecision(const wire::AutoDecision& decision);

}  // namespace syncscope::engine
