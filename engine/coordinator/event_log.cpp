// EventLog (see event_log.h).
#include "engine/coordinator/event_log.h"

#include <chrono>
#include <cstdio>

#include "engine/telemetry/event_kind.h"

namespace syncscope::engine {

const wire::Event& EventLog::raise(wire::EventKind kind, const std::string& detail, uint32_t worker,
                                  const wire::AutoDecision* decision, const wire::WorkerProcess* process) {
    using namespace std::chrono;
    wire::Event event;
    event.set_time_s(m_state.elapsedSeconds());
    event.set_unix_ms(duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count());
    event.set_version(m_state.store.version());
    event.set_kind(kind);
    event.set_detail(detail);
    event.set_worker_id(worker);
    event.set_change_id(m_state.currentChange);
    if (decision) *event.mutable_decision() = *decision;
    if (process) *event.mutable_process() = *process;
    event.set_pushed(m_state.totals.pushed);
    event.set_applied(m_state.totals.applied);
    event.set_dropped(m_state.totals.dropped);
    event.set_pending(m_state.policy ? m_state.policy->pending() : 0);
    std::fprintf(stderr, "[%7.2fs] %s: %s\n", event.time_s(), eventKindName(kind).c_str(), detail.c_str());
    wire::Record record;
    *record.mutable_event() = event;
    m_recorder.record(record);
    m_pending.push_back(event);
    m_events.push_back(std::move(event));
    return m_events.back();
}

std::vector<wire::Event> EventLog::takePending() { return std::exchange(m_pending, {}); }

}  // namespace syncscope::engine
