// RemoteEvaluator: the evaluator process of a run of an external model (a Register with role
// ROLE_EVALUATOR). The coordinator cannot test a model it does not have, so it sends the evaluator
// the parameters every eval interval; the evaluator's EvaluationReport (test accuracy and loss of
// those parameters) is the run's accuracy, and its report on the final parameters the run's final
// figure. One evaluator at a time: one that registers replaces the last (it crashed, or restarted).
#pragma once

#include <optional>
#include <random>
#include <string>
#include <utility>

#include "engine/net/endpoint.h"
#include "engine/coordinator/background_evaluator.h"
#include "engine/coordinator/coordinator_state.h"
#include "engine/coordinator/event_log.h"

namespace syncscope::engine {

class RemoteEvaluator {
public:
    RemoteEvaluator(CoordinatorState& state, ServerEndpoint& endpoint, EventLog& events)
        : m_state(state), m_endpoint(endpoint), m_events(events) {}

    void handleRegister(const InboundMessage& message);
    /// A result (or a first request) from the evaluator; it waits for the next parameters.
    void handleReport(const InboundMessage& message);
    /// Sends the waiting evaluator these parameters; false when none is waiting.
    bool submit(SharedFloats parameters, uint64_t version);
    /// The newest result, once.
    std::optional<EvaluationResult> takeResult() { return std::exchange(m_result, std::nullopt); }
    /// The run is over: the evaluator gets the final parameters as soon as it asks, then a stop.
    void requestFinal(SharedFloats parameters, uint64_t version);
    /// Its result on the final parameters, once it has come.
    const std::optional<EvaluationResult>& finalResult() const { return m_finalResult; }
    /// Whether an evaluator has registered during this run.
    bool attached() const { return !m_identity.empty(); }

private:
    void send(SharedFloats parameters, uint64_t version);
    void sendStop();

    CoordinatorState& m_state;
    ServerEndpoint& m_endpoint;
    EventLog& m_events;
    std::string m_identity;     ///< the evaluator's routing id (empty: none yet)
    uint64_t m_token = 0;       ///< from its Welcome: a report without it is refused
    bool m_waiting = false;     ///< it asked for parameters and has had none since
    uint64_t m_sentVersion = 0; ///< the version it was last sent
    bool m_sent = false;
    SharedFloats m_final;       ///< the final parameters, until they are sent
    uint64_t m_finalVersion = 0;
    bool m_finalSent = false;
    std::optional<EvaluationResult> m_result, m_finalResult;
    std::mt19937_64 m_tokens{std::random_device{}()};
};

}  // namespace syncscope::engine
