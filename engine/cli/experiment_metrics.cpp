// Run figures from a recording (ticks, events, updates) and medians over seeds.
#include "engine/cli/experiment_metrics.h"

#include "engine/telemetry/event_kind.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    if (n == 0) return std::numeric_limits<double>::quiet_NaN();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

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
