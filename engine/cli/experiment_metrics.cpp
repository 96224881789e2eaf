// Medians over an experiment's seeds (see experiment_metrics.h).
#include "engine/cli/experiment_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace syncscope::engine {

CellSummary summarise(const std::string& mode, int delayPercent, const std::vector<RunMetrics>& runs) {
    CellSummary c;
    c.mode = mode;
    c.delayPercent = delayPercent;
    c.runs = static_cast<int>(runs.size());
    auto of = [&](auto field) {
        std::vector<double> v;
        for (const auto& r : runs) v.push_back(field(r));
        return median(std::move(v));
    };
    const double time = of([](const RunMetrics& r) {
        return r.timeToTarget ? *r.timeToTarget : std::numeric_limits<double>::infinity();
    });
    if (std::isfinite(time)) c.timeToTarget = time;
    for (const auto& r : runs) c.reached += r.timeToTarget ? 1 : 0;
    c.accuracyAtFixedTime = of([](const RunMetrics& r) { return r.accuracyAtFixedTime; });
    c.finalAccuracy = of([](const RunMetrics& r) { return r.finalAccuracy; });
    c.samplesPerSecond = of([](const RunMetrics& r) { return r.samplesPerSecond; });
    c.stalenessMean = of([](const RunMetrics& r) { return r.stalenessMean; });
    c.stalenessP99 = of([](const RunMetrics& r) { return r.stalenessP99; });
    c.dropped = of([](const RunMetrics& r) { return double(r.dropped); });
    return c;
}

}  // namespace syncscope::engine
