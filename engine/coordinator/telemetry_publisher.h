// TelemetryPublisher: the run's 10 Hz tick. It measures rates since the last tick, builds the Tick
// (run state, totals, every worker's figures, the events since and, once a second, what each mode
// would do), publishes it on the telemetry endpoint, records it, and keeps a history for the
// snapshots late consoles ask for.
#pragma once

#include <vector>

#include "engine/net/endpoint.h"
#include "engine/coordinator/coordinator_state.h"
#include "engine/coordinator/event_log.h"
#include "engine/coordinator/run_recorder.h"
#include "engine/coordinator/what_if_tracker.h"

namespace syncscope::engine {

class TelemetryPublisher {
public:
    /// Ticks kept for snapshots; past either bound the history is thinned evenly, never cut. They
    /// are kept serialized (a parsed tick takes about five times the memory), so the byte bound is
    /// what the history costs: it holds memory flat when ticks grow (many workers, long churn).
    static constexpr size_t kHistoryCap = 4096;
    static constexpr size_t kHistoryBytes = size_t{16} << 20;
    /// A lost worker stays in the ticks this long after its last message, then is left out until
    /// it registers again (consoles keep its last figures): a run with churn does not carry every
    /// worker it ever had in every tick.
    static constexpr double kLostWorkerShownSeconds = 60.0;

    TelemetryPublisher(CoordinatorState& state, PublisherEndpoint& endpoint, EventLog& events, RunRecorder& recorder)
        : m_state(state), m_endpoint(endpoint), m_events(events), m_recorder(recorder), m_lastTick(Clock::now()) {}

    /// An update was applied (for updates/s).
    void noteUpdate() { ++m_updatesSinceTick; }
    /// Builds, publishes, records and keeps one tick; `badMessages`: frames refused so far.
    void tick(uint64_t badMessages);
    /// Whether a tick is due at the configured rate, and how long until it is.
    bool due() const;
    Clock::duration untilDue() const;
    /// The ticks so far (thinned), without their events (snapshots carry those once) and with the
    /// staleness histograms on the newest only (they are cumulative).
    std::vector<wire::Tick> history() const;
    size_t historyBytes() const { return m_historyBytes; }
    /// A resumed run's tick read back from its recording, oldest first: kept (and thinned) as a live
    /// one, so reading back a long recording takes no more memory than the history's bounds.
    void restoreTick(wire::Tick tick) { keep(std::move(tick)); }

private:
    wire::Tick build();
    void fillWorker(WorkerRecord& worker, double dt, wire::WorkerStats* stats);
    void keep(wire::Tick tick);

    CoordinatorState& m_state;
    PublisherEndpoint& m_endpoint;
    EventLog& m_events;
    RunRecorder& m_recorder;
    Clock::time_point m_lastTick;
    uint64_t m_updatesSinceTick = 0;
    double m_updatesPerSecond = 0.0;
    std::vector<std::string> m_history;  ///< serialized, without events or histograms
    size_t m_historyBytes = 0;
    wire::Tick m_newest;  ///< the newest tick whole (but for its events)
    WhatIfTracker m_whatIf;
};

}  // namespace syncscope::engine
