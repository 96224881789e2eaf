// AccuracyTimeline (see accuracy_timeline.h).
#include "engine/telemetry/accuracy_timeline.h"

#include <algorithm>
#include <limits>

namespace syncscope::engine {

void AccuracyTimeline::add(const wire::Tick& tick) {
    const uint64_t version = tick.version();
    // A run resumed from a checkpoint goes on in the same recording from the checkpoint's version and
    // clock: what came after the checkpoint was lost, its versions are trained again.
    if (!m_versions.empty() && (version < m_versions.back().first || tick.time_s() < m_versions.back().second)) {
        while (!m_versions.empty() && (m_versions.back().first >= version || m_versions.back().second > tick.time_s()))
            m_versions.pop_back();
        while (!m_evaluations.empty() && m_evaluations.back().modelTime > tick.time_s()) m_evaluations.pop_back();
    }
    if (m_versions.empty() || version > m_versions.back().first) m_versions.emplace_back(version, tick.time_s());
    if (!(tick.test_accuracy() >= 0)) return;  // no evaluation yet
    // Every tick repeats the newest evaluation: a new one has another version or another figure.
    if (m_any && tick.test_version() == m_lastVersion && tick.test_accuracy() == m_lastAccuracy) return;
    m_any = true;
    m_lastVersion = tick.test_version();
    m_lastAccuracy = tick.test_accuracy();
    Evaluation e;
    e.accuracy = tick.test_accuracy();
    e.knownTime = tick.time_s();
    e.modelTime = std::min(timeOfVersion(tick.test_version()), e.knownTime);
    m_evaluations.push_back(e);
}

double AccuracyTimeline::timeOfVersion(uint64_t version) const {
    const auto after = std::lower_bound(m_versions.begin(), m_versions.end(), version,
                                        [](const auto& entry, uint64_t v) { return entry.first < v; });
    if (after == m_versions.end()) return m_versions.back().second;
    if (after == m_versions.begin() || after->first == version) return after->second;
    const auto before = after - 1;  // before->first < version < after->first
    const double share = double(version - before->first) / double(after->first - before->first);
    return before->second + share * (after->second - before->second);
}

std::optional<double> AccuracyTimeline::timeReached(double accuracy, double notBefore) const {
    const Evaluation* previous = nullptr;
    for (const Evaluation& e : m_evaluations) {
        if (e.modelTime < notBefore) continue;
        if (e.accuracy >= accuracy) {
            if (!previous || !(e.accuracy > previous->accuracy)) return e.modelTime;
            const double share = (accuracy - previous->accuracy) / (e.accuracy - previous->accuracy);
            return previous->modelTime + share * (e.modelTime - previous->modelTime);
        }
        previous = &e;
    }
    return std::nullopt;
}

std::optional<double> AccuracyTimeline::accuracyAt(double time) const {
    std::optional<double> newest;
    double newestModel = -std::numeric_limits<double>::infinity();
    for (const Evaluation& e : m_evaluations)  // model times rise with the versions tested, but not strictly
        if (e.modelTime <= time && e.modelTime >= newestModel) newest = e.accuracy, newestModel = e.modelTime;
    return newest;
}

}  // namespace syncscope::engine
