// Worker selection for line charts (see worker_selection.h).
#include "ui/model/worker_selection.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "ui/model/lag_classifier.h"

namespace syncscope::ui {

std::vector<uint32_t> slowestWorkers(const TelemetryFrame& frame, size_t k) {
    const std::map<uint32_t, LagFigures> lag = classifyLag(frame);
    std::vector<std::pair<double, uint32_t>> bySpeed;
    for (const auto& [id, figures] : lag) bySpeed.emplace_back(figures.relativeSpeed, id);
    std::sort(bySpeed.begin(), bySpeed.end());
    std::vector<uint32_t> out;
    for (size_t i = 0; i < std::min(k, bySpeed.size()); ++i) out.push_back(bySpeed[i].second);
    return out;
}

QVector<QPointF> meanOverWorkers(const TelemetryFrame& frame, QVector<QPointF> WorkerSeries::*series) {
    std::map<double, std::pair<double, int>> byTime;
    for (const auto& [id, w] : frame.workers)
        for (const QPointF& p : w.*series)
            if (std::isfinite(p.y())) {
                auto& sum = byTime[p.x()];
                sum.first += p.y();
                ++sum.second;
            }
    QVector<QPointF> out;
    out.reserve(qsizetype(byTime.size()));
    for (const auto& [time, sum] : byTime) out.append({time, sum.first / sum.second});
    return out;
}

TelemetryFrame linesFrame(const TelemetryFrame& frame, uint32_t chosen) {
    if (frame.workers.size() <= kLinesUpToWorkers) return frame;
    TelemetryFrame out = frame;
    out.workers.clear();
    for (uint32_t id : slowestWorkers(frame, kSlowestShown)) out.workers[id] = frame.workers.at(id);
    if (auto it = frame.workers.find(chosen); it != frame.workers.end()) out.workers[chosen] = it->second;
    return out;
}

}  // namespace syncscope::ui
