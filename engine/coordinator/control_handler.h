// ControlHandler: the coordinator's side of the consoles' protocol on the control endpoint: start,
// pause, resume, stop, mode and groups, slowdown, learning rate, advice, and the snapshot a late
// console catches up from. Each change becomes an event and is answered with it.
#pragma once

#include <map>
#include <string>

#include "engine/net/endpoint.h"
#include "engine/coordinator/checkpointing.h"
#include "engine/coordinator/coordinator_state.h"
#include "engine/coordinator/data_plane.h"
#include "engine/coordinator/event_log.h"
#include "engine/coordinator/telemetry_publisher.h"

namespace syncscope::engine {

class ControlHandler {
public:
    ControlHandler(CoordinatorState& state, ServerEndpoint& endpoint, EventLog& events, DataPlane& dataPlane,
                   const TelemetryPublisher& telemetry, Checkpointing& checkpoints, PolicyContext& policyContext)
        : m_state(state), m_endpoint(endpoint), m_events(events), m_dataPlane(dataPlane), m_telemetry(telemetry),
          m_checkpoints(checkpoints), m_policyContext(policyContext) {}

    /// Minimum time between two snapshots for one console: a snapshot copies the whole history.
    static constexpr double kSnapshotIntervalSeconds = 0.5;

    /// Answers the requests waiting (a bounded number per call).
    void poll();
    /// Carries out a request from a console holding `role` ("steer", "view"; empty without authentication).
    wire::ControlReply execute(const wire::ControlRequest& request, const std::string& role = "steer",
                               const std::string& client = {});

    void startTraining();
    /// Stops the run: partial aggregates are dropped, waiting workers told to stop.
    void beginStop(const std::string& reason);
    /// When the stop began (the loop gives workers a few seconds to leave).
    Clock::time_point stopDeadline() const { return m_stopDeadline; }
    /// Frames refused on the control endpoint so far.
    uint64_t refused() const { return m_endpoint.refused(); }

private:
    Status executeCommand(const wire::ControlRequest& request);
    Status setMode(const wire::ModeSettings& settings, wire::EventKind kind = wire::EVENT_MODE);
    Status setGroups(const wire::SetGroups& request);
    Status setSlowdown(const wire::SetSlowdown& request);
    Status setLearningRate(float learningRate);
    wire::Snapshot snapshot(const std::string& role) const;
    /// Whether `client` may have another snapshot now (and notes that it has one).
    bool snapshotAllowed(const std::string& client);

    CoordinatorState& m_state;
    ServerEndpoint& m_endpoint;
    EventLog& m_events;
    DataPlane& m_dataPlane;
    const TelemetryPublisher& m_telemetry;
    Checkpointing& m_checkpoints;
    PolicyContext& m_policyContext;
    Clock::time_point m_stopDeadline;
    std::map<std::string, Clock::time_point> m_lastSnapshot;  ///< by console identity
};

}  // namespace syncscope::engine
