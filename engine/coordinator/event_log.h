// EventLog: the run's events (control changes, decisions, workers joining and leaving, errors).
// Each is stamped with the time, the model version and the gradient totals, printed to the log,
// recorded, kept for snapshots, and queued for the next telemetry tick.
#pragma once

#include <string>
#include <vector>

#include "engine/coordinator/coordinator_state.h"
#include "engine/coordinator/run_recorder.h"

namespace syncscope::engine {

class EventLog {
public:
    EventLog(CoordinatorState& state, RunRecorder& recorder) : m_state(state), m_recorder(recorder) {}

    const wire::Event& raise(wire::EventKind kind, const std::string& detail, uint32_t worker = 0,
                            const wire::AutoDecision* decision = nullptr, const wire::WorkerProcess* process = nullptr);
    /// Every event of the run, oldest first.
    const std::vector<wire::Event>& all() const { return m_events; }
    /// The events since the last call (for a tick).
    std::vector<wire::Event> takePending();
    /// A resumed run's events so far, read back from its recording (not recorded again).
    void restore(std::vector<wire::Event> events) { m_events = std::move(events); }

private:
    CoordinatorState& m_state;
    RunRecorder& m_recorder;
    std::vector<wire::Event> m_events, m_pending;
};

}  // namespace syncscope::engine
