// Aggregator (see aggregator.h).
#include "engine/relay/aggregator.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "engine/net/protocol.h"
#include "engine/net/tensor_frame.h"
#include "engine/model/gradient_checks.h"
#include "engine/relay/relay_process.h"

namespace syncscope::engine {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

Aggregator::Aggregator(RelayOptions options)
    : m_options(std::move(options)),
      m_zap(m_options.credentials
                ? std::make_unique<ZapAuthenticator>(m_context, *m_options.credentials, m_options.credentialsPath)
                : nullptr),
      m_workers(m_context, {"workers (data)", {kMaxEnvelopeBytes, 0}, 1000,
                            EndpointSecurity::server(m_options.credentialsOrNull(), kDataDomain, dataPlaneProtection(m_options.plainDataPlane))}),
      m_coordinator(m_context, {"coordinator (data)", {kMaxEnvelopeBytes, 0}, 1000,
                                EndpointSecurity::client(m_options.credentialsOrNull(), Role::Worker, dataPlaneProtection(m_options.plainDataPlane))}) {}

Aggregator::~Aggregator() = default;

Status Aggregator::start() {
    if (Status s = m_workers.bind(m_options.bindHost, m_options.port); !s) return s;
    m_advertised = advertisedEndpoint(m_options.advertise, m_options.bindHost, m_workers.address());
    m_coordinator.socket().set(zmq::sockopt::linger, 2000);  // the last relayed stops still go out
    m_workers.socket().set(zmq::sockopt::linger, 2000);
    auto reply = registerUpstream(m_coordinator, m_options.connect, wire::ROLE_AGGREGATOR, m_advertised,
                                  wire::Envelope::kWelcome, m_options.registerTimeoutSeconds, m_options.interrupted);
    if (!reply) return reply.status();
    const wire::Welcome& welcome = reply->envelope.welcome();
    const uint64_t count = welcome.spec().parameter_count();
    if (count == 0 || count > kMaxParameters)
        return invalidArgument(fmt::format("the coordinator announced a model of {} parameters", count));
    m_parameterCount = static_cast<size_t>(count);
    if (welcome.spec().buffer_count() >= count)
        return invalidArgument(fmt::format("the coordinator announced {} buffers among {} parameters",
                                           welcome.spec().buffer_count(), count));
    m_bufferBegin = m_parameterCount - static_cast<size_t>(welcome.spec().buffer_count());
    m_maxGradientNorm = welcome.max_gradient_norm();
    const ReceiveLimits limits{kMaxEnvelopeBytes, m_parameterCount * sizeof(float)};
    m_workers.setLimits(limits);
    m_coordinator.setLimits(limits);
    return Status::ok();
}

Status Aggregator::run() {
    m_watch.heard();  // registered just now
    for (;;) {
        if (m_options.interrupted && m_options.interrupted->load()) return Status::ok();
        zmq::pollitem_t items[] = {{m_workers.socket().handle(), 0, ZMQ_POLLIN, 0},
                                   {m_coordinator.socket().handle(), 0, ZMQ_POLLIN, 0}};
        pollSockets(items, 2, untilNextDue());
        if (m_zap) m_workers.followAdmission(*m_zap);  // a revoked worker is cut off
        for (int i = 0; i < kRelayMessagesPerTurn; ++i) {
            auto message = m_workers.receive();  // malformed frames are refused there
            if (!message) break;
            fromWorker(*message);
        }
        for (int i = 0; i < kRelayMessagesPerTurn; ++i) {
            auto message = m_coordinator.receive();
            if (!message) break;
            if (!*message) return message->status();  // the coordinator speaks the protocol, or we stop
            m_watch.heard();
            if (!fromCoordinator(message->value())) {
                for (auto& [key, round] : m_rounds)
                    if (round.sum) sendRound(key, true);
                return Status::ok();
            }
        }
        sendDueRounds();
        heartbeatIfDue();
        if (Status s = m_watch.check("group aggregator"); !s) return s;
    }
}

void Aggregator::heartbeatIfDue() {
    if (Clock::now() - m_lastHeartbeat < kHeartbeatEvery) return;
    m_lastHeartbeat = Clock::now();
    wire::Envelope beat;
    beat.mutable_heartbeat();
    m_coordinator.send(beat);
}

void Aggregator::fromWorker(InboundMessage& message) {
    const wire::Envelope& envelope = message.envelope;
    if (envelope.has_push() && envelope.push().has_gradient() && addToRound(message)) return;
    if (envelope.has_push()) forget(message.identity);  // relayed alone: its round does not wait for it
    relayUp(message);
}

void Aggregator::relayUp(InboundMessage& message) {
    message.envelope.set_route(message.identity);  // whatever route a worker wrote is replaced by its own
    m_coordinator.send(message.envelope, message.tensor ? &*message.tensor : nullptr);
    ++m_stats.relayed;
}

bool Aggregator::addToRound(const InboundMessage& message) {
    const wire::Push& push = message.envelope.push();
    auto release = m_released.find(message.identity);
    if (release == m_released.end() || !release->second.reduce || push.base_version() != release->second.version)
        return false;
    if (!message.tensor || message.tensor->size() != m_parameterCount * sizeof(float)) return false;
    const auto* gradient = static_cast<const float*>(message.tensor->data());
    // A gradient the coordinator would drop goes alone, so it is dropped (and said) on its own.
    const GradientSquares checked = gradientSquares(gradient, m_parameterCount, m_bufferBegin);
    if (!checked.finite) return false;
    if (m_maxGradientNorm > 0 && std::sqrt(checked.squares) > m_maxGradientNorm) return false;
    const RoundKey key{release->second.group, release->second.version};
    m_released.erase(release);
    Round& round = m_rounds[key];
    const float batch = static_cast<float>(push.batch_size());
    if (!round.sum) {
        round.sum = std::make_shared<std::vector<float>>(m_parameterCount);
        std::transform(gradient, gradient + m_parameterCount, round.sum->begin(), [batch](float g) { return batch * g; });
        round.firstArrival = Clock::now();
        round.message.set_group(key.first);
        round.message.set_base_version(key.second);
    } else {
        float* sum = round.sum->data();
        for (size_t i = 0; i < m_parameterCount; ++i) sum[i] += batch * gradient[i];
    }
    *round.message.add_pushes() = push;
    round.message.add_routes(message.identity);
    round.outstanding.erase(message.identity);
    ++m_stats.summed;
    if (round.outstanding.empty()) sendRound(key, false);
    return true;
}

void Aggregator::sendRound(const RoundKey& key, bool partial) {
    Round& round = m_rounds[key];
    wire::Envelope envelope;
    *envelope.mutable_gradient_sum() = std::move(round.message);
    zmq::message_t tensor = sharedFloatsFrame(std::move(round.sum));
    m_coordinator.send(envelope, &tensor);
    ++m_stats.sums;
    m_stats.partialSums += partial;
    round.sum.reset();
    round.message.Clear();
    if (round.outstanding.empty()) m_rounds.erase(key);
}

void Aggregator::sendDueRounds() {
    const auto now = Clock::now();
    std::vector<RoundKey> due;
    for (const auto& [key, round] : m_rounds)
        if (round.sum && now - round.firstArrival >= kPartialSumAfter) due.push_back(key);
    for (const RoundKey& key : due) sendRound(key, true);
}

std::chrono::milliseconds Aggregator::untilNextDue() const {
    auto wait = kHeartbeatEvery;
    const auto now = Clock::now();
    for (const auto& [key, round] : m_rounds)
        if (round.sum)
            wait = std::min(wait, std::max(std::chrono::milliseconds(0),
                                           std::chrono::duration_cast<std::chrono::milliseconds>(
                                               round.firstArrival + kPartialSumAfter - now)));
    return wait;
}

void Aggregator::forget(const std::string& route) {
    auto release = m_released.find(route);
    if (release == m_released.end()) return;
    const RoundKey key{release->second.group, release->second.version};
    m_released.erase(release);
    auto round = m_rounds.find(key);
    if (round == m_rounds.end()) return;
    round->second.outstanding.erase(route);
    if (!round->second.outstanding.empty()) return;
    if (round->second.sum)
        sendRound(key, false);
    else
        m_rounds.erase(round);
}

void Aggregator::noteRelease(const std::string& route, const wire::Params& params, bool carriesParameters) {
    forget(route);
    if (!carriesParameters || params.stop() || !params.move_to().empty()) return;
    m_released[route] = {params.group(), params.version(), params.reduce()};
    if (params.reduce()) m_rounds[{params.group(), params.version()}].outstanding.insert(route);
}

bool Aggregator::fromCoordinator(InboundMessage& message) {
    wire::Envelope& envelope = message.envelope;
    if (envelope.has_params_fanout()) {
        const wire::ParamsFanout& fanout = envelope.params_fanout();
        if (!message.tensor || fanout.routes_size() != fanout.params_size()) return true;
        ++m_stats.fanouts;
        for (int i = 0; i < fanout.routes_size(); ++i) {
            wire::Envelope out;
            *out.mutable_params() = fanout.params(i);
            noteRelease(fanout.routes(i), out.params(), true);
            zmq::message_t tensor;
            tensor.copy(*message.tensor);  // shares the buffer (reference counted), no copy of the floats
            m_workers.send(fanout.routes(i), out, &tensor);
            ++m_stats.fannedOut;
        }
        return true;
    }
    if (envelope.route().empty()) {  // to this aggregator itself
        if (envelope.has_params() && envelope.params().stop()) return false;
        if (envelope.has_error())
            std::fprintf(stderr, "aggregator: the coordinator refused a message: %s\n", envelope.error().message().c_str());
        return true;
    }
    const std::string route = envelope.route();
    envelope.clear_route();
    if (envelope.has_params()) noteRelease(route, envelope.params(), message.tensor.has_value());
    m_workers.send(route, envelope, message.tensor ? &*message.tensor : nullptr);
    ++m_stats.relayed;
    return true;
}

}  // namespace syncscope::engine
