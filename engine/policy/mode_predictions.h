// What each sync mode would do with the run's workers as measured now: the samples/s it would apply
// and their mean staleness, from each worker's compute speed and communication time. One model for
// the auto controller, the advisor and the console's what-if curves (issue 29). Pure functions over
// the registry, so tests drive them with synthetic speed profiles.
//
// For iteration times t_i = compute_i(b) + comm_i at the run's batch b (compute_i the worker's
// ComputeTimeModel line, fixed + per sample, and comm the median of its recent pushes; for a worker
// under a CPU quota at least cpu_i(b) / limit_i, WorkerRecord::quotaBoundMs), N
// participating workers; E[max] and E[k-th] are taken over the workers' recent iterations (each push
// moved along its line to b, one drawn per worker), since a barrier waits for each round's slowest,
// bursts included, not for the slowest typical time:
//   bsp        N b / E[max t_i]                           staleness 0
//   ssp s      N b / max t_i (the slowest sets everyone's clock in the long run; s absorbs
//              bursts)                                    (N-1) mean t_i / max t_i
//   asp        sum b / t_i                                N - 1
//   ksync K    K b / E[t_(K)], the K-th shortest          0 (the others' gradients are dropped)
//   kasync K   sum b / t_i                                N / K (an update every K gradients)
//   grouped G  each group j applies |j| b every E[max_{i in j} t_i]; a group's update is as stale as
//              the other groups' updates during its round (sample-weighted mean)
//   elastic    the policy's batches b_i (equal t_i, within its range; balancedBatches), one barrier:
//              sum b_i per E[max_i t_i(b_i)]              0
// A stale update is assumed to run with dynsgd modulation (lr / (tau + 1)); its worth per sample is
// 1 / (1 + kStalenessCost x tau), which makes "effective" samples/s comparable across modes.
#pragma once

#include <string>
#include <vector>

#include "engine/proto/syncscope.pb.h"
#include "engine/policy/worker_registry.h"

namespace syncscope::engine {

/// Cost of one step of mean staleness: progress per sample / (1 + c x tau).
constexpr double kStalenessCost = 0.25;

/// A worker's iteration time at `batchSize`: its compute time there and its typical communication time.
double iterationSeconds(const WorkerRecord& worker, double batchSize);

/// The prediction for `settings` (any mode but auto), labelled as optionLabel() does. Workers must
/// have a measured compute time (compute.measured()); none participating: an empty candidate.
wire::AutoCandidate predictOption(const WorkerRegistry& workers, uint32_t batchSize, const wire::ModeSettings& settings);

/// "bsp", "ssp s=3", "ksync K=7", "kasync K=2", "grouped G=2 by speed", "elastic", "auto": the
/// option's name with its defaults resolved for the participating workers.
std::string optionLabel(const WorkerRegistry& workers, const wire::ModeSettings& settings);

/// The settings a switch to each mode would take, at the defaults of the mode catalogue, for the
/// participating workers: bsp, ssp, asp, ksync (from 3 workers), kasync (from 4), grouped by speed
/// (from 3), elastic. Stale modes carry dynsgd modulation.
std::vector<wire::ModeSettings> whatIfSettings(size_t participants);

}  // namespace syncscope::engine
