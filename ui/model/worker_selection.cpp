// Worker selection for line charts (see worker_selection.h).
#include "ui/model/worker_selection.h"

#include <algorithm>
#include <map>

#include "ui/model/lag_classifier.h"

namespace syncscope::ui {

std::vector<uint32_t> slowestWorkers(const TelemetryFrame& frame, size_t k, const std::vector<uint32_t>& shown) {
    const std::map<uint32_t, LagFigures> computed = frame.lag ? std::map<uint32_t, LagFigures>{} : classifyLag(frame);
    const std::map<uint32_t, LagFigures>& lag = frame.lag ? *frame.lag : computed;  // the store's, not a copy
    std::vector<std::pair<double, uint32_t>> bySpeed;
    for (const auto& [id, figures] : lag) bySpeed.emplace_back(figures.relativeSpeed, id);
    std::sort(bySpeed.begin(), bySpeed.end());
    const size_t slowest = std::min(k, bySpeed.size()), kept = std::min(2 * k, bySpeed.size());
    std::vector<uint32_t> out;
    for (size_t i = 0; i < kept && out.size() < slowest; ++i)  // those shown that are still slow enough
        if (std::find(shown.begin(), shown.end(), bySpeed[i].second) != shown.end()) out.push_back(bySpeed[i].second);
    for (size_t i = 0; i < bySpeed.size() && out.size() < slowest; ++i)  // the slowest others
        if (std::find(out.begin(), out.end(), bySpeed[i].second) == out.end()) out.push_back(bySpeed[i].second);
    std::stable_sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) { return lag.at(a).relativeSpeed < lag.at(b).relativeSpeed; });
    return out;
}

std::shared_ptr<const std::map<uint32_t, LagFigures>> lagOf(const TelemetryFrame& frame) {
    if (frame.lag || frame.workers.size() <= kLinesUpToWorkers) return frame.lag;
    return std::make_shared<const std::map<uint32_t, LagFigures>>(classifyLag(frame));
}

std::vector<uint32_t> lineWorkers(const TelemetryFrame& frame, uint32_t chosen, const std::vector<uint32_t>& shown) {
    std::vector<uint32_t> ids;
    if (frame.workers.size() <= kLinesUpToWorkers) {
        for (const auto& [id, worker] : frame.workers) ids.push_back(id);
        return ids;
    }
    ids = slowestWorkers(frame, kSlowestShown, shown);
    if (frame.workers.count(chosen) && std::find(ids.begin(), ids.end(), chosen) == ids.end()) ids.push_back(chosen);
    std::sort(ids.begin(), ids.end());
    return ids;
}

}  // namespace syncscope::ui
