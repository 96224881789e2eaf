// Coordinator, telemetry: events, the 10 Hz tick (published, recorded, kept for snapshots),
// periodic evaluation and the stop conditions that depend on them.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "engine/net/protocol.h"
#include "engine/telemetry/event_kind.h"
#include "engine/ps/coordinator.h"

namespace syncscope::engine {
namespace {

constexpr size_t kHistoryCap = 4096;  // ticks kept for snapshots; past it they are thinned, never cut

uint64_t unixMillis() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

void Coordinator::announce(wire::EventKind kind, const std::string& detail, const wire::AutoDecision* decision) {
    emitEvent(kind, detail, 0, decision);
}

wire::Event& Coordinator::emitEvent(wire::EventKind kind, const std::string& detail, uint32_t worker,
                                    const wire::AutoDecision* decision) {
    wire::Event event;
    event.set_time_s(elapsedSeconds());
    event.set_unix_ms(unixMillis());
    event.set_version(m_store.version());
    event.set_kind(kind);
    if (decision) *event.mutable_decision() = *decision;
    event.set_detail(detail);
    event.set_worker_id(worker);
    event.set_pushed(m_pushed);
    event.set_applied(m_applied);
    event.set_dropped(m_dropped);
    event.set_pending(m_policy ? m_policy->pending() : 0);
    std::fprintf(stderr, "[%7.2fs] %s: %s\n", event.time_s(), eventKindName(kind).c_str(), detail.c_str());
    wire::Record rec;
    *rec.mutable_event() = event;
    record(rec);
    m_pendingEvents.push_back(event);
    m_events.push_back(std::move(event));
    return m_events.back();
}

void Coordinator::record(const wire::Record& rec) {
    if (!m_recorder) return;
    if (Status s = m_recorder->append(rec); !s) {
        m_recorder.reset();  // what is on disk stays readable; training goes on unrecorded
        emitEvent(wire::EVENT_ERROR, "recording stopped: " + s.message());
    }
}

wire::Tick Coordinator::buildTick() {
    const auto now = Clock::now();
    const double dt = std::max(1e-3, std::chrono::duration<double>(now - m_lastTick).count());
    m_lastTick = now;
    auto smooth = [](double old, double sample) { return old == 0.0 ? sample : 0.7 * old + 0.3 * sample; };
    m_updatesPerSecond = smooth(m_updatesPerSecond, m_updatesSinceTick / dt);
    m_updatesSinceTick = 0;

    wire::Tick t;
    t.set_time_s(elapsedSeconds());
    t.set_unix_ms(unixMillis());
    t.set_state(m_state);
    t.set_version(m_store.version());
    *t.mutable_mode() = m_mode;
    t.set_learning_rate(scheduledLearningRate());
    t.set_updates_per_s(m_updatesPerSecond);
    t.set_train_loss(m_trainLoss);
    t.set_test_accuracy(m_lastEvaluation ? m_lastEvaluation->accuracy : -1.0);
    t.set_test_version(m_lastEvaluation ? m_lastEvaluation->version : 0);
    t.set_samples_total(m_samplesTotal);
    t.set_pushed(m_pushed);
    t.set_applied(m_applied);
    t.set_dropped(m_dropped);
    t.set_bad_messages(m_badMessages);
    t.set_progress(progress());
    for (auto& [id, w] : m_workers.all()) {
        w.samplesPerSecond = smooth(w.samplesPerSecond, w.samplesSinceTick / dt);
        w.iterationsPerSecond = smooth(w.iterationsPerSecond, w.iterationsSinceTick / dt);
        w.samplesSinceTick = w.iterationsSinceTick = 0;
        wire::WorkerStats* s = t.add_workers();
        s->set_worker_id(id);
        s->set_state(w.state);
        s->set_batch_size(w.batchSize);
        s->set_group(w.group);
        s->set_compute_speed(w.computeSpeed);
        s->set_samples_per_s(w.active() ? w.samplesPerSecond : 0.0);
        s->set_iterations_per_s(w.active() ? w.iterationsPerSecond : 0.0);
        s->set_compute_ms(w.computeMs);
        s->set_comm_ms(w.commMs);
        s->set_wait_ms(w.waitMs);
        s->set_pushed(w.pushed);
        s->set_applied(w.applied);
        s->set_dropped(w.dropped);
        s->set_staleness_mean(w.applied ? w.stalenessSum / static_cast<double>(w.applied) : 0.0);
        for (uint64_t n : w.stalenessHistogram) s->add_staleness_histogram(n);
        *s->mutable_slowdown() = w.slowdown;
        s->set_clock(w.clock);
    }
    for (auto& e : m_pendingEvents) *t.add_events() = std::move(e);
    m_pendingEvents.clear();
    return t;
}

void Coordinator::tick() {
    const wire::Tick t = buildTick();
    const std::string bytes = t.SerializeAsString();
    // Never blocks: past the high-water mark a slow subscriber's ticks are dropped by ZeroMQ.
    (void)m_telemetry.send(zmq::buffer(std::string(kTickTopic)), zmq::send_flags::sndmore | zmq::send_flags::dontwait);
    (void)m_telemetry.send(zmq::buffer(bytes), zmq::send_flags::dontwait);
    wire::Record rec;
    *rec.mutable_tick() = t;
    record(rec);
    if (m_recorder)
        if (Status s = m_recorder->flush(); !s) {
            m_recorder.reset();
            emitEvent(wire::EVENT_ERROR, "recording stopped: " + s.message());
        }
    keepHistory(t);
}

void Coordinator::keepHistory(const wire::Tick& t) {
    m_history.push_back(t);
    m_history.back().clear_events();  // snapshots carry the events once, separately
    if (m_history.size() < kHistoryCap) return;
    // Thin the whole history to every other tick (the first and the newest stay): the run keeps an
    // even resolution from its start. Thinning only the older half would, round after round, leave
    // the start of a long run with almost nothing.
    std::vector<wire::Tick> thinned;
    thinned.reserve(kHistoryCap / 2 + 1);
    for (size_t i = 0; i + 1 < m_history.size(); i += 2) thinned.push_back(std::move(m_history[i]));
    thinned.push_back(std::move(m_history.back()));
    m_history = std::move(thinned);
}

wire::RecordingHeader Coordinator::header() const {
    wire::RecordingHeader h;
    h.set_protocol_major(kProtocolMajor);
    h.set_protocol_minor(kProtocolMinor);
    *h.mutable_spec() = m_options.spec;
    *h.mutable_mode() = m_mode;
    h.set_start_unix_ms(m_startUnixMs);
    h.set_run_id(m_runId);
    h.set_expected_workers(m_options.expectedWorkers);
    return h;
}

void Coordinator::collectEvaluation() {
    if (auto result = m_evaluator.takeResult()) m_lastEvaluation = result;
    const auto interval = std::chrono::duration<double>(m_options.evalIntervalSeconds);
    if (m_state == wire::RUN_RUNNING && Clock::now() - m_lastEvalSubmit >= interval &&
        m_evaluator.submit(m_store.snapshot(), m_store.version()))
        m_lastEvalSubmit = Clock::now();
}

double Coordinator::progress() const {
    double p = 0.0;
    if (m_options.maxSeconds > 0 && m_started)
        p = std::max(p, std::chrono::duration<double>(Clock::now() - m_trainingStart).count() / m_options.maxSeconds);
    if (m_options.maxEpochs > 0) p = std::max(p, m_samplesTotal / (m_options.maxEpochs * m_trainCount));
    if (m_options.targetAccuracy > 0 && m_lastEvaluation) p = std::max(p, m_lastEvaluation->accuracy / m_options.targetAccuracy);
    return m_state == wire::RUN_STOPPED ? 1.0 : std::min(1.0, p);
}

void Coordinator::checkStopConditions() {
    if (m_state == wire::RUN_STOPPED || !m_started) return;
    char reason[160] = "";
    const double trainingSeconds = std::chrono::duration<double>(Clock::now() - m_trainingStart).count();
    if (m_options.maxSeconds > 0 && trainingSeconds >= m_options.maxSeconds)
        std::snprintf(reason, sizeof reason, "time limit of %.0f s reached", m_options.maxSeconds);
    else if (m_options.maxEpochs > 0 && m_samplesTotal >= m_options.maxEpochs * m_trainCount)
        std::snprintf(reason, sizeof reason, "%.2f epochs done", m_options.maxEpochs);
    else if (m_options.targetAccuracy > 0 && m_lastEvaluation && m_lastEvaluation->accuracy >= m_options.targetAccuracy)
        std::snprintf(reason, sizeof reason, "test accuracy %.2f%% reached the target %.2f%%",
                      100 * m_lastEvaluation->accuracy, 100 * m_options.targetAccuracy);
    if (reason[0]) beginStop(reason);
}

}  // namespace syncscope::engine
