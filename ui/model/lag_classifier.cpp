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
    // Each worker's mean figure in each slice of the window; its mean over the whole window.
    std::map<int64_t, std::map<uint32_t, std::pair<double, int>>> slices;  // slice -> id -> (sum, count)
    std::map<uint32_t, std::pair<double, int>> sums;
    for (const auto& [id, w] : frame.workers) {
        out[id];
        for (auto it = w.samplesPerSecond.crbegin(); it != w.samplesPerSecond.crend() && it->x() >= start; ++it) {
            if (!std::isfinite(it->y())) continue;
            auto& slice = slices[int64_t(std::floor(it->x() / kLagSliceSeconds))][id];
            slice.first += it->y();
            ++slice.second;
            sums[id].first += it->y();
            ++sums[id].second;
        }
    }
    std::map<double, std::vector<std::pair<uint32_t, double>>> byTime;
    for (const auto& [slice, workers] : slices)
        for (const auto& [id, sum] : workers) byTime[double(slice)].emplace_back(id, sum.first / sum.second);
    std::map<uint32_t, int> lagging, seen;
    std::vector<double> values, medians;
    for (const auto& [time, figures] : byTime) {
        if (figures.size() < 2) continue;  // one worker lags no one
        values.clear();
        for (const auto& f : figures) values.push_back(f.second);
        std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
        const double median = values[values.size() / 2];
        medians.push_back(median);
        for (const auto& [id, value] : figures) {
            ++seen[id];
            if (value < kLagFraction * median) ++lagging[id];
        }
    }
    double typical = 0;
    if (!medians.empty()) {
        std::nth_element(medians.begin(), medians.begin() + medians.size() / 2, medians.end());
        typical = medians[medians.size() / 2];
    }
    for (auto& [id, figures] : out) {
        if (const int n = seen[id]) figures.share = double(lagging[id]) / n;
        if (typical > 0 && sums[id].second) figures.relativeSpeed = sums[id].first / sums[id].second / typical;
        figures.lag = figures.share >= kChronicShare    ? Lag::Chronic
                      : figures.share >= kTransientShare ? Lag::Transient
                                                         : Lag::None;
    }
    return out;
}

}  // namespace syncscope::ui
