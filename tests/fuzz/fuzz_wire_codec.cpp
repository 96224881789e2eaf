// Fuzzes the envelope decoder (engine/net/wire_codec.*) the way the network reaches it: the input
// becomes one multipart ZeroMQ message sent over an inproc PAIR, and receiveMessage() reads it.
// Input layout: byte 0 picks the receiver (bit 0: ROUTER-style identity frame first; bit 1: the
// control plane's small limits), the rest is the frames, separated by kFrameSeparator.
#include <zmq.hpp>

#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/core/printable.h"
#include "engine/net/protocol.h"
#include "engine/net/wire_codec.h"

using namespace syncscope::engine;

namespace {

constexpr std::string_view kFrameSeparator{"|FRAME|"};

struct Pipe {
    zmq::context_t context{1};
    zmq::socket_t out{context, zmq::socket_type::pair};
    zmq::socket_t in{context, zmq::socket_type::pair};
    Pipe() {
        in.bind("inproc://fuzz-wire");
        out.connect("inproc://fuzz-wire");
    }
};

void sendFrames(zmq::socket_t& socket, std::string_view bytes) {
    for (;;) {
        const size_t cut = bytes.find(kFrameSeparator);
        const std::string_view frame = bytes.substr(0, cut);
        const bool last = cut == std::string_view::npos;
        socket.send(zmq::buffer(frame.data(), frame.size()), last ? zmq::send_flags::none : zmq::send_flags::sndmore);
        if (last) return;
        bytes.remove_prefix(cut + kFrameSeparator.size());
    }
}

// What the receiver promises whatever came in: one answer per message and nothing left behind.
std::optional<Result<InboundMessage>> receiveWhole(Pipe& pipe, bool router, const ReceiveLimits& limits) {
    auto message = receiveMessage(pipe.in, router, limits);
    SS_CHECK(message.has_value(), "a message sent on inproc was not there to receive");
    zmq::message_t leftover;
    SS_CHECK(!pipe.in.recv(leftover, zmq::recv_flags::dontwait), "receiveMessage left frames of a message behind");
    return message;
}

}  // namespace

// protobuf logs each string with invalid UTF-8 it refuses, at fuzzing speed; the decoder reports
// the refusal itself, so those lines only bury libFuzzer's output.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
    google::protobuf::SetLogHandler(nullptr);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static Pipe pipe;
    if (size < 1) return 0;
    const bool router = data[0] & 1;
    const ReceiveLimits limits = data[0] & 2 ? ReceiveLimits{kMaxControlBytes, 0} : ReceiveLimits{kMaxEnvelopeBytes, 4096};
    sendFrames(pipe.out, std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
    auto message = receiveWhole(pipe, router, limits);
    if (!*message) return 0;

    // Accepted: peer strings are kept and logged only through printable(), which must bound them.
    InboundMessage& inbound = message->value();
    if (inbound.envelope.has_register_()) {
        const std::string& hostname = inbound.envelope.register_().hostname();
        SS_CHECK(printable(hostname, kMaxHostnameBytes).size() <= 4 * kMaxHostnameBytes + 32, "printable() unbounded");
    }
    // What was accepted can be sent on and is accepted again by the same receiver.
    sendMessage(pipe.out, router ? &inbound.identity : nullptr, inbound.envelope,
                inbound.tensor ? &*inbound.tensor : nullptr);
    auto again = receiveWhole(pipe, router, limits);
    SS_CHECK(again->isOk(), ("a message accepted once was refused when sent on: " + again->status().message()).c_str());
    return 0;
}
