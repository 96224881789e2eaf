// The checks a gradient passes before it may reach a model: every value finite, and its L2 norm
// (for --max-gradient-norm). Shared by the coordinator, the group aggregators and the parameter
// shards. One pass gives both: a float squared fits a double, so the sum of squares is finite
// exactly when every value is.
#pragma once

#include <cmath>
#include <cstddef>

namespace syncscope::engine {

/// The sum of the squared values, in double. Eight running sums, so the compiler can vectorise the
/// loop without reassociating one sum (a plain loop runs about 4x slower).
inline double sumOfSquares(const float* values, size_t count) {
    double lanes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t i = 0;
    for (; i + 8 <= count; i += 8)
        for (int k = 0; k < 8; ++k) lanes[k] += double(values[i + k]) * values[i + k];
    double tail = 0;
    for (; i < count; ++i) tail += double(values[i]) * values[i];
    return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7])) + tail;
}

inline bool allFinite(const float* values, size_t count) { return std::isfinite(sumOfSquares(values, count)); }

/// What a gradient's checks need: whether every value is finite, and its sum of squares. Values from
/// `bufferBegin` on are an external model's buffers (RunSpec.buffer_count), not gradient: they must
/// be finite but are left out of the norm.
struct GradientSquares {
    bool finite = true;
    double squares = 0;
};
inline GradientSquares gradientSquares(const float* values, size_t count, size_t bufferBegin) {
    const double gradient = sumOfSquares(values, bufferBegin);
    const double buffers = bufferBegin < count ? sumOfSquares(values + bufferBegin, count - bufferBegin) : 0.0;
    return {std::isfinite(gradient + buffers), gradient};
}

}  // namespace syncscope::engine
