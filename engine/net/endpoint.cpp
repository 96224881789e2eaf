// Endpoints (see endpoint.h): socket options, binding with a readable error, and framing.
#include "engine/net/endpoint.h"

#include <algorithm>

#include "engine/net/zap_authenticator.h"

namespace syncscope::engine {
namespace {

Status bindSocket(zmq::socket_t& socket, const std::string& role, const std::string& host, int port,
                  std::string* address) {
    try {
        socket.bind(tcpAddress(host, port));
    } catch (const zmq::error_t& e) {
        return unavailable("cannot listen for " + role + " on " + host + ":" + (port ? std::to_string(port) : "*") +
                           ": " + e.what() +
                           " (another process on that port? choose another port, or 0 for any free one)");
    }
    *address = socket.get(zmq::sockopt::last_endpoint);
    return Status::ok();
}

void commonOptions(zmq::socket_t& socket, const EndpointOptions& options) {
    socket.set(zmq::sockopt::linger, 0);  // a stopped process never waits for unsent messages
    socket.set(zmq::sockopt::sndhwm, options.sendHighWaterMark);
    // Frames far beyond the limits are cut off by ZeroMQ itself (the peer is disconnected); a smaller
    // excess reaches the decoder, which refuses it with a reply saying why.
    const size_t largest = std::max(options.limits.maxEnvelopeBytes, options.limits.maxTensorBytes);
    if (largest > 0) socket.set(zmq::sockopt::maxmsgsize, int64_t(2 * largest + (1 << 20)));
}

}  // namespace

EndpointSecurity EndpointSecurity::server(const Credentials* credentials, const std::string& domain,
                                          Protection protection) {
    EndpointSecurity s;
    if (!credentials) return s;
    s.mechanism = protection == Protection::Curve ? Mechanism::Curve : Mechanism::Plain;
    s.zapDomain = domain;
    s.serverSecret = credentials->serverSecret;
    if (protection == Protection::Sealed) {
        s.sealed = true;
        s.serverPublic = credentials->serverPublic;
        s.sealPeers = sealPeersOf(*credentials, domain);
    }
    return s;
}

EndpointSecurity EndpointSecurity::client(const Credentials* credentials, Role role, Protection protection) {
    EndpointSecurity s;
    if (!credentials) return s;
    s.serverPublic = credentials->serverPublic;
    if (auto it = credentials->clients.find(role); it != credentials->clients.end()) {
        s.publicKey = it->second.publicKey;
        s.secretKey = it->second.secretKey;
    }
    if (protection == Protection::Curve) {
        s.mechanism = Mechanism::Curve;
        return s;
    }
    s.mechanism = Mechanism::Plain;
    s.plainUser = roleName(role);
    s.plainPassword = credentials->workerToken;
    s.sealed = protection == Protection::Sealed;
    return s;
}

std::unique_ptr<LinkSeal> EndpointSecurity::makeSeal(bool server) const {
    if (!sealed) return nullptr;
    if (server) return std::make_unique<ServerSeals>(KeyPair{serverPublic, serverSecret}, sealPeers);
    return std::make_unique<ClientSeal>(KeyPair{publicKey, secretKey}, serverPublic);
}

void applySecurity(zmq::socket_t& socket, const EndpointSecurity& security, bool server) {
    using M = EndpointSecurity::Mechanism;
    if (security.mechanism == M::None) return;
    if (server) {
        socket.set(zmq::sockopt::zap_domain, security.zapDomain);
        if (security.mechanism == M::Curve) {
            socket.set(zmq::sockopt::curve_server, 1);
            socket.set(zmq::sockopt::curve_secretkey, security.serverSecret);
        } else {
            socket.set(zmq::sockopt::plain_server, 1);
        }
        return;
    }
    if (security.mechanism == M::Curve) {
        socket.set(zmq::sockopt::curve_serverkey, security.serverPublic);
        socket.set(zmq::sockopt::curve_publickey, security.publicKey);
        socket.set(zmq::sockopt::curve_secretkey, security.secretKey);
    } else {
        socket.set(zmq::sockopt::plain_username, security.plainUser);
        socket.set(zmq::sockopt::plain_password, security.plainPassword);
    }
}

std::string tcpAddress(const std::string& host, int port) {
    return "tcp://" + host + ":" + (port > 0 ? std::to_string(port) : std::string("*"));
}

ServerEndpoint::ServerEndpoint(zmq::context_t& context, EndpointOptions options)
    : m_options(std::move(options)), m_socket(context, zmq::socket_type::router) {
    commonOptions(m_socket, m_options);
    m_socket.set(zmq::sockopt::router_mandatory, 0);  // a reply to a vanished peer is dropped, not an error
    // A peer that reconnects with the routing id it chose (a worker after a network blip) takes
    // its identity over instead of being ignored as a duplicate.
    m_socket.set(zmq::sockopt::router_handover, 1);
    applySecurity(m_socket, m_options.security, true);
    m_seal = m_options.security.makeSeal(true);
}

Status ServerEndpoint::bind(const std::string& host, int port) {
    return bindSocket(m_socket, m_options.role, host, port, &m_address);
}

std::optional<InboundMessage> ServerEndpoint::receive() {
    for (int i = 0; i < 64; ++i) {  // bounded: a flood of bad frames cannot hold the caller's loop
        std::string identity;
        auto message = receiveMessage(m_socket, true, m_options.limits, &identity, m_seal.get());
        if (!message) return std::nullopt;
        if (*message && !m_revoked.empty() && m_revoked.count(message->value().userId)) {  // cut off: no answer
            ++m_refused;
            continue;
        }
        if (*message) return std::move(message->value());
        if (message->status().code() == StatusCode::DataLoss) {  // did not open: no one to answer under a key
            ++m_refused;
            askHelloAgainIfJustAdmitted();
            continue;
        }
        refuse(identity, 0, message->status().message());
    }
    return std::nullopt;
}

// A hello refused because its User-Id held no key here, while ZAP has admitted someone new that this
// endpoint has not followed yet (its owner follows between batches of messages, and a worker named a
// moment ago may say hello inside one): the peer is asked for its hello again, which comes after the
// owner has followed. Without this the worker waited for an answer that never came.
void ServerEndpoint::askHelloAgainIfJustAdmitted() {
    if (!m_seal) return;
    const std::vector<std::string> waiting = m_seal->takeUnadmittedHellos();
    if (waiting.empty() || !m_zap || m_zap->generation() == m_admissionSeen) return;
    for (const std::string& identity : waiting) m_seal->askHelloAgain(m_socket, identity);
}

void ServerEndpoint::followAdmission(const ZapAuthenticator& zap) {
    m_zap = &zap;
    const uint64_t generation = zap.generation();
    if (generation == m_admissionSeen) return;
    m_admissionSeen = generation;
    m_revoked = zap.revoked();
    if (m_seal) m_seal->admitPeers(zap.peers(m_options.security.zapDomain));
}

void ServerEndpoint::send(const std::string& identity, wire::Envelope& envelope, zmq::message_t* tensor,
                          const std::string& route) {
    if (!route.empty()) envelope.set_route(route);
    sendMessage(m_socket, &identity, envelope, tensor, m_seal.get());
}

void ServerEndpoint::refuse(const std::string& identity, uint64_t correlationId, const std::string& why,
                            wire::Error::Code code, const std::string& route) {
    ++m_refused;
    wire::Envelope envelope;
    envelope.set_correlation_id(correlationId);
    envelope.mutable_error()->set_message("refused: " + why);
    envelope.mutable_error()->set_code(code);
    send(identity, envelope, nullptr, route);
}

PublisherEndpoint::PublisherEndpoint(zmq::context_t& context, EndpointOptions options)
    : m_options(std::move(options)), m_socket(context, zmq::socket_type::pub) {
    commonOptions(m_socket, m_options);
    applySecurity(m_socket, m_options.security, true);
}

Status PublisherEndpoint::bind(const std::string& host, int port) {
    return bindSocket(m_socket, m_options.role, host, port, &m_address);
}

void PublisherEndpoint::publish(const std::string& topic, const std::string& bytes) {
    // Never blocks: past the high-water mark a slow subscriber's messages are dropped by ZeroMQ.
    (void)m_socket.send(zmq::buffer(topic), zmq::send_flags::sndmore | zmq::send_flags::dontwait);
    (void)m_socket.send(zmq::buffer(bytes), zmq::send_flags::dontwait);
}

ClientEndpoint::ClientEndpoint(zmq::context_t& context, EndpointOptions options)
    : m_options(std::move(options)), m_socket(context, zmq::socket_type::dealer) {
    commonOptions(m_socket, m_options);
    applySecurity(m_socket, m_options.security, false);
    m_seal = m_options.security.makeSeal(false);
}

void ClientEndpoint::connect(const std::string& address) { m_socket.connect(address); }

void ClientEndpoint::send(wire::Envelope& envelope, zmq::message_t* tensor) {
    sendMessage(m_socket, nullptr, envelope, tensor, m_seal.get());
}

std::optional<Result<InboundMessage>> ClientEndpoint::receive() {
    for (int i = 0; i < 64; ++i) {  // bounded, as ServerEndpoint::receive
        auto message = receiveMessage(m_socket, false, m_options.limits, nullptr, m_seal.get());
        // A frame that does not open (tampered with on the way) is dropped and counted, as a server
        // does: it says nothing of the peer, and must not stop a relay.
        if (message && !*message && message->status().code() == StatusCode::DataLoss) continue;
        return message;
    }
    return std::nullopt;
}

}  // namespace syncscope::engine
