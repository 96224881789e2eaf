// Framing of data-plane and control messages: [identity (ROUTER side)] [Envelope] [tensor]?
// Everything read from the network is untrusted: frame counts, sizes, the protobuf decode and
// the protocol version are all checked, and a failure is a Status, never a crash.
#pragma once

#include <zmq.hpp>

#include <chrono>
#include <optional>
#include <string>

#include "engine/core/status.h"
#include "engine/net/sealed_link.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

struct InboundMessage {
    std::string identity;  ///< routing id of the sender (ROUTER sockets); empty otherwise
    std::string userId;    ///< the sender's role as the ZAP handler admitted it ("steer"); empty: none
    std::string route;     ///< a relayed message's worker behind the aggregator `identity` (see DataPlane)
    wire::Envelope envelope;
    std::optional<zmq::message_t> tensor;
};

/// Limits applied while receiving.
struct ReceiveLimits {
    size_t maxEnvelopeBytes;
    size_t maxTensorBytes;
};

/// Receives one whole multipart message without blocking; an empty optional means nothing was
/// waiting. A malformed message is drained completely and returned as an error, with the
/// sender's identity in `badIdentity` (when known) so a ROUTER can answer it. With `seal`, frames are
/// opened first and handshake frames handled; one that does not open is an error with the code
/// DataLoss (dropped: there is no one to answer under a key).
std::optional<Result<InboundMessage>> receiveMessage(zmq::socket_t& socket, bool router, const ReceiveLimits& limits,
                                                     std::string* badIdentity = nullptr, LinkSeal* seal = nullptr);

/// zmq_poll that treats a signal's interruption as "nothing ready" (cppzmq's poll throws then),
/// so loops with signal handlers go round once more and see their flag.
int pollSockets(zmq::pollitem_t* items, size_t count, std::chrono::milliseconds timeout);

/// Sends an envelope (stamped with the protocol version) and an optional tensor frame; with `seal`,
/// sealed (a client queues them while its handshake is pending).
void sendMessage(zmq::socket_t& socket, const std::string* identity, wire::Envelope& envelope,
                 zmq::message_t* tensor = nullptr, LinkSeal* seal = nullptr);

}  // namespace syncscope::engine
