// ComputeTimeModel (see compute_time_model.h).
#include "engine/policy/compute_time_model.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "engine/core/median.h"

namespace syncscope::engine {

void ComputeTimeModel::record(uint32_t batch, double ms) {
    if (batch == 0 || !(ms > 0) || !std::isfinite(ms)) return;
    if (m_ring.size() < kWindow)
        m_ring.push_back({batch, ms});
    else
        m_ring[m_next] = {batch, ms};
    m_next = (m_next + 1) % kWindow;
    if (m_sizesKept > 1) {
        SizeTimes& size = m_sizes[batch];
        if (size.ms.size() < kWindow)
            size.ms.push_back(ms);
        else
            size.ms[size.next] = ms;
        size.next = (size.next + 1) % kWindow;
        size.lastSeen = ++m_pushes;
        if (m_sizes.size() > m_sizesKept)  // forget the size seen longest ago
            m_sizes.erase(std::min_element(m_sizes.begin(), m_sizes.end(), [](const auto& a, const auto& b) {
                              return a.second.lastSeen < b.second.lastSeen;
                          }));
    }
    m_speedKnown = false;
    m_fitted = false;
}

double ComputeTimeModel::samplesPerSecond() const {
    if (m_speedKnown) return m_speed;
    std::vector<double> speeds;
    for (const Push& p : m_ring) speeds.push_back(p.batch / p.ms * 1000.0);
    m_speed = median(std::move(speeds));
    m_speedKnown = true;
    return m_speed;
}

std::vector<ComputeTimeModel::Push> ComputeTimeModel::recent() const {
    if (m_ring.size() < kWindow) return m_ring;
    std::vector<Push> out(m_ring.begin() + static_cast<std::ptrdiff_t>(m_next), m_ring.end());
    out.insert(out.end(), m_ring.begin(), m_ring.begin() + static_cast<std::ptrdiff_t>(m_next));
    return out;
}

const ComputeTimeModel::Line& ComputeTimeModel::line() const {
    if (m_fitted) return m_line;
    m_fitted = true;
    if (m_ring.empty()) return m_line = {};
    // Medians, not means: a push preempted by another process on a shared core is an outlier.
    std::vector<double> msPerSample;
    std::map<uint32_t, std::vector<double>> byBatch;
    for (const Push& p : m_ring) msPerSample.push_back(p.ms / p.batch);
    if (m_sizesKept > 1)
        for (const auto& [batch, size] : m_sizes) byBatch[batch] = size.ms;
    else
        for (const Push& p : m_ring) byBatch[p.batch].push_back(p.ms);
    m_line = {0.0, median(msPerSample)};  // the proportional model (of the window), the fallback
    const double smallest = byBatch.begin()->first, largest = byBatch.rbegin()->first;
    if (largest < kSpreadToFit * smallest) return m_line;
    // Least squares over each batch size's median time, weighted by its pushes.
    double w = 0, sb = 0, st = 0, sbb = 0, sbt = 0;
    for (const auto& [batch, times] : byBatch) {
        const double n = static_cast<double>(times.size()), b = batch, t = median(times);
        w += n;
        sb += n * b;
        st += n * t;
        sbb += n * b * b;
        sbt += n * b * t;
    }
    const double spread = w * sbb - sb * sb;
    if (!(spread > 0)) return m_line;
    const double slope = (w * sbt - sb * st) / spread, intercept = (st - slope * sb) / w;
    // A line that falls with the batch or crosses below zero is noise, not a fixed cost.
    if (slope > 0 && intercept >= 0) m_line = {intercept, slope};
    return m_line;
}

}  // namespace syncscope::engine
