// The median of a list of values: the middle one, or the mean of the two middle ones; NaN for none.
// One definition for the experiment's medians over seeds and the prediction checks.
#pragma once

#include <algorithm>
#include <limits>
#include <vector>

namespace syncscope::engine {

inline double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    if (n == 0) return std::numeric_limits<double>::quiet_NaN();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace syncscope::engine
