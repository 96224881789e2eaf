// The encrypted data plane (engine/net/sealed_link.h) between real processes: a coordinator and a
// native worker train over sealed frames, and a hand-made peer that speaks the handshake from its
// documented layout (not through LinkSeal, so the format is checked from outside) finds that a
// tampered frame, a replayed frame and a frame under another connection's key are dropped and
// counted (Tick.bad_messages) while the connection itself keeps working.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>

#include "engine/net/endpoint.h"
#include "engine/net/frame_seal.h"
#include "engine/net/protocol.h"
#include "engine/net/sealed_link.h"
#include "tests/integration/engine_cluster.h"

using namespace syncscope::testing;
namespace engine = syncscope::engine;
namespace wire = syncscope::wire;

namespace {

/// A worker-key holder that does the handshake itself: hello [0 x8]["SSSEAL01"][1][flags][salt][key],
/// answer [0 x8]["SSSEAL01"][2][cipher][salt][key][the hello's salt].
class HandMadePeer {
public:
    HandMadePeer(zmq::context_t& context, const std::string& endpoint, const engine::Credentials& credentials)
        : m_socket(context, zmq::socket_type::dealer) {
        m_socket.set(zmq::sockopt::linger, 0);
        engine::applySecurity(m_socket, engine::EndpointSecurity::client(&credentials, engine::Role::Worker,
                                                                         engine::Protection::Plain),
                              false);
        m_socket.connect(endpoint);
        const engine::Salt salt = engine::randomSalt();
        const engine::EphemeralKey ephemeral = engine::EphemeralKey::generate();
        std::string hello(82, '\0');
        std::memcpy(hello.data() + 8, engine::handshake::kMagic, 8);
        hello[16] = 1;
        hello[17] = engine::aesGcmAvailable() ? 1 : 0;
        std::memcpy(hello.data() + 18, salt.data(), 32);
        std::memcpy(hello.data() + 50, ephemeral.publicKey.data(), 32);
        m_socket.send(zmq::buffer(hello), zmq::send_flags::none);

        zmq::pollitem_t item{m_socket.handle(), 0, ZMQ_POLLIN, 0};
        if (zmq::poll(&item, 1, std::chrono::milliseconds(5000)) <= 0) return;
        zmq::message_t answer;
        (void)m_socket.recv(answer);
        const auto* bytes = static_cast<const uint8_t*>(answer.data());
        if (answer.size() != 114 || bytes[16] != 2 || std::memcmp(bytes + 82, salt.data(), 32) != 0) return;
        engine::Salt serverSalt;
        engine::PublicKeyBytes serverKey;
        std::memcpy(serverSalt.data(), bytes + 18, 32);
        std::memcpy(serverKey.data(), bytes + 50, 32);
        const auto cipher = static_cast<engine::Cipher>(bytes[17]);
        auto keys = engine::deriveSessionKeys(engine::SessionSide::Client, credentials.clients.at(engine::Role::Worker),
                                              credentials.serverPublic, salt, serverSalt, &ephemeral, &serverKey);
        if (!keys) return;
        m_sealer.emplace(cipher, keys->send);
        m_opener.emplace(cipher, keys->receive);
    }
    bool ready() const { return m_sealer.has_value(); }

    /// `envelope` serialised and sealed under this connection's key (the next counter).
    std::string seal(wire::Envelope envelope) {
        envelope.set_protocol_major(syncscope::engine::kProtocolMajor);
        const std::string plain = envelope.SerializeAsString();
        std::string out(engine::sealedSize(plain.size()), '\0');
        m_sealer->seal(reinterpret_cast<const uint8_t*>(plain.data()), plain.size(), reinterpret_cast<uint8_t*>(out.data()));
        return out;
    }
    void send(const std::string& frame) { m_socket.send(zmq::buffer(frame), zmq::send_flags::none); }

    /// The next envelope the coordinator sends, opened, within `ms`; none when nothing came.
    std::optional<wire::Envelope> reply(int ms) {
        zmq::pollitem_t item{m_socket.handle(), 0, ZMQ_POLLIN, 0};
        if (zmq::poll(&item, 1, std::chrono::milliseconds(ms)) <= 0) return std::nullopt;
        zmq::message_t head, rest;
        (void)m_socket.recv(head);
        for (bool more = head.more(); more; more = rest.more()) (void)m_socket.recv(rest);
        auto opened = m_opener->open(static_cast<uint8_t*>(head.data()), head.size());
        EXPECT_TRUE(opened.isOk()) << opened.status().message();
        wire::Envelope envelope;
        if (!opened || !envelope.ParseFromArray(static_cast<uint8_t*>(head.data()) + engine::kCounterBytes,
                                                static_cast<int>(engine::plainSizeOf(head.size()).value_or(0))))
            return std::nullopt;
        return envelope;
    }

private:
    zmq::socket_t m_socket;
    std::optional<engine::FrameSealer> m_sealer;
    std::optional<engine::FrameOpener> m_opener;
};

/// A push from a worker the coordinator does not know: answered with NOT_REGISTERED, so each
/// frame that opens gets a reply and one that does not gets none.
wire::Envelope strangersPush() {
    wire::Envelope envelope;
    envelope.mutable_push()->set_worker_id(4'000'000);
    return envelope;
}

}  // namespace

TEST(TestSealedDataPlane, trainsSealedAndDropsTamperedReplayedAndForeignFrames) {
    EngineCluster cluster;
    ASSERT_TRUE(cluster.startCoordinator({"--workers", "1", "--mode", "asp", "--model", "mlp", "--max-seconds", "60",
                                          "--eval-interval", "2"}))
        << cluster.logs();
    cluster.startWorker();
    // Training over sealed frames: versions rise and the evaluation sees a model that learns.
    const auto trained = cluster.telemetry().waitForTick(
        [](const wire::Tick& t) { return t.version() >= 50 && t.test_accuracy() > 0.5; }, 30'000);
    ASSERT_TRUE(trained) << cluster.logs();

    HandMadePeer peer(cluster.context(), cluster.endpoints().data, cluster.credentials());
    HandMadePeer other(cluster.context(), cluster.endpoints().data, cluster.credentials());
    ASSERT_TRUE(peer.ready() && other.ready()) << "no handshake answer in the documented layout\n" << cluster.logs();

    const std::string first = peer.seal(strangersPush());
    peer.send(first);
    auto answered = peer.reply(3000);
    ASSERT_TRUE(answered && answered->has_error()) << "a sealed frame was not answered";
    ASSERT_EQ(answered->error().code(), wire::Error::NOT_REGISTERED) << answered->error().message();
    const auto before = cluster.telemetry().waitForTick([](const wire::Tick&) { return true; }, 3000);
    ASSERT_TRUE(before);

    std::string tampered = peer.seal(strangersPush());
    tampered[engine::kCounterBytes + 1] ^= 0x01;  // one bit of the ciphertext
    peer.send(tampered);
    EXPECT_FALSE(peer.reply(700)) << "a tampered frame was answered";
    peer.send(first);  // a replay
    EXPECT_FALSE(peer.reply(700)) << "a replayed frame was answered";
    std::string foreign;
    for (int i = 0; i < 5; ++i) foreign = other.seal(strangersPush());  // its counter above the peer's
    peer.send(foreign);
    EXPECT_FALSE(peer.reply(700)) << "a frame under another connection's key was answered";

    peer.send(peer.seal(strangersPush()));  // the connection itself still works
    answered = peer.reply(3000);
    ASSERT_TRUE(answered && answered->has_error()) << "the connection stopped working after the dropped frames";
    const uint64_t expected = before->bad_messages() + 3;
    const auto counted =
        cluster.telemetry().waitForTick([&](const wire::Tick& t) { return t.bad_messages() >= expected; }, 3000);
    ASSERT_TRUE(counted) << "the three dropped frames are not counted in Tick.bad_messages";
    // The real worker trained on throughout.
    const auto still = cluster.telemetry().waitForTick(
        [&](const wire::Tick& t) { return t.version() > counted->version() && t.workers_size() == 1; }, 5000);
    ASSERT_TRUE(still) << cluster.logs();
}
