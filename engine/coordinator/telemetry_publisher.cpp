// TelemetryPublisher (see telemetry_publisher.h).
#include "engine/coordinator/telemetry_publisher.h"

#include <algorithm>
#include <chrono>

#include "engine/net/protocol.h"

namespace syncscope::engine {
namespace {

double smooth(double old, double sample) { return old == 0.0 ? sample : 0.7 * old + 0.3 * sample; }

uint64_t unixMillis() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

Clock::duration TelemetryPublisher::untilDue() const {
    const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / m_state.options.plan.tick_hz()));
    return m_lastTick + period - Clock::now();
}

bool TelemetryPublisher::due() const { return untilDue() <= Clock::duration::zero(); }

void TelemetryPublisher::fillWorker(WorkerRecord& w, double dt, wire::WorkerStats* s) {
    w.samplesPerSecond = smooth(w.samplesPerSecond, w.samplesSinceTick / dt);
    w.iterationsPerSecond = smooth(w.iterationsPerSecond, w.iterationsSinceTick / dt);
    w.samplesSinceTick = w.iterationsSinceTick = 0;
    s->set_worker_id(w.id);
    s->set_state(w.state);
    s->set_batch_size(w.batchSize);
    s->set_group(w.group);
    s->set_compute_speed(w.computeSpeed);
    s->set_samples_per_s(w.active() ? w.samplesPerSecond : 0.0);
    s->set_iterations_per_s(w.active() ? w.iterationsPerSecond : 0.0);
    s->set_compute_ms(w.computeMs);
    s->set_comm_ms(w.commMs);
    s->set_cpu_limit(w.cpuLimit);
    s->set_wait_ms(w.waitMs);
    s->set_pushed(w.pushed);
    s->set_applied(w.applied);
    s->set_dropped(w.dropped);
    s->set_staleness_mean(w.applied ? w.stalenessSum / static_cast<double>(w.applied) : 0.0);
    for (uint64_t n : w.stalenessHistogram) s->add_staleness_histogram(n);
    *s->mutable_slowdown() = w.slowdown;
    s->set_clock(w.clock);
}

wire::Tick TelemetryPublisher::build() {
    const auto now = Clock::now();
    const double dt = std::max(1e-3, std::chrono::duration<double>(now - m_lastTick).count());
    m_lastTick = now;
    m_updatesPerSecond = smooth(m_updatesPerSecond, m_updatesSinceTick / dt);
    m_updatesSinceTick = 0;
    const CoordinatorState& s = m_state;
    wire::Tick t;
    t.set_time_s(s.elapsedSeconds());
    t.set_unix_ms(unixMillis());
    t.set_state(s.state);
    t.set_version(s.store.version());
    *t.mutable_mode() = s.mode;
    t.set_learning_rate(s.scheduledLearningRate());
    t.set_updates_per_s(m_updatesPerSecond);
    t.set_train_loss(s.trainLoss);
    t.set_test_accuracy(s.lastEvaluation ? s.lastEvaluation->accuracy : -1.0);
    t.set_test_version(s.lastEvaluation ? s.lastEvaluation->version : 0);
    t.set_samples_total(s.totals.samples);
    t.set_applied_samples(s.totals.appliedSamples);
    t.set_pushed(s.totals.pushed);
    t.set_applied(s.totals.applied);
    t.set_dropped(s.totals.dropped);
    t.set_progress(s.progress());
    const auto shownUntilLost = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kLostWorkerShownSeconds));
    for (auto& [id, w] : m_state.workers.all())
        if (w.state != wire::WORKER_LOST || now - w.lastSeen < shownUntilLost) fillWorker(w, dt, t.add_workers());
    for (auto& e : m_events.takePending()) *t.add_events() = std::move(e);
    if (std::optional<wire::WhatIf> w = m_whatIf.onTick(m_state)) *t.mutable_what_if() = std::move(*w);
    return t;
}

void TelemetryPublisher::tick(uint64_t badMessages) {
    wire::Tick t = build();
    t.set_bad_messages(badMessages);
    m_endpoint.publish(kTickTopic, t.SerializeAsString());
    wire::Record record;
    *record.mutable_tick() = t;
    m_recorder.record(record);
    m_recorder.flush();
    keep(std::move(t));
}

std::vector<wire::Tick> TelemetryPublisher::history() const {
    std::vector<wire::Tick> ticks(m_history.size());
    for (size_t i = 0; i + 1 < m_history.size(); ++i) ticks[i].ParseFromString(m_history[i]);
    if (!ticks.empty()) ticks.back() = m_newest;
    return ticks;
}

void TelemetryPublisher::keep(wire::Tick t) {
    t.clear_events();  // snapshots carry the events once, separately
    m_newest = std::move(t);
    wire::Tick stripped = m_newest;
    for (wire::WorkerStats& w : *stripped.mutable_workers()) w.clear_staleness_histogram();
    m_history.push_back(stripped.SerializeAsString());
    m_historyBytes += m_history.back().size();
    if (m_history.size() < kHistoryCap && m_historyBytes < kHistoryBytes) return;
    // Thin the whole history to every other tick (the first and the newest stay): the run keeps an
    // even resolution from its start. Thinning only the older half would, round after round, leave
    // the start of a long run with almost nothing.
    std::vector<std::string> thinned;
    thinned.reserve(m_history.size() / 2 + 1);
    for (size_t i = 0; i + 1 < m_history.size(); i += 2) thinned.push_back(std::move(m_history[i]));
    thinned.push_back(std::move(m_history.back()));
    m_history = std::move(thinned);
    m_historyBytes = 0;
    for (const std::string& kept : m_history) m_historyBytes += kept.size();
}

}  // namespace syncscope::engine
