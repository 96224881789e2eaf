// ParameterShard (see parameter_shard.h).
#include "engine/relay/parameter_shard.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "engine/net/protocol.h"
#include "engine/net/tensor_frame.h"
#include "engine/relay/relay_process.h"

namespace syncscope::engine {
namespace {

using Clock = std::chrono::steady_clock;
/// How often kept versions and waiting pulls are checked for age.
constexpr auto kExpiryEvery = std::chrono::seconds(1);

// The coordinator's assignment carries a range and its momentum (2 x range floats); the bound is
// the largest model's, until the range is known (the coordinator is authenticated by its key).
constexpr size_t kLargestAssignmentBytes = 2 * kMaxParameters * sizeof(float);

}  // namespace

ParameterShard::ParameterShard(RelayOptions options)
    : m_options(std::move(options)),
      m_zap(m_options.credentials
                ? std::make_unique<ZapAuthenticator>(m_context, *m_options.credentials, m_options.credentialsPath)
                : nullptr),
      m_workers(m_context, {"workers (data)", {kMaxEnvelopeBytes, kMaxParameters * sizeof(float)}, 1000,
                            EndpointSecurity::server(m_options.credentialsOrNull(), kDataDomain, dataPlaneProtection(m_options.plainDataPlane))}),
      m_coordinator(m_context, {"coordinator (data)", {kMaxEnvelopeBytes, kLargestAssignmentBytes}, 1000,
                                EndpointSecurity::client(m_options.credentialsOrNull(), Role::Worker, dataPlaneProtection(m_options.plainDataPlane))}) {}

ParameterShard::~ParameterShard() = default;

Status ParameterShard::start() {
    if (Status s = m_workers.bind(m_options.bindHost, m_options.port); !s) return s;
    m_advertised = advertisedEndpoint(m_options.advertise, m_options.bindHost, m_workers.address());
    m_coordinator.socket().set(zmq::sockopt::linger, 2000);  // its last message still goes out
    auto reply = registerUpstream(m_coordinator, m_options.connect, wire::ROLE_SHARD, m_advertised,
                                  wire::Envelope::kShardAssignment, m_options.registerTimeoutSeconds,
                                  m_options.interrupted, kHeartbeatEvery);
    if (!reply) return reply.status();
    return takeAssignment(*reply);
}

Status ParameterShard::takeAssignment(const InboundMessage& reply) {
    const wire::ShardAssignment& a = reply.envelope.shard_assignment();
    const uint64_t begin = a.range().begin(), end = a.range().end();
    if (a.parameter_count() == 0 || a.parameter_count() > kMaxParameters || begin >= end || end > a.parameter_count())
        return invalidArgument(fmt::format("the coordinator assigned the range [{}, {}) of a model of {} parameters",
                                           begin, end, a.parameter_count()));
    const size_t count = static_cast<size_t>(end - begin);
    if (a.buffer_count() >= a.parameter_count())
        return invalidArgument(fmt::format("the coordinator assigned {} buffers among {} parameters", a.buffer_count(),
                                           a.parameter_count()));
    if (!reply.tensor || reply.tensor->size() != 2 * count * sizeof(float))
        return invalidArgument(fmt::format("the coordinator's assignment carried {} bytes for a range of {} parameters "
                                           "and its momentum",
                                           reply.tensor ? reply.tensor->size() : 0, count));
    const auto* values = static_cast<const float*>(reply.tensor->data());
    SgdSettings sgd;
    sgd.momentum = a.momentum();
    sgd.weightDecay = a.weight_decay();
    m_state = std::make_unique<ShardState>(std::vector<float>(values, values + count),
                                           std::vector<float>(values + count, values + 2 * count), a.version(), sgd);
    // The model's buffers begin at parameter_count - buffer_count: this range's part of them.
    const uint64_t buffersFrom = a.parameter_count() - a.buffer_count();
    m_state->setBufferCount(static_cast<size_t>(end - std::clamp(buffersFrom, begin, end)));
    m_range = a.range();
    m_range.set_endpoint(m_advertised);
    const ReceiveLimits limits{kMaxEnvelopeBytes, count * sizeof(float)};
    m_workers.setLimits(limits);
    // After the assignment the coordinator sends tensors only to restore the range (a rollback).
    m_coordinator.setLimits({kMaxEnvelopeBytes, 2 * count * sizeof(float)});
    return Status::ok();
}

Status ParameterShard::restore(const InboundMessage& message, std::vector<ShardState::Answer>* answers) {
    const wire::ShardAssignment& a = message.envelope.shard_assignment();
    const size_t count = m_state->size();
    if (a.range().index() != m_range.index() || a.range().begin() != m_range.begin() || a.range().end() != m_range.end())
        return invalidArgument(fmt::format("the coordinator restored the range [{}, {}) of shard {}, and this is shard {} "
                                           "with [{}, {}): the shards are out of step",
                                           a.range().begin(), a.range().end(), a.range().index(), m_range.index(),
                                           m_range.begin(), m_range.end()));
    if (!message.tensor || message.tensor->size() != 2 * count * sizeof(float))
        return invalidArgument(fmt::format("the coordinator's restore carried {} bytes for a range of {} parameters and "
                                           "its momentum",
                                           message.tensor ? message.tensor->size() : 0, count));
    const auto* values = static_cast<const float*>(message.tensor->data());
    m_state->restore(std::vector<float>(values, values + count), std::vector<float>(values + count, values + 2 * count),
                     a.version(), answers);
    return Status::ok();
}

Status ParameterShard::run() {
    m_watch.heard();  // registered just now
    for (;;) {
        if (m_options.interrupted && m_options.interrupted->load()) return Status::ok();
        zmq::pollitem_t items[] = {{m_workers.socket().handle(), 0, ZMQ_POLLIN, 0},
                                   {m_coordinator.socket().handle(), 0, ZMQ_POLLIN, 0}};
        pollSockets(items, 2, kHeartbeatEvery);
        if (m_zap) m_workers.followAdmission(*m_zap);  // a revoked worker is cut off
        for (int i = 0; i < kRelayMessagesPerTurn; ++i) {
            auto message = m_workers.receive();  // malformed frames are refused there
            if (!message) break;
            fromWorker(*message);
        }
        flushReceived();  // before the coordinator's decisions, which may need these ranges
        for (int i = 0; i < kRelayMessagesPerTurn; ++i) {
            auto message = m_coordinator.receive();
            if (!message) break;
            if (!*message) return message->status();  // the coordinator speaks the protocol, or we stop
            m_watch.heard();
            Status failure;
            if (!fromCoordinator(message->value(), &failure)) return failure;
        }
        if (Status s = m_watch.check("parameter shard"); !s) return s;
        if (Clock::now() - m_lastExpiry > kExpiryEvery) {
            m_lastExpiry = Clock::now();
            std::vector<ShardState::Answer> late;
            m_state->expire(m_lastExpiry, &late);
            sendAnswers(late);
        }
        heartbeatIfDue();
    }
}

void ParameterShard::fromWorker(InboundMessage& message) {
    const wire::Envelope& envelope = message.envelope;
    if (envelope.has_shard_push()) {
        if (!message.tensor || message.tensor->size() != m_state->size() * sizeof(float))
            return m_workers.refuse(message, fmt::format("shard {} takes ranges of {} floats [{}, {})", m_range.index(),
                                                         m_state->size(), m_range.begin(), m_range.end()));
        *m_received.mutable_slices_received()->add_slices() =
            m_state->addSlice(envelope.shard_push(), std::move(*message.tensor));
        return;
    }
    if (envelope.has_shard_pull()) {
        const wire::ShardPull& pull = envelope.shard_pull();
        if (auto answer = m_state->pull({message.identity, pull.version(), pull.request_id(), Clock::now()}))
            send(*answer);
        return;
    }
    m_workers.refuse(message, "a parameter shard takes gradient ranges (shard_push) and pulls (shard_pull)");
}

bool ParameterShard::fromCoordinator(InboundMessage& message, Status* failure) {
    const wire::Envelope& envelope = message.envelope;
    if (envelope.has_shard_update() || envelope.has_shard_assignment()) {
        std::vector<ShardState::Answer> answers;
        *failure = envelope.has_shard_update() ? m_state->apply(envelope.shard_update(), &answers)
                                               : restore(message, &answers);
        sendAnswers(answers);
        if (*failure) return true;
        wire::Envelope error;  // said upstream too: the coordinator stops the run, naming this
        error.mutable_error()->set_message(fmt::format("parameter shard {}: {}", m_range.index(), failure->message()));
        m_coordinator.send(error);
        return false;
    }
    if (envelope.has_shard_pull()) {  // the coordinator's own (evaluation, checkpoint): the current version, in order
        const wire::ShardPull& pull = envelope.shard_pull();
        wire::Envelope reply = paramsEnvelope(m_state->version(), pull.request_id());
        zmq::message_t tensor = sharedFloatsFrame(pull.with_momentum() ? m_state->currentWithMomentum() : m_state->current());
        m_coordinator.send(reply, &tensor);
        return true;
    }
    if (envelope.has_params() && envelope.params().stop()) return false;
    if (envelope.has_heartbeat_ack()) return true;  // heard
    if (envelope.has_error())
        std::fprintf(stderr, "shard %u: the coordinator refused a message: %s\n", m_range.index(),
                     envelope.error().message().c_str());
    return true;
}

wire::Envelope ParameterShard::paramsEnvelope(uint64_t version, uint64_t requestId) const {
    wire::Envelope reply;
    wire::ShardParams* params = reply.mutable_shard_params();
    params->set_index(m_range.index());
    params->set_version(version);
    params->set_request_id(requestId);
    return reply;
}

void ParameterShard::send(const ShardState::Answer& answer) {
    wire::Envelope reply = paramsEnvelope(answer.version, answer.requestId);
    zmq::message_t tensor = sharedFloatsFrame(answer.values);
    m_workers.send(answer.identity, reply, &tensor);
}

void ParameterShard::sendAnswers(std::vector<ShardState::Answer>& answers) {
    for (const ShardState::Answer& answer : answers) send(answer);
    answers.clear();
}

void ParameterShard::flushReceived() {
    if (m_received.slices_received().slices().empty()) return;
    m_coordinator.send(m_received);
    m_received.Clear();
}

void ParameterShard::heartbeatIfDue() {
    if (Clock::now() - m_lastHeartbeat < kHeartbeatEvery) return;
    m_lastHeartbeat = Clock::now();
    wire::Envelope beat;
    beat.mutable_heartbeat();
    m_coordinator.send(beat);
}

}  // namespace syncscope::engine
