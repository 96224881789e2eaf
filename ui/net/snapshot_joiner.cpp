// SnapshotJoiner (see snapshot_joiner.h). Tick and event times are seconds since the coordinator
// started, so they order everything one coordinator sends; the snapshot carries no tick newer than
// the reply itself, but ticks it already holds may still be on their way over the telemetry socket.
#include "ui/net/snapshot_joiner.h"

#include <algorithm>

namespace syncscope::ui {
namespace {

constexpr size_t kMaxHeldTicks = 600;      // 60 s at 10 Hz; older held ticks are in the snapshot anyway
constexpr double kNewRunJumpSeconds = 1.0;  // ticks racing a snapshot lag by milliseconds, never this

}  // namespace

void SnapshotJoiner::waitForSnapshot() {
    m_waiting = true;
    m_held.clear();
}

void SnapshotJoiner::addSnapshot(const wire::Snapshot& snapshot) {
    m_sink.ingestSnapshot(snapshot);
    m_lastTickTime = snapshot.ticks().empty() ? -1.0 : snapshot.ticks(snapshot.ticks_size() - 1).time_s();
    m_lastEventTime = snapshot.events().empty() ? -1.0 : snapshot.events(snapshot.events_size() - 1).time_s();
    m_waiting = false;
    std::deque<wire::Tick> held = std::move(m_held);
    m_held.clear();
    for (wire::Tick& tick : held)
        if (tick.time_s() > m_lastTickTime) deliver(std::move(tick));
}

bool SnapshotJoiner::addTick(wire::Tick tick) {
    if (m_waiting) {
        hold(std::move(tick));
        return false;
    }
    if (tick.time_s() > m_lastTickTime) {
        deliver(std::move(tick));
        return false;
    }
    if (tick.time_s() >= m_lastTickTime - kNewRunJumpSeconds) return false;  // already in the snapshot
    waitForSnapshot();
    hold(std::move(tick));
    return true;
}

void SnapshotJoiner::hold(wire::Tick tick) {
    if (m_held.size() == kMaxHeldTicks) m_held.pop_front();
    m_held.push_back(std::move(tick));
}

void SnapshotJoiner::deliver(wire::Tick tick) {
    // An event raised between the last snapshot tick and the reply is in the snapshot's event list
    // and again in the next tick; the sink must see it once.
    auto* events = tick.mutable_events();
    const double seen = m_lastEventTime;
    events->erase(std::remove_if(events->begin(), events->end(), [seen](const wire::Event& e) { return e.time_s() <= seen; }),
                  events->end());
    for (const wire::Event& e : *events) m_lastEventTime = std::max(m_lastEventTime, e.time_s());
    m_lastTickTime = tick.time_s();
    m_sink.ingestTick(tick);
}

}  // namespace syncscope::ui
