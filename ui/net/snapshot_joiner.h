// SnapshotJoiner: joins a snapshot (control socket) and the live ticks (telemetry socket) that race
// it, so the sink sees every tick and every event exactly once and always in time order.
#pragma once

#include <deque>

#include "ui/model/telemetry_sink.h"

namespace syncscope::ui {

class SnapshotJoiner {
public:
    explicit SnapshotJoiner(TelemetrySink& sink) : m_sink(sink) {}

    /// From now on ticks are held back until addSnapshot() (attach, or a resync).
    void waitForSnapshot();
    /// Delivers the snapshot, then the held ticks that are newer than its last tick.
    void addSnapshot(const wire::Snapshot& snapshot);
    /// Delivers, holds or drops (already in the snapshot) one tick. Returns true when the tick's
    /// time went back by more than a moment: a new run (coordinator restarted on the same ports);
    /// the joiner then holds ticks again and the caller must request a fresh snapshot.
    [[nodiscard]] bool addTick(wire::Tick tick);

private:
    void hold(wire::Tick tick);
    void deliver(wire::Tick tick);

    TelemetrySink& m_sink;
    bool m_waiting = true;
    std::deque<wire::Tick> m_held;
    double m_lastTickTime = -1.0;   // run seconds of the newest tick the sink has
    double m_lastEventTime = -1.0;  // and of its newest event
};

}  // namespace syncscope::ui
