// Bad input on every endpoint of a training coordinator: garbage, truncated and extra frames, a
// wrong protocol version, oversized messages, strangers on the telemetry port and raw TCP junk.
// Each data/control message is refused with an Error naming the problem and counted in
// Tick.bad_messages, and the coordinator keeps training throughout.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <map>
#include <memory>

#include "cluster_fixture.h"

using namespace syncscope::testing;
namespace wire = syncscope::wire;
using syncscope::engine::kProtocolMajor;
using syncscope::engine::kProtocolMinor;

namespace {

using Frames = QList<QByteArray>;

/// A protobuf-invalid frame: field 0 with wire type 7 does not exist.
const QByteArray kGarbage = QByteArray("\x07\xff\xfe", 3) + "this is not a syncscope.wire.Envelope";

QByteArray serialized(wire::Envelope envelope, uint32_t major = kProtocolMajor, uint32_t minor = kProtocolMinor) {
    envelope.set_protocol_major(major);  // by hand: sendMessage() would stamp the right version
    envelope.set_protocol_minor(minor);
    const std::string bytes = envelope.SerializeAsString();
    return QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
}

QByteArray pushEnvelope(uint32_t workerId) {
    wire::Envelope e;
    e.mutable_push()->set_worker_id(workerId);
    e.mutable_push()->set_has_gradient(true);
    e.mutable_push()->set_batch_size(64);
    return serialized(e);
}

QByteArray floats(size_t count) { return QByteArray(static_cast<qsizetype>(count * sizeof(float)), '\0'); }

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
        for (qsizetype i = 0; i < frames.size(); ++i)
            m_socket.send(zmq::buffer(frames[i].constData(), static_cast<size_t>(frames[i].size())),
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
bool sendRawTcp(const std::string& endpoint, const QByteArray& bytes) {
    const int port = std::stoi(endpoint.substr(endpoint.rfind(':') + 1));
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool sent = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                ::send(fd, bytes.constData(), static_cast<size_t>(bytes.size()), MSG_NOSIGNAL) == bytes.size();
    ::close(fd);
    return sent;
}

}  // namespace

class TestBadInput : public QObject {
    Q_OBJECT

    std::unique_ptr<ClusterFixture> m_cluster;
    uint64_t m_parameterCount = 0;
    uint64_t m_refused = 0;  // messages answered with an Error: each must be counted
    std::vector<uint32_t> m_realWorkers;

    /// An authenticated peer of the endpoint's role: what reaches the decoders (strangers are turned
    /// away by the handshake, see authentication in test_security).
    syncscope::engine::EndpointSecurity securityFor(const std::string& endpoint) {
        return m_cluster->clientSecurity(endpoint == m_cluster->endpoints().data ? syncscope::engine::Role::Worker
                                                                                 : syncscope::engine::Role::Steer);
    }

    /// Sends `frames` from a fresh DEALER and expects an Error whose message matches `keyword`.
    void expectRefusal(const std::string& endpoint, const Frames& frames, const QString& keyword) {
        RawPeer peer(m_cluster->context(), endpoint, securityFor(endpoint));
        peer.send(frames);
        const auto reply = peer.reply();
        QVERIFY2(reply, "no reply within 2 s");
        QVERIFY2(reply->has_error(), qPrintable("not an Error reply: " + QString::fromStdString(reply->DebugString())));
        ++m_refused;
        const QString message = QString::fromStdString(reply->error().message());
        QVERIFY2(message.contains(QRegularExpression(keyword)), qPrintable(message));
    }

private slots:
    void initTestCase() {
        m_cluster = std::make_unique<ClusterFixture>();
        const auto started =
            m_cluster->startCoordinator({"--workers", "2", "--mode", "asp", "--model", "mlp", "--batch", "64",
                                         "--max-seconds", "90", "--eval-interval", "5"});
        QVERIFY2(started, started.message().c_str());
        m_cluster->startWorker();
        m_cluster->startWorker();
        auto running = m_cluster->telemetry().waitForTick(
            [](const wire::Tick& t) {
                return t.state() == wire::RUN_RUNNING && t.version() >= 20 && t.workers_size() == 2;
            },
            20'000);
        QVERIFY2(running, qPrintable("training did not start\n" + m_cluster->logs()));
        for (const auto& w : running->workers()) m_realWorkers.push_back(w.worker_id());
        wire::ControlRequest snapshot;
        snapshot.set_snapshot(true);
        const auto reply = m_cluster->control().request(snapshot);
        QVERIFY2(reply && reply->ok(), reply ? reply->error().c_str() : reply.status().message().c_str());
        m_parameterCount = reply->snapshot().header().spec().parameter_count();
        QVERIFY(m_parameterCount > 0);
    }

    void cleanupTestCase() { m_cluster.reset(); }

    void dataEndpointRefuses_data() {
        QTest::addColumn<Frames>("frames");
        QTest::addColumn<QString>("keyword");  // a regular expression the Error must match
        wire::Envelope reg;
        reg.mutable_register_()->set_pid(1);
        wire::Envelope beat;
        beat.mutable_heartbeat()->set_worker_id(m_realWorkers.at(0));
        wire::Envelope welcome;
        welcome.mutable_welcome()->set_worker_id(7);
        const QString versions = QString(R"(99\.7.*%1\.%2)").arg(kProtocolMajor).arg(kProtocolMinor);
        QTest::newRow("garbage") << Frames{kGarbage} << "undecodable";
        QTest::newRow("empty frame") << Frames{QByteArray()} << "version 0\\.0|empty";
        QTest::newRow("three frames") << Frames{pushEnvelope(0), "junk", "more junk"} << "got 3 frames";
        QTest::newRow("five frames") << Frames{serialized(reg), "a", "b", "c", "d"} << "got 5 frames";
        QTest::newRow("wrong version") << Frames{serialized(reg, 99, 7)} << versions;
        QTest::newRow("unregistered push")
            << Frames{pushEnvelope(m_realWorkers.at(0)), floats(m_parameterCount)} << "register";
        QTest::newRow("unregistered heartbeat") << Frames{serialized(beat)} << "register";
        QTest::newRow("oversized tensor") << Frames{pushEnvelope(0), floats(m_parameterCount + 1)} << "does not fit";
        QTest::newRow("torn float") << Frames{pushEnvelope(0), QByteArray(10, 'x')} << "does not fit";
        QTest::newRow("oversized envelope") << Frames{QByteArray(2 << 20, 'x')} << "exceeds the limit";
        QTest::newRow("not a data message") << Frames{serialized(welcome)} << "takes register, push, heartbeat and evaluation";
        // Only a registered group aggregator speaks for other peers or sends sums.
        wire::Envelope relayed;
        relayed.set_route("someone else");
        relayed.mutable_push()->set_worker_id(m_realWorkers.at(0));
        QTest::newRow("relay from a stranger") << Frames{serialized(relayed)} << "only a registered group aggregator relays";
        wire::Envelope sum;
        *sum.mutable_gradient_sum()->add_pushes() = wire::Push();
        sum.mutable_gradient_sum()->add_routes("r");
        QTest::newRow("sum from a stranger") << Frames{serialized(sum), floats(m_parameterCount)}
                                             << "only a registered group aggregator sends gradient sums";
        wire::Envelope aggregator;
        aggregator.mutable_register_()->set_role(wire::ROLE_AGGREGATOR);
        aggregator.mutable_register_()->set_endpoint("http://example.org");
        QTest::newRow("aggregator without an endpoint") << Frames{serialized(aggregator)} << "tcp:// or ipc:// endpoint";
    }
    void dataEndpointRefuses() {
        QFETCH(Frames, frames);
        QFETCH(QString, keyword);
        expectRefusal(m_cluster->endpoints().data, frames, keyword);
    }

    // A peer that registered properly and then pushes gradients of the wrong size.
    void registeredPeerWithBadGradients() {
        RawPeer peer(m_cluster->context(), m_cluster->endpoints().data, securityFor(m_cluster->endpoints().data));
        wire::Envelope reg;
        reg.mutable_register_()->set_pid(1);
        reg.mutable_register_()->set_hostname("impostor");
        peer.send({serialized(reg)});
        const auto welcome = peer.reply();
        QVERIFY2(welcome && welcome->has_welcome(), "registration was not welcomed");
        const uint32_t id = welcome->welcome().worker_id();
        QCOMPARE(welcome->welcome().spec().parameter_count(), m_parameterCount);
        const struct {
            Frames frames;
            QString keyword;
        } cases[] = {
            {{pushEnvelope(id), floats(m_parameterCount + 1)}, "does not fit"},
            {{pushEnvelope(id), floats(m_parameterCount - 1)}, "needs a gradient of"},
            {{pushEnvelope(id)}, "needs a gradient of"},
            {{pushEnvelope(id + 1000), floats(m_parameterCount)}, "register"},  // someone else's id
        };
        for (const auto& c : cases) {
            peer.send(c.frames);
            const auto reply = peer.reply();
            QVERIFY2(reply && reply->has_error(), qPrintable("no Error for a case expecting " + c.keyword));
            ++m_refused;
            QVERIFY2(QString::fromStdString(reply->error().message()).contains(c.keyword),
                     reply->error().message().c_str());
        }
        // The same peer registering again is a worker whose message was lost on the way: it is
        // taken as lost and back, with its id and a new session token (the old one stops working).
        peer.send({serialized(reg)});
        const auto again = peer.reply();
        QVERIFY2(again && again->has_welcome(), "a second registration of the same peer was not welcomed back");
        QCOMPARE(again->welcome().worker_id(), id);
        QVERIFY(again->welcome().session_token() != welcome->welcome().session_token());
    }

    // No real worker can have computed on a version the model has not reached; accepting one makes
    // the staleness (version - base) wrap around, and with dynsgd the learning rate infinite.
    void gradientFromTheFutureIsRefused() {
        RawPeer peer(m_cluster->context(), m_cluster->endpoints().data, securityFor(m_cluster->endpoints().data));
        wire::Envelope reg;
        reg.mutable_register_()->set_pid(2);
        reg.mutable_register_()->set_hostname("time traveller");
        peer.send({serialized(reg)});
        const auto welcome = peer.reply();
        QVERIFY2(welcome && welcome->has_welcome(), "registration was not welcomed");
        wire::Envelope push;
        push.mutable_push()->set_worker_id(welcome->welcome().worker_id());
        push.mutable_push()->set_has_gradient(true);
        push.mutable_push()->set_batch_size(64);
        push.mutable_push()->set_base_version(uint64_t(1) << 40);
        peer.send({serialized(push), floats(m_parameterCount)});
        const auto reply = peer.reply();
        QVERIFY2(reply, "no reply within 2 s");
        QVERIFY2(reply->has_error(),
                 qPrintable("accepted: " + QString::fromStdString(reply->ShortDebugString()).left(300)));
        ++m_refused;
        QVERIFY2(QString::fromStdString(reply->error().message()).contains("version"),
                 reply->error().message().c_str());
    }

    // A registered aggregator's messages are checked as a worker's are: a sum must name its workers,
    // and only workers that registered through it; what it relays is answered through it. (Its
    // relayed registration finds the run's places taken by the peers above.)
    void aggregatorMessagesAreChecked() {
        RawPeer peer(m_cluster->context(), m_cluster->endpoints().data, securityFor(m_cluster->endpoints().data));
        wire::Envelope reg;
        reg.mutable_register_()->set_role(wire::ROLE_AGGREGATOR);
        reg.mutable_register_()->set_endpoint("tcp://127.0.0.1:1");
        peer.send({serialized(reg)});
        const auto welcome = peer.reply();
        QVERIFY2(welcome && welcome->has_welcome(), "the aggregator was not welcomed");
        QCOMPARE(welcome->welcome().spec().parameter_count(), m_parameterCount);
        wire::Envelope torn;
        *torn.mutable_gradient_sum()->add_pushes() = wire::Push();  // a push without its route
        peer.send({serialized(torn), floats(m_parameterCount)});
        auto reply = peer.reply();
        QVERIFY2(reply && reply->has_error(), "a sum without routes was not refused");
        ++m_refused;
        QVERIFY2(QString::fromStdString(reply->error().message()).contains("pushes, their routes"), reply->error().message().c_str());
        wire::Envelope ghost;
        wire::Push* push = ghost.mutable_gradient_sum()->add_pushes();
        push->set_worker_id(m_realWorkers.at(0));  // a real worker, but not one behind this aggregator
        push->set_has_gradient(true);
        push->set_batch_size(64);
        ghost.mutable_gradient_sum()->add_routes("ghost");
        peer.send({serialized(ghost), floats(m_parameterCount)});
        reply = peer.reply();
        QVERIFY2(reply && reply->has_error(), "a sum for a worker not behind the aggregator was not refused");
        ++m_refused;
        QCOMPARE(reply->route(), std::string("ghost"));  // answered to that route, through the aggregator
        QCOMPARE(reply->error().code(), wire::Error::NOT_REGISTERED);
        wire::Envelope hello;
        hello.set_route("behind");
        hello.mutable_register_()->set_pid(3);
        hello.mutable_register_()->set_hostname("relayed");
        peer.send({serialized(hello)});
        reply = peer.reply();
        // The run's places are taken by now (the impostors above): the answer is a refusal that
        // says so, sent through the aggregator to the worker's route.
        QVERIFY2(reply && reply->has_error(), "a relayed registration beyond the run's places was not refused");
        ++m_refused;
        QVERIFY2(QString::fromStdString(reply->error().message()).contains("the run takes"), reply->error().message().c_str());
        QCOMPARE(reply->route(), std::string("behind"));
    }

    void controlEndpointRefuses_data() {
        QTest::addColumn<Frames>("frames");
        QTest::addColumn<QString>("keyword");
        wire::Envelope stop;
        stop.mutable_control()->set_stop(true);
        const QString versions = QString(R"(99\.7.*%1\.%2)").arg(kProtocolMajor).arg(kProtocolMinor);
        QTest::newRow("garbage") << Frames{kGarbage} << "undecodable";
        QTest::newRow("wrong version") << Frames{serialized(stop, 99, 7)} << versions;
        QTest::newRow("oversized request") << Frames{QByteArray(100 << 10, 'x')} << "exceeds the limit of 65536";
        QTest::newRow("three frames") << Frames{serialized(stop), "junk", "junk"} << "got 3 frames";
        QTest::newRow("tensor frame") << Frames{serialized(stop), floats(4)} << "does not fit";
        QTest::newRow("not a control request") << Frames{pushEnvelope(0)} << "control requests only";
        QTest::newRow("empty frame") << Frames{QByteArray()} << "version 0\\.0|empty";
    }
    void controlEndpointRefuses() {
        QFETCH(Frames, frames);
        QFETCH(QString, keyword);
        expectRefusal(m_cluster->endpoints().control, frames, keyword);
    }

    // A request with no command is a valid envelope: it gets a ControlReply with ok=false.
    void controlRequestWithoutCommand() {
        const auto reply = m_cluster->control().request(wire::ControlRequest{});
        QVERIFY2(reply, reply.status().message().c_str());
        QVERIFY(!reply->ok());
        QVERIFY2(QString::fromStdString(reply->error()).contains("empty or unknown"), reply->error().c_str());
    }

    // Beyond ZeroMQ's own size limit the connection is cut: no reply, nothing to count, no harm.
    void controlMessageBeyondTransportLimitIsCutOff() {
        RawPeer peer(m_cluster->context(), m_cluster->endpoints().control, securityFor(m_cluster->endpoints().control));
        peer.send({QByteArray(3 << 20, 'x')});
        QVERIFY(!peer.reply(1000));
        wire::ControlRequest snapshot;
        snapshot.set_snapshot(true);
        const auto reply = m_cluster->control().request(snapshot);
        QVERIFY2(reply && reply->ok(), "the control endpoint stopped answering");
    }

    // Wrong socket types and writes on the telemetry port are the coordinator's no concern: the
    // DEALER is refused by ZeroMQ's handshake, an XSUB's junk upstream is ignored by PUB. A SUB
    // without keys gets nothing; with a view key it gets the ticks.
    void telemetryEndpointIgnoresStrangers() {
        zmq::context_t& context = m_cluster->context();
        const std::string endpoint = m_cluster->endpoints().telemetry;
        zmq::socket_t dealer(context, zmq::socket_type::dealer), xsub(context, zmq::socket_type::xsub),
            sub(context, zmq::socket_type::sub), stranger(context, zmq::socket_type::sub);
        for (zmq::socket_t* s : {&dealer, &xsub, &sub}) syncscope::engine::applySecurity(*s, m_cluster->clientSecurity(syncscope::engine::Role::View), false);
        for (zmq::socket_t* s : {&dealer, &xsub, &sub, &stranger}) {
            s->set(zmq::sockopt::linger, 0);
            s->connect(endpoint);
        }
        sub.set(zmq::sockopt::subscribe, "");
        stranger.set(zmq::sockopt::subscribe, "");
        (void)dealer.send(zmq::buffer(kGarbage.constData(), static_cast<size_t>(kGarbage.size())),
                          zmq::send_flags::dontwait);
        (void)xsub.send(zmq::buffer(kGarbage.constData(), static_cast<size_t>(kGarbage.size())),
                        zmq::send_flags::dontwait);
        (void)xsub.send(zmq::str_buffer(""), zmq::send_flags::dontwait);
        const std::string hugeTopic = "\x01" + std::string(100 << 10, 't');  // a subscription to nothing
        (void)xsub.send(zmq::buffer(hugeTopic), zmq::send_flags::dontwait);
        zmq::pollitem_t item{sub.handle(), 0, ZMQ_POLLIN, 0};
        QVERIFY2(zmq::poll(&item, 1, std::chrono::milliseconds(3000)) == 1, "a view-key SUB received no ticks");
        zmq::pollitem_t strangerItem{stranger.handle(), 0, ZMQ_POLLIN, 0};
        QCOMPARE(zmq::poll(&strangerItem, 1, std::chrono::milliseconds(500)), 0);  // no keys: no ticks
        zmq::pollitem_t dealerItem{dealer.handle(), 0, ZMQ_POLLIN, 0};
        QCOMPARE(zmq::poll(&dealerItem, 1, std::chrono::milliseconds(200)), 0);  // nothing for a DEALER
    }

    // Bytes that are not ZMTP at all, and a ZMTP greeting followed by junk, on every port.
    void rawTcpGarbageOnEveryPort() {
        QByteArray zmtpThenJunk(10, '\0');
        zmtpThenJunk[0] = '\xff';
        zmtpThenJunk[9] = '\x7f';  // the ZMTP 3 signature ...
        zmtpThenJunk += QByteArray("\x03\x00NULL", 6) + QByteArray(54, '\0') + QByteArray(4096, '\xee');
        const QByteArray junk = QByteArray(8192, '\xa5');
        const auto& e = m_cluster->endpoints();
        for (const std::string& endpoint : {e.data, e.control, e.telemetry}) {
            QVERIFY2(sendRawTcp(endpoint, junk), endpoint.c_str());
            QVERIFY2(sendRawTcp(endpoint, zmtpThenJunk), endpoint.c_str());
        }
    }

    // A subscriber that never reads: the coordinator's PUB drops its ticks instead of blocking,
    // so training and the other subscribers' 10 Hz ticks go on.
    void slowSubscriberNeverStallsTraining() {
        zmq::socket_t stuck(m_cluster->context(), zmq::socket_type::sub);
        stuck.set(zmq::sockopt::linger, 0);
        stuck.set(zmq::sockopt::rcvhwm, 1);
        stuck.set(zmq::sockopt::rcvbuf, 4096);
        stuck.set(zmq::sockopt::subscribe, "");
        syncscope::engine::applySecurity(stuck, m_cluster->clientSecurity(syncscope::engine::Role::View), false);
        stuck.connect(m_cluster->endpoints().telemetry);
        TelemetryProbe& telemetry = m_cluster->telemetry();
        const auto first = telemetry.waitForTick([](const wire::Tick&) { return true; }, 3000);
        QVERIFY(first);
        int ticks = 0;
        const auto last = telemetry.waitForTick(
            [&](const wire::Tick& t) { return ++ticks && t.time_s() >= first->time_s() + 3.0; }, 6000);
        QVERIFY2(last, "ticks stopped while a subscriber was not reading");
        QVERIFY2(ticks >= 20, qPrintable(QString("%1 ticks in 3 s").arg(ticks)));
        QVERIFY2(last->version() > first->version() + 10,
                 qPrintable(QString("version %1 -> %2").arg(first->version()).arg(last->version())));
    }

    // After all of it: every refusal counted, the coordinator alive, the real workers training.
    void coordinatorKeepsTrainingAndCountsRefusals() {
        TelemetryProbe& telemetry = m_cluster->telemetry();
        const auto counted =
            telemetry.waitForTick([&](const wire::Tick& t) { return t.bad_messages() >= m_refused; }, 3000);
        QVERIFY2(counted, qPrintable(QString("bad_messages %1 < %2 refused")
                                         .arg(telemetry.latest() ? telemetry.latest()->bad_messages() : 0)
                                         .arg(m_refused)));
        qInfo("%llu messages refused, bad_messages = %llu", static_cast<unsigned long long>(m_refused),
              static_cast<unsigned long long>(counted->bad_messages()));
        QVERIFY(m_cluster->coordinator().running());
        const uint64_t before = counted->version();
        std::map<uint32_t, uint64_t> pushedBefore;
        for (const auto& w : counted->workers()) pushedBefore[w.worker_id()] = w.pushed();
        auto later =
            telemetry.waitForTick([&](const wire::Tick& t) { return t.time_s() >= counted->time_s() + 2.0; }, 5000);
        QVERIFY2(later, "no ticks any more");
        QVERIFY2(later->state() == wire::RUN_RUNNING, qPrintable(QString("run state %1").arg(later->state())));
        QVERIFY2(later->version() > before + 10,
                 qPrintable(QString("version %1 -> %2").arg(before).arg(later->version())));
        for (const auto& w : later->workers()) {
            if (std::find(m_realWorkers.begin(), m_realWorkers.end(), w.worker_id()) == m_realWorkers.end()) continue;
            QVERIFY2(w.state() != wire::WORKER_LOST, qPrintable(QString("worker %1 lost").arg(w.worker_id())));
            QVERIFY2(w.pushed() > pushedBefore[w.worker_id()],
                     qPrintable(QString("worker %1 stalled").arg(w.worker_id())));
        }
        QVERIFY2(!m_cluster->logs().contains("terminate called"), qPrintable(m_cluster->logs()));
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "test_bad_input.moc"
