// Lag classification (see lag_classifier.h).
#include "ui/model/lag_classifier.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace syncscope::ui {

std::map<uint32_t, LagFigures> classifyLag(const TelemetryFrame& frame) {
    std::map<uint32_t, LagFigures> out;
    double end = 0;
    for (const auto& [id, w] : frame.workers)
        if (!w.samplesPerSecond.isEmpty()) end = std::max(end, w.samplesPerSecond.back().x());
    const double start = end - kLagWindowSeconds;
    // Each worker's mean figure in each slice of the window (a dense slice x worker table: it runs
    // on every frame with hundreds of workers), and its mean over the whole window.
    const int64_t firstSlice = int64_t(std::floor(start / kLagSliceSeconds));
    const size_t sliceCount = size_t(int64_t(std::floor(end / kLagSliceSeconds)) - firstSlice + 1);
    const size_t workers = frame.workers.size();
    std::vector<double> sliceSum(sliceCount * workers, 0.0), windowSum(workers, 0.0);
    std::vector<int> cellCount(sliceCount * workers, 0), windowCount(workers, 0);
    size_t column = 0;
    for (const auto& [id, w] : frame.workers) {
        out[id];
        for (auto it = w.samplesPerSecond.crbegin(); it != w.samplesPerSecond.crend() && it->x() >= start; ++it) {
            if (!std::isfinite(it->y())) continue;
            const int64_t slice = int64_t(std::floor(it->x() / kLagSliceSeconds)) - firstSlice;
            if (slice < 0 || size_t(slice) >= sliceCount) continue;
            const size_t cell = size_t(slice) * workers + column;
            sliceSum[cell] += it->y();
            ++cellCount[cell];
            windowSum[column] += it->y();
            ++windowCount[column];
        }
        ++column;
    }
    std::vector<int> lagging(workers, 0), seen(workers, 0);
    std::vector<double> values, medians;
    for (size_t slice = 0; slice < sliceCount; ++slice) {
        values.clear();
        for (size_t c = 0; c < workers; ++c)
            if (const int n = cellCount[slice * workers + c]) values.push_back(sliceSum[slice * workers + c] / n);
        if (values.size() < 2) continue;  // one worker lags no one
        std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
        const double median = values[values.size() / 2];
        medians.push_back(median);
        for (size_t c = 0; c < workers; ++c) {
            const int n = cellCount[slice * workers + c];
            if (!n) continue;
            ++seen[c];
            if (sliceSum[slice * workers + c] / n < kLagFraction * median) ++lagging[c];
        }
    }
    double typical = 0;
    if (!medians.empty()) {
        std::nth_element(medians.begin(), medians.begin() + medians.size() / 2, medians.end());
        typical = medians[medians.size() / 2];
    }
    column = 0;
    for (auto& [id, figures] : out) {  // out is in the same (id) order as frame.workers
        if (seen[column]) figures.share = double(lagging[column]) / seen[column];
        if (typical > 0 && windowCount[column]) figures.relativeSpeed = windowSum[column] / windowCount[column] / typical;
        figures.lag = figures.share >= kChronicShare    ? Lag::Chronic
                      : figures.share >= kTransientShare ? Lag::Transient
                                                         : Lag::None;
        ++column;
    }
    return out;
}

}  // namespace syncscope::ui
