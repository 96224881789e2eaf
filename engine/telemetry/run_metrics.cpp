// Run figures from a recording (see run_metrics.h).
#include "engine/telemetry/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/telemetry/accuracy_timeline.h"
#include "engine/telemetry/event_kind.h"
#include "engine/telemetry/recording_reader.h"

namespace syncscope::engine {

void RunMetricsScan::add(const wire::Record& rec) {
    const auto noteStart = [this](const wire::Event& e) {
        if (!m_startTime && eventKindOf(e) == wire::EVENT_START) m_startTime = e.time_s();
    };
    if (rec.has_event()) noteStart(rec.event());
    if (rec.has_update())
        for (const auto& c : rec.update().contributions()) m_staleness.push_back(c.staleness());
    if (!rec.has_tick()) return;
    const wire::Tick& t = rec.tick();
    for (const auto& e : t.events()) noteStart(e);
    wire::Tick& kept = m_ticks.emplace_back();  // only the figures used: no worker stats, no events
    kept.set_time_s(t.time_s());
    kept.set_state(t.state());
    kept.set_test_accuracy(t.test_accuracy());
    kept.set_test_version(t.test_version());
    kept.set_version(t.version());
    kept.set_samples_total(t.samples_total());
    kept.set_applied(t.applied());
    kept.set_dropped(t.dropped());
}

Result<RunMetrics> RunMetricsScan::finish(const std::string& path, double target, double fixedTime) {
    if (!m_startTime || m_ticks.empty())
        return dataLoss("the recording '" + path + "' has no start of training (did every worker join?); see the run's log");
    const double t0 = *m_startTime;
    RunMetrics m;
    AccuracyTimeline timeline;
    for (const auto& t : m_ticks) timeline.add(t);
    if (auto reached = timeline.timeReached(target, t0)) m.timeToTarget = *reached - t0;
    if (auto accuracy = timeline.accuracyAt(t0 + fixedTime)) m.accuracyAtFixedTime = *accuracy;
    const wire::Tick* lastRunning = nullptr;
    for (const auto& t : m_ticks)
        if (t.time_s() >= t0 && t.state() == wire::RUN_RUNNING) lastRunning = &t;
    const wire::Tick& last = m_ticks.back();
    m.finalAccuracy = last.test_accuracy();
    m.applied = last.applied();
    m.dropped = last.dropped();
    if (lastRunning) {
        m.trainingSeconds = lastRunning->time_s() - t0;
        if (m.trainingSeconds > 0) m.samplesPerSecond = double(lastRunning->samples_total()) / m.trainingSeconds;
    }
    if (m.trainingSeconds < fixedTime) m.accuracyAtFixedTime = m.finalAccuracy;
    if (!m_staleness.empty()) {
        double sum = 0;
        for (uint32_t s : m_staleness) sum += s;
        m.stalenessMean = sum / double(m_staleness.size());
        const size_t rank = static_cast<size_t>(std::ceil(0.99 * double(m_staleness.size())));
        std::nth_element(m_staleness.begin(), m_staleness.begin() + (rank - 1), m_staleness.end());
        m.stalenessP99 = m_staleness[rank - 1];
    }
    return m;
}

Result<RunMetrics> measureRun(const std::string& path, double target, double fixedTime) {
    RunMetricsScan scan;
    auto read = forEachRecord(path, [&](wire::Record&& rec) { scan.add(rec); });
    if (!read) return read.status();
    return scan.finish(path, target, fixedTime);
}

}  // namespace syncscope::engine
