// The checks a gradient passes before it may reach a model: every value finite, and its L2 norm
// (for --max-gradient-norm). Shared by the coordinator and the group aggregators.
#pragma once

#include <cmath>
#include <cstddef>

namespace syncscope::engine {

inline double l2Norm(const float* values, size_t count) {
    double sum = 0;
    for (size_t i = 0; i < count; ++i) sum += double(values[i]) * values[i];
    return std::sqrt(sum);
}

inline bool allFinite(const float* values, size_t count) {
    float sum = 0.0f;  // NaN or infinity anywhere makes the sum non-finite; one branch-free pass
    for (size_t i = 0; i < count; ++i) sum += values[i] * 0.0f;
    return sum == 0.0f;
}

}  // namespace syncscope::engine
