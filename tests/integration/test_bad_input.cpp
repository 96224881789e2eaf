// Bad input on every endpoint of a training coordinator: garbage, truncated and extra frames, a
// wrong protocol version, oversized messages, strangers on the telemetry port and raw TCP junk.
// Each data/control message is refused with an Error naming the problem and counted in
// Tick.bad_messages, and the coordinator keeps training throughout.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "tests/integration/engine_cluster.h"

using namespace syncscope::testing;
namespace wire = syncscope::wire;
using syncscope::engine::kProtocolMajor;
using syncscope::engine::kProtocolMinor;

namespace {

using Frames = std::vector<std::string>;

/// A protobuf-invalid frame: field 0 with wire type 7 does not exist.
const std::string kGarbage = std::string("\x07\xff\xfe", 3) + "this is not a syncscope.wire.Envelope";

std::string serialized(wire::Envelope envelope, uint32_t major = kProtocolMajor, uint32_t minor = kProtocolMinor) {
    envelope.set_protocol_major(major);  // by hand: sendMessage() would stamp the right version
    envelope.set_protocol_minor(minor);
    return envelope.SerializeAsString();
}

std::string pushEnvelope(uint32_t workerId) {
    wire::Envelope e;
    e.mutable_push()->set_worker_id(workerId);
    e.mutable_push()->set_has_gradient(true);
    e.mutable_push()->set_batch_size(64);
    return serialized(e);
}

std::string floats(size_t count) { return std::string(count * sizeof(float), '\0'); }

/// A raw DEALER that sends exactly the frames it is given and reads back envelopes.
class RawPeer {
public:
    RawPeer(zmq::context_t& context, const std::string& endpoint, const syncscope::engine::EndpointSecurity& security)
        : m_socket(context, zmq::socket_type::dealer) {
        m_socket.set(zmq::sockopt::linger, 0);
        syncscope::engine::applySecurity(m_socket, security, false);
        m_socket.connect(endpoint);
    }
    void send(const Frames& frames) {
        for (size_t i = 0; i < frames.size(); ++i)
            m_socket.send(zmq::buffer(frames[i].data(), frames[i].size()),
                          i + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
    }
    /// The next envelope received, or nothing within `timeoutMs`.
    std::optional<wire::Envelope> reply(int timeoutMs = 2000) {
        zmq::pollitem_t item{m_socket.handle(), 0, ZMQ_POLLIN, 0};
        if (zmq::poll(&item, 1, std::chrono::milliseconds(timeoutMs)) == 0) return std::nullopt;
        zmq::message_t first, rest;
        if (!m_socket.recv(first, zmq::recv_flags::none)) return std::nullopt;
        for (bool more = first.more(); more; more = rest.more()) (void)m_socket.recv(rest, zmq::recv_flags::none);
        wire::Envelope envelope;
        if (!envelope.ParseFromArray(first.data(), static_cast<int>(first.size()))) return std::nullopt;
        return envelope;
    }

private:
    zmq::socket_t m_socket;
};

/// Writes `bytes` to a plain TCP connection to `endpoint` ("tcp://host:port") and closes it.
bool sendRawTcp(const std::string& endpoint, const std::string& bytes) {
    const int port = std::stoi(endpoint.substr(endpoint.rfind(':') + 1));
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool sent = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == ssize_t(bytes.size());
    ::close(fd);
    return sent;
}

}  // namespace

// The tests run in this order against one coordinator the suite starts, and count the refusals
// they cause (coordinatorKeepsTrainingAndCountsRefusals checks that every one was counted).
class TestBadInput : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_cluster = std::make_unique<EngineCluster>();
        s_setupError = start();
    }
    static void TearDownTestSuite() { s_cluster.reset(); }
    // What initTestCase's failure did: no test runs on a cluster that did not start.
    void SetUp() override { ASSERT_TRUE(s_setupError.empty()) << s_setupError; }

    /// Starts the cluster, its workers training, and learns the model's size; the problem, or none.
    static std::string start() {
        // The data plane only authenticated: these frames must reach the decoder as sent (on the
        // encrypted one every frame is opened first; test_security and test_sealed_link cover that).
        const auto started = s_cluster->startCoordinator({"--data-plane", "authenticated", "--workers", "2", "--mode", "asp", "--model", "mlp", "--batch",
                                                          "64", "--max-seconds", "90", "--eval-interval", "5"});
        if (!started) return started.message();
        s_cluster->startWorker();
        s_cluster->startWorker();
        auto running = s_cluster->telemetry().waitForTick(
            [](const wire::Tick& t) {
                return t.state() == wire::RUN_RUNNING && t.version() >= 20 && t.workers_size() == 2;
            },
            20'000);
        if (!running) return "training did not start\n" + s_cluster->logs();
        for (const auto& w : running->workers()) s_realWorkers.push_back(w.worker_id());
        wire::ControlRequest snapshot;
        snapshot.set_snapshot(true);
        const auto reply = s_cluster->control().request(snapshot);
        if (!reply || !reply->ok()) return reply ? reply->error() : reply.status().message();
        s_parameterCount = reply->snapshot().header().spec().parameter_count();
        if (s_parameterCount == 0) return "the snapshot gives no parameter count";
        return {};
    }

    /// An authenticated peer of the endpoint's role: what reaches the decoders (strangers are turned
    /// away by the handshake, see authentication in test_security).
    static syncscope::engine::EndpointSecurity securityFor(const std::string& endpoint) {
        return s_cluster->clientSecurity(endpoint == s_cluster->endpoints().data ? syncscope::engine::Role::Worker
                                                                                 : syncscope::engine::Role::Steer);
    }

    /// Sends `frames` from a fresh DEALER and expects an Error whose message matches `keyword`.
    static void expectRefusal(const std::string& endpoint, const Frames& frames, const std::string& keyword) {
        RawPeer peer(s_cluster->context(), endpoint, securityFor(endpoint));
        peer.send(frames);
        const auto reply = peer.reply();
        ASSERT_TRUE(reply) << "no reply within 2 s";
        ASSERT_TRUE(reply->has_error()) << "not an Error reply: " << reply->DebugString();
        ++s_refused;
        const std::string& message = reply->error().message();
        ASSERT_TRUE(std::regex_search(message, std::regex(keyword))) << message;
    }

    static std::unique_ptr<EngineCluster> s_cluster;
    static std::string s_setupError;
    static uint64_t s_parameterCount;
    static uint64_t s_refused;  // messages answered with an Error: each must be counted
    static std::vector<uint32_t> s_realWorkers;
};

std::unique_ptr<EngineCluster> TestBadInput::s_cluster;
std::string TestBadInput::s_setupError;
uint64_t TestBadInput::s_parameterCount = 0;
uint64_t TestBadInput::s_refused = 0;
std::vector<uint32_t> TestBadInput::s_realWorkers;

namespace {

struct Refused {
    std::string row;
    Frames frames;
    std::string keyword;  // a regular expression the Error must match
};

}  // namespace

TEST_F(TestBadInput, dataEndpointRefuses) {
    wire::Envelope reg;
    reg.mutable_register_()->set_pid(1);
    wire::Envelope beat;
    beat.mutable_heartbeat()->set_worker_id(s_realWorkers.at(0));
    wire::Envelope welcome;
    welcome.mutable_welcome()->set_worker_id(7);
    const std::string versions = R"(99\.7.*)" + std::to_string(kProtocolMajor) + R"(\.)" + std::to_string(kProtocolMinor);
    std::vector<Refused> rows{
        {"garbage", {kGarbage}, "undecodable"},
        {"empty frame", {std::string()}, "version 0\\.0|empty"},
        {"three frames", {pushEnvelope(0), "junk", "more junk"}, "got 3 frames"},
        {"five frames", {serialized(reg), "a", "b", "c", "d"}, "got 5 frames"},
        {"wrong version", {serialized(reg, 99, 7)}, versions},
        {"unregistered push", {pushEnvelope(s_realWorkers.at(0)), floats(s_parameterCount)}, "register"},
        {"unregistered heartbeat", {serialized(beat)}, "register"},
        {"oversized tensor", {pushEnvelope(0), floats(s_parameterCount + 1)}, "does not fit"},
        {"torn float", {pushEnvelope(0), std::string(10, 'x')}, "does not fit"},
        {"oversized envelope", {std::string(2 << 20, 'x')}, "exceeds the limit"},
        {"not a data message", {serialized(welcome)}, "takes register, push, heartbeat and evaluation"},
    };
    // Only a registered group aggregator speaks for other peers or sends sums.
    wire::Envelope relayed;
    relayed.set_route("someone else");
    relayed.mutable_push()->set_worker_id(s_realWorkers.at(0));
    rows.push_back({"relay from a stranger", {serialized(relayed)}, "only a registered group aggregator relays"});
    wire::Envelope sum;
    *sum.mutable_gradient_sum()->add_pushes() = wire::Push();
    sum.mutable_gradient_sum()->add_routes("r");
    rows.push_back({"sum from a stranger", {serialized(sum), floats(s_parameterCount)},
                    "only a registered group aggregator sends gradient sums"});
    wire::Envelope aggregator;
    aggregator.mutable_register_()->set_role(wire::ROLE_AGGREGATOR);
    aggregator.mutable_register_()->set_endpoint("http://example.org");
    rows.push_back({"aggregator without an endpoint", {serialized(aggregator)}, "tcp:// or ipc:// endpoint"});
    for (const Refused& r : rows) {
        SCOPED_TRACE(r.row);
        expectRefusal(s_cluster->endpoints().data, r.frames, r.keyword);
    }
}

// A peer that registered properly and then pushes gradients of the wrong size.
TEST_F(TestBadInput, registeredPeerWithBadGradients) {
    RawPeer peer(s_cluster->context(), s_cluster->endpoints().data, securityFor(s_cluster->endpoints().data));
    wire::Envelope reg;
    reg.mutable_register_()->set_pid(1);
    reg.mutable_register_()->set_hostname("impostor");
    peer.send({serialized(reg)});
    const auto welcome = peer.reply();
    ASSERT_TRUE(welcome && welcome->has_welcome()) << "registration was not welcomed";
    const uint32_t id = welcome->welcome().worker_id();
    ASSERT_EQ(welcome->welcome().spec().parameter_count(), s_parameterCount);
    const struct {
        Frames frames;
        std::string keyword;
    } cases[] = {
        {{pushEnvelope(id), floats(s_parameterCount + 1)}, "does not fit"},
        {{pushEnvelope(id), floats(s_parameterCount - 1)}, "needs a gradient of"},
        {{pushEnvelope(id)}, "needs a gradient of"},
        {{pushEnvelope(id + 1000), floats(s_parameterCount)}, "register"},  // someone else's id
    };
    for (const auto& c : cases) {
        peer.send(c.frames);
        const auto reply = peer.reply();
        ASSERT_TRUE(reply && reply->has_error()) << "no Error for a case expecting " << c.keyword;
        ++s_refused;
        ASSERT_TRUE(contains(reply->error().message(), c.keyword)) << reply->error().message();
    }
    // The same peer registering again is a worker whose message was lost on the way: it is
    // taken as lost and back, with its id and a new session token (the old one stops working).
    peer.send({serialized(reg)});
    const auto again = peer.reply();
    ASSERT_TRUE(again && again->has_welcome()) << "a second registration of the same peer was not welcomed back";
    ASSERT_EQ(again->welcome().worker_id(), id);
    ASSERT_TRUE(again->welcome().session_token() != welcome->welcome().session_token());
}

// No real worker can have computed on a version the model has not reached; accepting one makes
// the staleness (version - base) wrap around, and with dynsgd the learning rate infinite.
TEST_F(TestBadInput, gradientFromTheFutureIsRefused) {
    RawPeer peer(s_cluster->context(), s_cluster->endpoints().data, securityFor(s_cluster->endpoints().data));
    wire::Envelope reg;
    reg.mutable_register_()->set_pid(2);
    reg.mutable_register_()->set_hostname("time traveller");
    peer.send({serialized(reg)});
    const auto welcome = peer.reply();
    ASSERT_TRUE(welcome && welcome->has_welcome()) << "registration was not welcomed";
    wire::Envelope push;
    push.mutable_push()->set_worker_id(welcome->welcome().worker_id());
    push.mutable_push()->set_has_gradient(true);
    push.mutable_push()->set_batch_size(64);
    push.mutable_push()->set_base_version(uint64_t(1) << 40);
    peer.send({serialized(push), floats(s_parameterCount)});
    const auto reply = peer.reply();
    ASSERT_TRUE(reply) << "no reply within 2 s";
    ASSERT_TRUE(reply->has_error()) << "accepted: " << reply->ShortDebugString().substr(0, 300);
    ++s_refused;
    ASSERT_TRUE(contains(reply->error().message(), "version")) << reply->error().message();
}

// A registered aggregator's messages are checked as a worker's are: a sum must name its workers,
// and only workers that registered through it; what it relays is answered through it. (Its
// relayed registration finds the run's places taken by the peers above.)
TEST_F(TestBadInput, aggregatorMessagesAreChecked) {
    RawPeer peer(s_cluster->context(), s_cluster->endpoints().data, securityFor(s_cluster->endpoints().data));
    wire::Envelope reg;
    reg.mutable_register_()->set_role(wire::ROLE_AGGREGATOR);
    reg.mutable_register_()->set_endpoint("tcp://127.0.0.1:1");
    peer.send({serialized(reg)});
    const auto welcome = peer.reply();
    ASSERT_TRUE(welcome && welcome->has_welcome()) << "the aggregator was not welcomed";
    ASSERT_EQ(welcome->welcome().spec().parameter_count(), s_parameterCount);
    wire::Envelope torn;
    *torn.mutable_gradient_sum()->add_pushes() = wire::Push();  // a push without its route
    peer.send({serialized(torn), floats(s_parameterCount)});
    auto reply = peer.reply();
    ASSERT_TRUE(reply && reply->has_error()) << "a sum without routes was not refused";
    ++s_refused;
    ASSERT_TRUE(contains(reply->error().message(), "pushes, their routes")) << reply->error().message();
    wire::Envelope ghost;
    wire::Push* push = ghost.mutable_gradient_sum()->add_pushes();
    push->set_worker_id(s_realWorkers.at(0));  // a real worker, but not one behind this aggregator
    push->set_has_gradient(true);
    push->set_batch_size(64);
    ghost.mutable_gradient_sum()->add_routes("ghost");
    peer.send({serialized(ghost), floats(s_parameterCount)});
    reply = peer.reply();
    ASSERT_TRUE(reply && reply->has_error()) << "a sum for a worker not behind the aggregator was not refused";
    ++s_refused;
    ASSERT_EQ(reply->route(), std::string("ghost"));  // answered to that route, through the aggregator
    ASSERT_EQ(reply->error().code(), wire::Error::NOT_REGISTERED);
    wire::Envelope hello;
    hello.set_route("behind");
    hello.mutable_register_()->set_pid(3);
    hello.mutable_register_()->set_hostname("relayed");
    peer.send({serialized(hello)});
    reply = peer.reply();
    // The run's places are taken by now (the impostors above): the answer is a refusal that
    // says so, sent through the aggregator to the worker's route.
    ASSERT_TRUE(reply && reply->has_error()) << "a relayed registration beyond the run's places was not refused";
    ++s_refused;
    ASSERT_TRUE(contains(reply->error().message(), "the run takes")) << reply->error().message();
    ASSERT_EQ(reply->route(), std::string("behind"));
}

TEST_F(TestBadInput, controlEndpointRefuses) {
    wire::Envelope stop;
    stop.mutable_control()->set_stop(true);
    const std::string versions = R"(99\.7.*)" + std::to_string(kProtocolMajor) + R"(\.)" + std::to_string(kProtocolMinor);
    const std::vector<Refused> rows{
        {"garbage", {kGarbage}, "undecodable"},
        {"wrong version", {serialized(stop, 99, 7)}, versions},
        {"oversized request", {std::string(100 << 10, 'x')}, "exceeds the limit of 65536"},
        {"three frames", {serialized(stop), "junk", "junk"}, "got 3 frames"},
        {"tensor frame", {serialized(stop), floats(4)}, "does not fit"},
        {"not a control request", {pushEnvelope(0)}, "control requests only"},
        {"empty frame", {std::string()}, "version 0\\.0|empty"},
    };
    for (const Refused& r : rows) {
        SCOPED_TRACE(r.row);
        expectRefusal(s_cluster->endpoints().control, r.frames, r.keyword);
    }
}

// A request with no command is a valid envelope: it gets a ControlReply with ok=false.
TEST_F(TestBadInput, controlRequestWithoutCommand) {
    const auto reply = s_cluster->control().request(wire::ControlRequest{});
    ASSERT_TRUE(reply) << reply.status().message();
    ASSERT_TRUE(!reply->ok());
    ASSERT_TRUE(contains(reply->error(), "empty or unknown")) << reply->error();
}

// Beyond ZeroMQ's own size limit the connection is cut: no reply, nothing to count, no harm.
TEST_F(TestBadInput, controlMessageBeyondTransportLimitIsCutOff) {
    RawPeer peer(s_cluster->context(), s_cluster->endpoints().control, securityFor(s_cluster->endpoints().control));
    peer.send({std::string(3 << 20, 'x')});
    ASSERT_TRUE(!peer.reply(1000));
    wire::ControlRequest snapshot;
    snapshot.set_snapshot(true);
    const auto reply = s_cluster->control().request(snapshot);
    ASSERT_TRUE(reply && reply->ok()) << "the control endpoint stopped answering";
}

// Wrong socket types and writes on the telemetry port are the coordinator's no concern: the
// DEALER is refused by ZeroMQ's handshake, an XSUB's junk upstream is ignored by PUB. A SUB
// without keys gets nothing; with a view key it gets the ticks.
TEST_F(TestBadInput, telemetryEndpointIgnoresStrangers) {
    zmq::context_t& context = s_cluster->context();
    const std::string endpoint = s_cluster->endpoints().telemetry;
    zmq::socket_t dealer(context, zmq::socket_type::dealer), xsub(context, zmq::socket_type::xsub),
        sub(context, zmq::socket_type::sub), stranger(context, zmq::socket_type::sub);
    for (zmq::socket_t* s : {&dealer, &xsub, &sub})
        syncscope::engine::applySecurity(*s, s_cluster->clientSecurity(syncscope::engine::Role::View), false);
    for (zmq::socket_t* s : {&dealer, &xsub, &sub, &stranger}) {
        s->set(zmq::sockopt::linger, 0);
        s->connect(endpoint);
    }
    sub.set(zmq::sockopt::subscribe, "");
    stranger.set(zmq::sockopt::subscribe, "");
    (void)dealer.send(zmq::buffer(kGarbage.data(), kGarbage.size()), zmq::send_flags::dontwait);
    (void)xsub.send(zmq::buffer(kGarbage.data(), kGarbage.size()), zmq::send_flags::dontwait);
    (void)xsub.send(zmq::str_buffer(""), zmq::send_flags::dontwait);
    const std::string hugeTopic = "\x01" + std::string(100 << 10, 't');  // a subscription to nothing
    (void)xsub.send(zmq::buffer(hugeTopic), zmq::send_flags::dontwait);
    zmq::pollitem_t item{sub.handle(), 0, ZMQ_POLLIN, 0};
    ASSERT_TRUE(zmq::poll(&item, 1, std::chrono::milliseconds(3000)) == 1) << "a view-key SUB received no ticks";
    zmq::pollitem_t strangerItem{stranger.handle(), 0, ZMQ_POLLIN, 0};
    ASSERT_EQ(zmq::poll(&strangerItem, 1, std::chrono::milliseconds(500)), 0);  // no keys: no ticks
    zmq::pollitem_t dealerItem{dealer.handle(), 0, ZMQ_POLLIN, 0};
    ASSERT_EQ(zmq::poll(&dealerItem, 1, std::chrono::milliseconds(200)), 0);  // nothing for a DEALER
}

// Bytes that are not ZMTP at all, and a ZMTP greeting followed by junk, on every port.
TEST_F(TestBadInput, rawTcpGarbageOnEveryPort) {
    std::string zmtpThenJunk(10, '\0');
    zmtpThenJunk[0] = '\xff';
    zmtpThenJunk[9] = '\x7f';  // the ZMTP 3 signature ...
    zmtpThenJunk += std::string("\x03\x00NULL", 6) + std::string(54, '\0') + std::string(4096, '\xee');
    const std::string junk = std::string(8192, '\xa5');
    const auto& e = s_cluster->endpoints();
    for (const std::string& endpoint : {e.data, e.control, e.telemetry}) {
        ASSERT_TRUE(sendRawTcp(endpoint, junk)) << endpoint;
        ASSERT_TRUE(sendRawTcp(endpoint, zmtpThenJunk)) << endpoint;
    }
}

// A subscriber that never reads: the coordinator's PUB drops its ticks instead of blocking,
// so training and the other subscribers' 10 Hz ticks go on.
TEST_F(TestBadInput, slowSubscriberNeverStallsTraining) {
    zmq::socket_t stuck(s_cluster->context(), zmq::socket_type::sub);
    stuck.set(zmq::sockopt::linger, 0);
    stuck.set(zmq::sockopt::rcvhwm, 1);
    stuck.set(zmq::sockopt::rcvbuf, 4096);
    stuck.set(zmq::sockopt::subscribe, "");
    syncscope::engine::applySecurity(stuck, s_cluster->clientSecurity(syncscope::engine::Role::View), false);
    stuck.connect(s_cluster->endpoints().telemetry);
    TelemetryProbe& telemetry = s_cluster->telemetry();
    const auto first = telemetry.waitForTick([](const wire::Tick&) { return true; }, 3000);
    ASSERT_TRUE(first);
    int ticks = 0;
    const auto last = telemetry.waitForTick(
        [&](const wire::Tick& t) { return ++ticks && t.time_s() >= first->time_s() + 3.0; }, 6000);
    ASSERT_TRUE(last) << "ticks stopped while a subscriber was not reading";
    ASSERT_TRUE(ticks >= 20) << ticks << " ticks in 3 s";
    ASSERT_TRUE(last->version() > first->version() + 10) << "version " << first->version() << " -> " << last->version();
}

// After all of it: every refusal counted, the coordinator alive, the real workers training.
TEST_F(TestBadInput, coordinatorKeepsTrainingAndCountsRefusals) {
    TelemetryProbe& telemetry = s_cluster->telemetry();
    const auto counted =
        telemetry.waitForTick([&](const wire::Tick& t) { return t.bad_messages() >= s_refused; }, 3000);
    ASSERT_TRUE(counted) << "bad_messages " << (telemetry.latest() ? telemetry.latest()->bad_messages() : 0) << " < "
                         << s_refused << " refused";
    testLog("%llu messages refused, bad_messages = %llu", static_cast<unsigned long long>(s_refused),
            static_cast<unsigned long long>(counted->bad_messages()));
    ASSERT_TRUE(s_cluster->coordinator().running());
    const uint64_t before = counted->version();
    std::map<uint32_t, uint64_t> pushedBefore;
    for (const auto& w : counted->workers()) pushedBefore[w.worker_id()] = w.pushed();
    auto later =
        telemetry.waitForTick([&](const wire::Tick& t) { return t.time_s() >= counted->time_s() + 2.0; }, 5000);
    ASSERT_TRUE(later) << "no ticks any more";
    ASSERT_TRUE(later->state() == wire::RUN_RUNNING) << "run state " << later->state();
    ASSERT_TRUE(later->version() > before + 10) << "version " << before << " -> " << later->version();
    for (const auto& w : later->workers()) {
        if (std::find(s_realWorkers.begin(), s_realWorkers.end(), w.worker_id()) == s_realWorkers.end()) continue;
        ASSERT_TRUE(w.state() != wire::WORKER_LOST) << "worker " << w.worker_id() << " lost";
        ASSERT_TRUE(w.pushed() > pushedBefore[w.worker_id()]) << "worker " << w.worker_id() << " stalled";
    }
    ASSERT_TRUE(!contains(s_cluster->logs(), "terminate called")) << s_cluster->logs();
}
