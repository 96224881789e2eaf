// RemoteEvaluator (see remote_evaluator.h).
#include "engine/coordinator/remote_evaluator.h"

#include <fmt/format.h>

#include <cmath>

#include "engine/core/printable.h"
#include "engine/model/model_zoo.h"
#include "engine/net/protocol.h"

namespace syncscope::engine {

void RemoteEvaluator::handleRegister(const InboundMessage& message) {
    const wire::Register& reg = message.envelope.register_();
    if (!m_state.external())
        return m_endpoint.refuse(message.identity, 0,
                                 fmt::format("this run trains the engine's {} model, which its coordinator evaluates "
                                             "itself; an evaluator joins runs of --model {}",
                                             m_state.options.plan.spec().model(), kExternalModel));
    if (reg.parameter_count() != m_state.store.size())
        return m_endpoint.refuse(message.identity, 0,
                                 fmt::format("an evaluator of a model with {} parameters, but this run's has {}",
                                             reg.parameter_count(), m_state.store.size()));
    if (reg.buffer_count() != m_state.options.plan.spec().buffer_count())
        return m_endpoint.refuse(message.identity, 0,
                                 fmt::format("an evaluator of a model with {} buffers, but this run's has {} (serve --buffers)",
                                             reg.buffer_count(), m_state.options.plan.spec().buffer_count()));
    const bool replacing = attached() && m_identity != message.identity;
    m_identity = message.identity;
    m_token = m_tokens() | 1;  // never 0: 0 means none
    m_waiting = false;
    m_sent = false;
    m_finalSent = false;  // a replacement is sent the final parameters again
    wire::Envelope welcome;
    welcome.mutable_welcome()->set_worker_id(0);
    *welcome.mutable_welcome()->mutable_spec() = m_state.options.plan.spec();
    welcome.mutable_welcome()->set_session_token(m_token);
    m_endpoint.send(message.identity, welcome);
    m_events.raise(wire::EVENT_EVALUATION,
                   fmt::format("evaluator joined (pid {}@{}){}", reg.pid(),
                               printable(reg.hostname(), kMaxHostnameBytes),
                               replacing ? ", replacing the last one" : ""));
}

void RemoteEvaluator::handleReport(const InboundMessage& message) {
    const wire::EvaluationReport& report = message.envelope.evaluation();
    if (!attached() || message.identity != m_identity || report.session_token() != m_token)
        return m_endpoint.refuse(message.identity, message.envelope.correlation_id(),
                                 "unknown evaluator; an evaluator must register (role evaluator) before it reports",
                                 wire::Error::NOT_REGISTERED);
    if (report.has_result()) {
        // A diverged model's loss is NaN or infinite, as the engine's own evaluator reports it: taken as
        // it is (the recording shows the divergence), while a negative loss is refused.
        if (!m_sent || report.version() != m_sentVersion || !std::isfinite(report.accuracy()) ||
            report.accuracy() < 0 || report.accuracy() > 1 || report.loss() < 0)
            return m_endpoint.refuse(message.identity, message.envelope.correlation_id(),
                                     fmt::format("an evaluation of version {} with accuracy {} and loss {}: it must be "
                                                 "of the version last sent ({}), with an accuracy in 0..1 and a "
                                                 "loss that is not negative (NaN where the model diverged)",
                                                 report.version(), report.accuracy(), report.loss(), m_sentVersion));
        const EvaluationResult result{report.version(), report.accuracy(), report.loss(), report.seconds()};
        m_result = result;
        if (m_finalSent && report.version() == m_finalVersion) m_finalResult = result;
    }
    m_waiting = true;
    m_sent = false;
    if (m_finalResult) return sendStop();
    if (m_final && !m_finalSent) {
        m_finalSent = true;
        send(m_final, m_finalVersion);
    }
}

bool RemoteEvaluator::submit(SharedFloats parameters, uint64_t version) {
    if (!m_waiting || m_final) return false;
    send(std::move(parameters), version);
    return true;
}

void RemoteEvaluator::requestFinal(SharedFloats parameters, uint64_t version) {
    m_final = std::move(parameters);
    m_finalVersion = version;
    if (m_waiting) {
        m_finalSent = true;
        send(m_final, m_finalVersion);
    }
}

void RemoteEvaluator::send(SharedFloats parameters, uint64_t version) {
    wire::Envelope envelope;
    envelope.mutable_params()->set_version(version);
    zmq::message_t tensor = sharedFloatsFrame(std::move(parameters));
    m_endpoint.send(m_identity, envelope, &tensor);
    m_waiting = false;
    m_sent = true;
    m_sentVersion = version;
}

void RemoteEvaluator::sendStop() {
    wire::Envelope envelope;
    envelope.mutable_params()->set_stop(true);
    envelope.mutable_params()->set_version(m_finalVersion);
    m_endpoint.send(m_identity, envelope);
    m_waiting = false;
}

}  // namespace syncscope::engine
