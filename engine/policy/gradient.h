// A gradient as the coordinator's policies and accumulator see it: one worker's, or a group
// aggregator's sum of several.
#pragma once

#include <cstdint>
#include <vector>

namespace syncscope::engine {

/// A gradient as it arrives: computed by `worker` on model version `baseVersion`. In a sharded run
/// its values wait at the parameter shards (data is null) under the worker's `sequence` number.
struct GradientIn {
    uint32_t worker = 0;
    uint64_t baseVersion = 0;
    const float* data = nullptr;
    uint32_t batchSize = 0;
    uint64_t sequence = 0;
};

/// Gradients of several workers on one version of one group, summed by a group aggregator on the
/// way: weightedSum = sum over members of batch x gradient (the members' data is null).
struct GradientSum {
    uint32_t group = 0;
    uint64_t baseVersion = 0;
    const float* weightedSum = nullptr;
    std::vector<GradientIn> members;
};

}  // namespace syncscope::engine
