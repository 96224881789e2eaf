// HeartbeatSender (see heartbeat_sender.h).
#include "engine/worker/heartbeat_sender.h"

#include "engine/net/protocol.h"
#include "engine/net/wire_codec.h"

namespace syncscope::engine {

HeartbeatSender::HeartbeatSender(zmq::context_t& context, std::string endpoint, EndpointSecurity security,
                                 std::string routingId, uint32_t workerId, uint64_t sessionToken,
                                 std::chrono::milliseconds timeout)
    : m_context(context), m_endpoint(std::move(endpoint)), m_security(std::move(security)),
      m_routingId(std::move(routingId)), m_workerId(workerId), m_sessionToken(sessionToken), m_timeout(timeout),
      m_thread([this] { loop(); }) {}

HeartbeatSender::~HeartbeatSender() {
    m_quit.store(true);
    m_thread.join();
}

void HeartbeatSender::loop() {
    constexpr auto kPeriod = std::chrono::milliseconds(250);
    zmq::socket_t socket(m_context, zmq::socket_type::dealer);
    socket.set(zmq::sockopt::linger, 0);
    socket.set(zmq::sockopt::routing_id, m_routingId);
    applySecurity(socket, m_security, false);
    const std::unique_ptr<LinkSeal> seal = m_security.makeSeal(false);
    socket.connect(m_endpoint);
    wire::Envelope hello;
    hello.mutable_register_()->set_heartbeat_only(true);
    hello.mutable_register_()->set_worker_id(m_workerId);
    hello.mutable_register_()->set_session_token(m_sessionToken);
    sendMessage(socket, nullptr, hello, nullptr, seal.get());

    auto lastReply = Clock::now(), lastSent = Clock::now();
    const ReceiveLimits limits{kMaxEnvelopeBytes, 0};
    while (!m_quit.load()) {
        zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
        pollSockets(&item, 1, std::chrono::milliseconds(50));
        // Only an acknowledgement is a sign of life: a refusal is an answer, not a heartbeat.
        while (auto reply = receiveMessage(socket, false, limits, nullptr, seal.get()))
            if (*reply && reply->value().envelope.has_heartbeat_ack()) {
                const wire::HeartbeatAck& ack = reply->value().envelope.heartbeat_ack();
                lastReply = Clock::now();
                (ack.awaiting_worker() ? m_lastAwaiting : m_lastNotAwaiting)
                    .store(lastReply.time_since_epoch().count(), std::memory_order_release);
                if (ack.run_over()) {
                    m_finalVersion.store(ack.version(), std::memory_order_release);
                    m_runOver.store(true, std::memory_order_release);
                }
            } else if (*reply && reply->value().envelope.error().code() == wire::Error::NOT_REGISTERED) {
                m_lost.store(true, std::memory_order_release);  // a restarted coordinator: rejoin now
            } else if (*reply && reply->value().envelope.error().code() == wire::Error::LAYOUT_CHANGED) {
                m_rejoin.store(true, std::memory_order_release);
            }
        if (Clock::now() - lastReply > m_timeout) m_lost.store(true, std::memory_order_release);
        if (Clock::now() - lastSent >= kPeriod) {
            wire::Envelope beat;
            beat.mutable_heartbeat()->set_worker_id(m_workerId);
            beat.mutable_heartbeat()->set_session_token(m_sessionToken);
            sendMessage(socket, nullptr, beat, nullptr, seal.get());
            lastSent = Clock::now();
        }
    }
    if (!m_leaving.load(std::memory_order_acquire) && !m_runOver.load(std::memory_order_acquire)) return;
    wire::Envelope last;  // the coordinator need not stay up for this worker after the end
    last.mutable_heartbeat()->set_worker_id(m_workerId);
    last.mutable_heartbeat()->set_session_token(m_sessionToken);
    last.mutable_heartbeat()->set_leaving(true);
    sendMessage(socket, nullptr, last, nullptr, seal.get());
    socket.set(zmq::sockopt::linger, 250);  // it goes out as the socket closes, or is given up
}

bool HeartbeatSender::coordinatorAwaitingFor(Clock::duration span) const {
    const auto now = Clock::now().time_since_epoch().count();
    const auto awaiting = m_lastAwaiting.load(std::memory_order_acquire);
    const auto notAwaiting = m_lastNotAwaiting.load(std::memory_order_acquire);
    const auto recent = std::chrono::duration_cast<Clock::duration>(std::chrono::seconds(1)).count();
    return awaiting > 0 && now - awaiting < recent && now - notAwaiting > span.count();
}

}  // namespace syncscope::engine
