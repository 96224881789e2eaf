// Endpoints: the sockets of one role of the protocol (data plane, control, telemetry) together with
// their framing, size limits and socket options, as ps-lite's Van keeps them out of the servers and
// workers that use them. A coordinator, a group aggregator or a parameter shard binds server
// endpoints; workers and consoles connect client ones. Authentication (CURVE keys, the ZAP handler)
// is set up here too, in one place for every role.
#pragma once

#include <zmq.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "engine/core/status.h"
#include "engine/net/credentials.h"
#include "engine/net/wire_codec.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

/// How a connection's frames are protected.
enum class Protection {
    Curve,   ///< ZeroMQ's CURVE: control and telemetry (and the data plane in bench_transport's old rows)
    Sealed,  ///< PLAIN + ZAP for the workers' token, every frame sealed (sealed_link.h): the encrypted data plane
    Plain,   ///< PLAIN + ZAP for the workers' token, frames in the clear: the authenticated data plane
};
/// The data plane's protection: `authenticated` (plainDataPlane) or `encrypted`.
inline Protection dataPlaneProtection(bool plainDataPlane) {
    return plainDataPlane ? Protection::Plain : Protection::Sealed;
}

/// How an endpoint authenticates its peers (see credentials.h and zap_authenticator.h).
class ZapAuthenticator;

struct EndpointSecurity {
    enum class Mechanism { None, Curve, Plain };
    Mechanism mechanism = Mechanism::None;  ///< None: no authentication (--insecure, loopback only)
    std::string zapDomain;                  ///< server: whose roles the ZAP handler admits
    std::string serverSecret;               ///< server, CURVE
    std::string serverPublic, publicKey, secretKey;  ///< client, CURVE (and the sealed links' keys)
    std::string plainUser, plainPassword;   ///< client, PLAIN (an authenticated data plane, sealed or not)
    bool sealed = false;                    ///< frames sealed (sealed_link.h) over PLAIN
    std::map<std::string, std::string> sealPeers;  ///< server, sealed: each admitted role's public key

    /// A coordinator's endpoint of `domain`: CURVE with its key, or PLAIN on a data plane (sealed or
    /// not); no credentials: none.
    static EndpointSecurity server(const Credentials* credentials, const std::string& domain,
                                   Protection protection = Protection::Curve);
    /// A client of `role`: CURVE with that role's pair, or PLAIN with the worker token (sealed or not).
    static EndpointSecurity client(const Credentials* credentials, Role role, Protection protection = Protection::Curve);
    /// The seal a socket of this security needs (empty unless `sealed`).
    std::unique_ptr<LinkSeal> makeSeal(bool server) const;
};

/// What a role's socket accepts and how it queues.
struct EndpointOptions {
    std::string role;          ///< "data", "control", "telemetry": named in errors
    ReceiveLimits limits{0, 0};
    int sendHighWaterMark = 1000;  ///< messages queued per peer before sends fail (never block)
    EndpointSecurity security;
};

/// Applies `security` to a socket before it binds or connects.
void applySecurity(zmq::socket_t& socket, const EndpointSecurity& security, bool server);

/// A bound ROUTER: many peers, each answered by its routing identity. Malformed messages are
/// answered with an error and counted, never returned.
class ServerEndpoint {
public:
    ServerEndpoint(zmq::context_t& context, EndpointOptions options);

    /// Binds tcp://host:port (port 0: any free port); the error names the port and the fix.
    Status bind(const std::string& host, int port);
    /// The bound address with the port resolved ("tcp://127.0.0.1:41234").
    const std::string& address() const { return m_address; }
    /// The next well-formed message, or an empty optional when none is waiting.
    std::optional<InboundMessage> receive();
    /// `route`: a worker behind the aggregator `identity`, which passes the message on to it.
    void send(const std::string& identity, wire::Envelope& envelope, zmq::message_t* tensor = nullptr,
              const std::string& route = {});
    /// Answers with an error and counts the peer's message as refused.
    void refuse(const std::string& identity, uint64_t correlationId, const std::string& why,
                wire::Error::Code code = wire::Error::CODE_UNSPECIFIED, const std::string& route = {});
    /// The same, to the sender of `message` (through its aggregator when it was relayed).
    void refuse(const InboundMessage& message, const std::string& why,
                wire::Error::Code code = wire::Error::CODE_UNSPECIFIED) {
        refuse(message.identity, message.envelope.correlation_id(), why, code, message.route);
    }
    /// Messages refused so far: undecodable, too large, of another protocol version, not opening
    /// under the sender's keys (sealed), or by refuse().
    uint64_t refused() const { return m_refused; }
    /// Sealed frames that did not open (tampered with, replayed, another connection's key): dropped.
    uint64_t unopened() const { return m_seal ? m_seal->unopened() : 0; }
    /// Raises the receive limits (e.g. once the model size is known).
    void setLimits(const ReceiveLimits& limits) { m_options.limits = limits; }
    /// Follows what `zap` admits now: a revoked User-Id's messages are dropped from here on (its
    /// connection was admitted before; ZeroMQ never asks again) and its sealed sessions forgotten;
    /// a new named worker may say hello. Cheap when nothing changed (owners call it every tick).
    void followAdmission(const ZapAuthenticator& zap);
    zmq::socket_t& socket() { return m_socket; }

private:
    EndpointOptions m_options;
    zmq::socket_t m_socket;
    std::unique_ptr<LinkSeal> m_seal;
    std::string m_address;
    uint64_t m_refused = 0;
    std::set<std::string> m_revoked;  ///< User-Ids cut off (followAdmission)
    uint64_t m_admissionSeen = 0;     ///< the ZapAuthenticator::generation() followed last
    const ZapAuthenticator* m_zap = nullptr;  ///< the one followAdmission was given
    void askHelloAgainIfJustAdmitted();
};

/// A bound PUB: topic-prefixed messages to every subscriber; a slow subscriber loses messages,
/// the publisher never waits.
class PublisherEndpoint {
public:
    PublisherEndpoint(zmq::context_t& context, EndpointOptions options);
    Status bind(const std::string& host, int port);
    const std::string& address() const { return m_address; }
    void publish(const std::string& topic, const std::string& bytes);

private:
    EndpointOptions m_options;
    zmq::socket_t m_socket;
    std::string m_address;
};

/// A connected DEALER: one peer (a worker's or a console's side of the data plane or control).
class ClientEndpoint {
public:
    ClientEndpoint(zmq::context_t& context, EndpointOptions options);
    void connect(const std::string& address);
    void send(wire::Envelope& envelope, zmq::message_t* tensor = nullptr);
    /// The next whole message; empty when none is waiting; an error for a malformed one. A sealed
    /// frame that does not open is dropped (counted by its seal).
    std::optional<Result<InboundMessage>> receive();
    void setLimits(const ReceiveLimits& limits) { m_options.limits = limits; }
    zmq::socket_t& socket() { return m_socket; }

private:
    EndpointOptions m_options;
    zmq::socket_t m_socket;
    std::unique_ptr<LinkSeal> m_seal;
};

/// "tcp://host:port", or "tcp://host:*" for port 0.
std::string tcpAddress(const std::string& host, int port);

}  // namespace syncscope::engine
