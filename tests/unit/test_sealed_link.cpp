// Sealed links (engine/net/sealed_link.h) through the wire codec over real inproc sockets: messages
// sent before the handshake wait in order and go out sealed once it is done, a repeated hello gets
// the same answer, a server that lost its keys (restarted) asks for a new hello and the link goes on,
// and a server keeps at most its limit of sessions.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <optional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/net/sealed_link.h"
#include "engine/net/wire_codec.h"

namespace engine = syncscope::engine;
namespace wire = syncscope::wire;

namespace {

constexpr engine::ReceiveLimits kLimits{1 << 20, 1 << 20};

/// A server socket and its seals (no ZAP on inproc: the peers' keys are filed under no User-Id).
struct Server {
    Server(zmq::context_t& context, const std::string& address, const engine::KeyPair& own,
           const engine::KeyPair& worker, size_t maxSessions = engine::kMaxSealedSessions)
        : socket(context, zmq::socket_type::router),
          seals(std::make_unique<engine::ServerSeals>(own, std::map<std::string, std::string>{{"", worker.publicKey}},
                                                      maxSessions)) {
        socket.set(zmq::sockopt::linger, 0);
        socket.bind(address);
    }
    /// Reads until a message opens or `ms` pass (handshake frames are answered on the way).
    std::optional<engine::InboundMessage> next(int ms = 2000) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (std::chrono::steady_clock::now() < deadline) {
            zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
            engine::pollSockets(&item, 1, std::chrono::milliseconds(20));
            if (auto message = engine::receiveMessage(socket, true, kLimits, nullptr, seals.get())) {
                if (*message) return std::move(message->value());
                last = message->status().message();
            }
        }
        return std::nullopt;
    }
    zmq::socket_t socket;
    std::unique_ptr<engine::ServerSeals> seals;
    std::string last;  ///< the last refusal
};

struct Client {
    Client(zmq::context_t& context, const std::string& address, const engine::KeyPair& worker,
           const engine::KeyPair& server)
        : socket(context, zmq::socket_type::dealer), seal(worker, server.publicKey) {
        socket.set(zmq::sockopt::linger, 0);
        socket.connect(address);
    }
    void send(uint64_t id, const std::vector<float>* tensor = nullptr) {
        wire::Envelope envelope;
        envelope.set_correlation_id(id);
        zmq::message_t frame;
        if (tensor) frame = zmq::message_t(tensor->data(), tensor->size() * sizeof(float));
        engine::sendMessage(socket, nullptr, envelope, tensor ? &frame : nullptr, &seal);
    }
    /// Reads what is waiting (handshake answers, replies) for `ms`; the replies' correlation ids.
    std::vector<uint64_t> read(int ms = 200) {
        std::vector<uint64_t> ids;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (std::chrono::steady_clock::now() < deadline) {
            zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
            engine::pollSockets(&item, 1, std::chrono::milliseconds(20));
            while (auto message = engine::receiveMessage(socket, false, kLimits, nullptr, &seal))
                if (*message) ids.push_back(message->value().envelope.correlation_id());
        }
        return ids;
    }
    zmq::socket_t socket;
    engine::ClientSeal seal;
};

/// The client's first message `id`, through the handshake: the server answers the hello, the
/// client's queue goes out; the message as the server opened it (none: it did not).
std::optional<engine::InboundMessage> firstMessage(Server& server, Client& client, uint64_t id) {
    client.send(id);
    server.next(300);
    client.read();
    return server.next();
}

class TestSealedLink : public ::testing::Test {
protected:
    zmq::context_t m_context{1};
    engine::KeyPair m_server = engine::KeyPair::generate(), m_worker = engine::KeyPair::generate();
};

}  // namespace

TEST_F(TestSealedLink, messagesSentBeforeTheHandshakeGoOutSealedInOrder) {
    Server server(m_context, "inproc://queued", m_server, m_worker);
    Client client(m_context, "inproc://queued", m_worker, m_server);
    const std::vector<float> tensor{1.5f, -2.0f, 3.25f};
    client.send(1);
    client.send(2, &tensor);
    client.send(3);
    EXPECT_FALSE(client.seal.established());
    EXPECT_FALSE(server.next(300)) << "a message opened before the client had keys";  // answers the hellos
    EXPECT_TRUE(client.read().empty());  // the answer: the queue goes out
    EXPECT_TRUE(client.seal.established());
    for (uint64_t id : {1, 2, 3}) {
        auto message = server.next();
        ASSERT_TRUE(message) << server.last;
        EXPECT_EQ(message->envelope.correlation_id(), id);
        EXPECT_EQ(message->tensor.has_value(), id == 2);
        if (id == 2) {
            ASSERT_EQ(message->tensor->size(), tensor.size() * sizeof(float));
            EXPECT_EQ(std::memcmp(message->tensor->data(), tensor.data(), message->tensor->size()), 0);
        }
    }
    // Three hellos with one salt made one session, not three.
    EXPECT_EQ(server.seals->sessions(), 1u);
    // And the way back.
    wire::Envelope reply;
    reply.set_correlation_id(7);
    auto message = (client.send(4), server.next());
    ASSERT_TRUE(message);
    engine::sendMessage(server.socket, &message->identity, reply, nullptr, server.seals.get());
    EXPECT_EQ(client.read(), std::vector<uint64_t>{7});
}

TEST_F(TestSealedLink, aServerThatLostItsKeysAsksForANewHelloAndTheLinkGoesOn) {
    Server first(m_context, "inproc://restart", m_server, m_worker);
    Client client(m_context, "inproc://restart", m_worker, m_server);
    ASSERT_TRUE(firstMessage(first, client, 1));
    first.seals = std::make_unique<engine::ServerSeals>(  // the coordinator restarted: no sessions
        m_server, std::map<std::string, std::string>{{"", m_worker.publicKey}});
    client.send(2);  // lost: the new server holds no keys for it, and says so
    EXPECT_FALSE(first.next(300));
    EXPECT_NE(first.last.find("no keys"), std::string::npos) << first.last;
    client.read();  // the rekey: a new hello goes out
    EXPECT_FALSE(client.seal.established());
    first.next(300);  // answered
    client.read();
    ASSERT_TRUE(client.seal.established());
    client.send(3);
    auto message = first.next();
    ASSERT_TRUE(message) << first.last;
    EXPECT_EQ(message->envelope.correlation_id(), 3u);
}

TEST_F(TestSealedLink, aServerKeepsAtMostItsLimitOfSessions) {
    Server server(m_context, "inproc://bounded", m_server, m_worker, 2);
    std::vector<std::unique_ptr<Client>> clients;
    for (int i = 0; i < 3; ++i) {
        clients.push_back(std::make_unique<Client>(m_context, "inproc://bounded", m_worker, m_server));
        ASSERT_TRUE(firstMessage(server, *clients.back(), uint64_t(i))) << server.last;
    }
    EXPECT_EQ(server.seals->sessions(), 2u);
    clients[0]->send(10);  // the least recently used was forgotten: asked for a new hello
    EXPECT_FALSE(server.next(300));
    EXPECT_NE(server.last.find("no keys"), std::string::npos) << server.last;
}

TEST_F(TestSealedLink, aClientWithAnotherWorkerPairGetsNothingThrough) {
    Server server(m_context, "inproc://stranger", m_server, m_worker);
    Client stranger(m_context, "inproc://stranger", engine::KeyPair::generate(), m_server);
    stranger.send(1);
    server.next(300);
    stranger.read();  // it gets an answer, and derives keys of its own
    stranger.send(2);
    EXPECT_FALSE(server.next(500)) << "a message sealed without the worker secret opened";
    EXPECT_GE(server.seals->unopened(), 1u);
}

// A peer whose keys are revoked (admitPeers without it) loses its session at once: what it sends
// after opens no more, and its hello is refused; the peers left keep theirs.
TEST_F(TestSealedLink, aRevokedPeerLosesItsSessionAndCannotSayHelloAgain) {
    Server server(m_context, "inproc://revoked", m_server, m_worker);
    Client client(m_context, "inproc://revoked", m_worker, m_server);
    ASSERT_TRUE(firstMessage(server, client, 1)) << server.last;
    ASSERT_EQ(server.seals->sessions(), 1u);
    server.seals->admitPeers({{"", m_worker.publicKey}});  // the same peers: nothing forgotten
    EXPECT_EQ(server.seals->sessions(), 1u);
    server.seals->admitPeers({});  // revoked
    EXPECT_EQ(server.seals->sessions(), 0u);
    client.send(2);
    EXPECT_FALSE(server.next(300)) << "a revoked peer's message opened";
    client.read();  // the rekey it was sent: it says hello again
    EXPECT_FALSE(server.next(300)) << "a revoked peer's hello was answered";
    EXPECT_NE(server.last.find("holds no key"), std::string::npos) << server.last;
    EXPECT_EQ(server.seals->sessions(), 0u);
}

// A worker named while the run goes on: ZAP admits it a moment before the endpoint follows, and its
// hello, refused in between, is remembered; asked again once admitted, it says hello again and its
// queued message goes through (before, it waited for an answer that never came).
TEST_F(TestSealedLink, aHelloRefusedJustBeforeAdmissionIsAskedAgain) {
    Server server(m_context, "inproc://admitted-late", m_server, m_worker);
    server.seals->admitPeers({});  // not admitted here yet
    Client client(m_context, "inproc://admitted-late", m_worker, m_server);
    client.send(7);
    EXPECT_FALSE(server.next(300));
    EXPECT_NE(server.last.find("holds no key"), std::string::npos) << server.last;
    client.read();
    EXPECT_FALSE(client.seal.established()) << "nobody answered, and the client does not ask again on its own";
    const std::vector<std::string> waiting = server.seals->takeUnadmittedHellos();
    ASSERT_EQ(waiting.size(), 1u);
    EXPECT_TRUE(server.seals->takeUnadmittedHellos().empty());
    server.seals->admitPeers({{"", m_worker.publicKey}});
    server.seals->askHelloAgain(server.socket, waiting.front());
    client.read();     // the rekey: the hello again
    server.next(300);  // answered
    client.read();     // the answer: the queued message goes out sealed
    ASSERT_TRUE(client.seal.established());
    auto message = server.next();
    ASSERT_TRUE(message) << server.last;
    EXPECT_EQ(message->envelope.correlation_id(), 7u);
}
