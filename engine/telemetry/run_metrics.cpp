// Run figures from a recording (see run_metrics.h).
#include "engine/telemetry/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/telemetry/event_kind.h"
#include "engine/telemetry/recording_reader.h"

namespace syncscope::engine {
namespace {

// What the scan keeps: the ticks' figures we need, and every applied gradient's staleness.
struct Scan {
    std::optional<double> startTime;
    std::vector<wire::Tick> ticks;  // without their worker stats and events, to keep memory small
    std::vector<uint32_t> staleness;
};

void keep(Scan& scan, wire::Record&& rec) {
    if (rec.has_event() && eventKindOf(rec.event()) == wire::EVENT_START && !scan.startTime) scan.startTime = rec.event().time_s();
    if (rec.has_update())
        for (const auto& c : rec.update().contributions()) scan.staleness.push_back(c.staleness());
    if (rec.has_tick()) {
        wire::Tick& t = *rec.mutable_tick();
        for (const auto& e : t.events())
            if (eventKindOf(e) == wire::EVENT_START && !scan.startTime) scan.startTime = e.time_s();
        t.clear_workers();
        t.clear_events();
        scan.ticks.push_back(std::move(t));
    }
}

}  // namespace

Result<RunMetrics> measureRun(const std::string& path, double target, double fixedTime) {
    Scan scan;
    auto read = forEachRecord(path, [&](wire::Record&& rec) { keep(scan, std::move(rec)); });
    if (!read) return read.status();
    if (!scan.startTime || scan.ticks.empty())
        return dataLoss("the recording '" + path + "' has no start of training (did every worker join?); see the run's log");
    const double t0 = *scan.startTime;
    RunMetrics m;
    const wire::Tick* lastRunning = nullptr;
    for (const auto& t : scan.ticks) {
        const double at = t.time_s() - t0;
        if (at < 0) continue;
        if (!m.timeToTarget && t.test_accuracy() >= target) m.timeToTarget = at;
        if (at <= fixedTime) m.accuracyAtFixedTime = t.test_accuracy();
        if (t.state() == wire::RUN_RUNNING) lastRunning = &t;
    }
    const wire::Tick& last = scan.ticks.back();
    m.finalAccuracy = last.test_accuracy();
    m.applied = last.applied();
    m.dropped = last.dropped();
    if (lastRunning) {
        m.trainingSeconds = lastRunning->time_s() - t0;
        if (m.trainingSeconds > 0) m.samplesPerSecond = double(lastRunning->samples_total()) / m.trainingSeconds;
    }
    if (m.trainingSeconds < fixedTime) m.accuracyAtFixedTime = m.finalAccuracy;
    if (!scan.staleness.empty()) {
        double sum = 0;
        for (uint32_t s : scan.staleness) sum += s;
        m.stalenessMean = sum / double(scan.staleness.size());
        const size_t rank = static_cast<size_t>(std::ceil(0.99 * double(scan.staleness.size())));
        std::nth_element(scan.staleness.begin(), scan.staleness.begin() + (rank - 1), scan.staleness.end());
        m.stalenessP99 = scan.staleness[rank - 1];
    }
    return m;
}

}  // namespace syncscope::engine
