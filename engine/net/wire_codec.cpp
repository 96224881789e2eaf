// Wire framing and validation (see wire_codec.h).
#include "engine/net/wire_codec.h"

#include <vector>

#include "engine/net/protocol.h"

namespace syncscope::engine {
namespace {

constexpr size_t kMaxFrames = 4;  // identity + envelope + tensor, and one spare to detect excess
constexpr size_t kHandshakeSlack = 256;  // a handshake frame may be larger than a tiny envelope limit

Status checkVersion(const wire::Envelope& envelope) {
    if (envelope.protocol_major() == kProtocolMajor) return Status::ok();
    return invalidArgument("protocol version " + std::to_string(envelope.protocol_major()) + "." +
                           std::to_string(envelope.protocol_minor()) + " is not supported by this peer (speaks " +
                           std::to_string(kProtocolMajor) + "." + std::to_string(kProtocolMinor) +
                           "); run the same SyncScope release on every node");
}

}  // namespace

namespace {

/// Decodes one whole message's frames (the identity already taken off on a ROUTER).
Result<InboundMessage> decode(InboundMessage message, std::vector<zmq::message_t>& payload,
                              const ReceiveLimits& limits) {
    const zmq::message_t& envelopeFrame = payload[0];
    if (envelopeFrame.size() > limits.maxEnvelopeBytes)
        return Result<InboundMessage>(invalidArgument("envelope of " + std::to_string(envelopeFrame.size()) +
                                                      " bytes exceeds the limit of " +
                                                      std::to_string(limits.maxEnvelopeBytes)));
    if (envelopeFrame.size() == 0) return Result<InboundMessage>(invalidArgument("empty envelope frame"));
    if (!message.envelope.ParseFromArray(envelopeFrame.data(), static_cast<int>(envelopeFrame.size())))
        return Result<InboundMessage>(invalidArgument("undecodable envelope (" + std::to_string(envelopeFrame.size()) +
                                                      " bytes that are not a syncscope.wire.Envelope)"));
    if (Status s = checkVersion(message.envelope); !s) return Result<InboundMessage>(s);
    if (payload.size() == 2) {
        zmq::message_t& tensor = payload[1];
        if (tensor.size() > limits.maxTensorBytes || tensor.size() % sizeof(float) != 0)
            return Result<InboundMessage>(invalidArgument("tensor frame of " + std::to_string(tensor.size()) +
                                                          " bytes does not fit this run (at most " +
                                                          std::to_string(limits.maxTensorBytes) + ", whole floats)"));
        message.tensor = std::move(tensor);
    }
    return Result<InboundMessage>(std::move(message));
}

}  // namespace

std::optional<Result<InboundMessage>> receiveMessage(zmq::socket_t& socket, bool router, const ReceiveLimits& limits,
                                                     std::string* badIdentity, LinkSeal* seal) {
    for (;;) {  // a handshake frame is handled here, and the next message read
        std::vector<zmq::message_t> frames;
        zmq::message_t frame;
        if (!socket.recv(frame, zmq::recv_flags::dontwait)) return std::nullopt;
        bool more = frame.more();
        frames.push_back(std::move(frame));
        size_t extra = 0;
        while (more) {  // the rest of a multipart message is already here; drain it all, keep a few
            zmq::message_t part;
            (void)socket.recv(part, zmq::recv_flags::none);
            more = part.more();
            if (frames.size() < kMaxFrames) frames.push_back(std::move(part));
            else ++extra;
        }

        InboundMessage message;
        size_t next = 0;
        if (router) {
            message.identity = frames[0].to_string();
            if (badIdentity) *badIdentity = message.identity;
            next = 1;
        }
        const size_t payloadFrames = frames.size() - next + extra;
        if (payloadFrames < 1 || payloadFrames > 2)
            return Result<InboundMessage>(invalidArgument("expected an envelope and at most one tensor frame, got " +
                                                          std::to_string(payloadFrames) + " frames"));
        // The role the ZAP handler gave the connection travels with each of its frames.
        if (const char* user = zmq_msg_gets(const_cast<zmq_msg_t*>(frames[next].handle()), "User-Id"))
            message.userId = user;
        std::vector<zmq::message_t> payload;
        for (size_t i = next; i < frames.size(); ++i) payload.push_back(std::move(frames[i]));
        if (seal) {
            // Sizes first (with the seal's bytes), so nothing too large is decrypted.
            if (payload[0].size() > sealedSize(limits.maxEnvelopeBytes) + kHandshakeSlack ||
                (payload.size() == 2 && payload[1].size() > sealedSize(limits.maxTensorBytes)))
                return Result<InboundMessage>(invalidArgument("a sealed frame larger than this run's limits"));
            std::string why;
            switch (seal->receive(socket, router ? &message.identity : nullptr, message.userId, payload, &why)) {
            case SealVerdict::Handled:
                continue;
            case SealVerdict::Refused:
                return Result<InboundMessage>(dataLoss("dropped: " + why));
            case SealVerdict::Opened:
                break;
            }
        }
        return decode(std::move(message), payload, limits);
    }
}

int pollSockets(zmq::pollitem_t* items, size_t count, std::chrono::milliseconds timeout) {
    const int ready = zmq_poll(items, static_cast<int>(count), static_cast<long>(timeout.count()));
    return ready < 0 && zmq_errno() == EINTR ? 0 : ready;
}

void sendMessage(zmq::socket_t& socket, const std::string* identity, wire::Envelope& envelope, zmq::message_t* tensor,
                 LinkSeal* seal) {
    envelope.set_protocol_major(kProtocolMajor);
    envelope.set_protocol_minor(kProtocolMinor);
    if (seal) {
        seal->send(socket, identity, envelope.SerializeAsString(), tensor);
        return;
    }
    if (identity) socket.send(zmq::buffer(*identity), zmq::send_flags::sndmore);
    const std::string bytes = envelope.SerializeAsString();
    socket.send(zmq::buffer(bytes), tensor ? zmq::send_flags::sndmore : zmq::send_flags::none);
    if (tensor) socket.send(*tensor, zmq::send_flags::none);
}

}  // namespace syncscope::engine
