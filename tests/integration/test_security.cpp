// Who may talk to a coordinator, tried as a stranger would, against real processes on loopback:
// without keys, with a wrong key, or with a view key nobody can stop, pause, change the mode or the
// learning rate, or join as a worker; a view key watches (ticks, snapshots); steer steers. The data
// plane holds against a peer with the worker key: forged heartbeats, oversized hostnames, pushes
// claiming another batch, too many registrations; a worker refuses a nonsense Welcome or Params.
// Credentials files must be private; --insecure listens on loopback only.
#include <sys/stat.h>

#include <QFile>
#include <QTest>

#include <fstream>

#include "cluster_fixture.h"

using namespace syncscope::testing;
namespace engine = syncscope::engine;
namespace wire = syncscope::wire;
using engine::EndpointSecurity;
using engine::Role;

namespace {

/// A client speaking the wire protocol with whatever keys it is given (none, wrong, a role's).
class Peer {
public:
    Peer(zmq::context_t& context, const std::string& endpoint, const EndpointSecurity& security)
        : m_socket(context, zmq::socket_type::dealer) {
        m_socket.set(zmq::sockopt::linger, 0);
        m_socket.set(zmq::sockopt::sndtimeo, 1000);  // a refused handshake leaves no peer to queue for
        engine::applySecurity(m_socket, security, false);
        m_socket.connect(endpoint);
    }
    void send(wire::Envelope envelope, const std::vector<float>* tensor = nullptr) {
        if (!tensor) return engine::sendMessage(m_socket, nullptr, envelope);
        zmq::message_t frame(tensor->data(), tensor->size() * sizeof(float));
        engine::sendMessage(m_socket, nullptr, envelope, &frame);
    }
    /// The next envelope, or nothing within `timeoutMs` (a connection the handshake refused).
    std::optional<engine::InboundMessage> reply(int timeoutMs = 2000) {
        zmq::pollitem_t item{m_socket.handle(), 0, ZMQ_POLLIN, 0};
        if (zmq::poll(&item, 1, std::chrono::milliseconds(timeoutMs)) == 0) return std::nullopt;
        auto message = engine::receiveMessage(m_socket, false, {1 << 26, 1 << 26});
        if (!message || !*message) return std::nullopt;
        return std::move(message->value());
    }
    std::optional<wire::ControlReply> command(const wire::ControlRequest& request, int timeoutMs = 2000) {
        wire::Envelope envelope;
        *envelope.mutable_control() = request;
        send(envelope);
        auto in = reply(timeoutMs);
        if (!in || !in->envelope.has_control_reply()) return std::nullopt;
        return in->envelope.control_reply();
    }

private:
    zmq::socket_t m_socket;
};

wire::ControlRequest stopRequest() {
    wire::ControlRequest r;
    r.set_stop(true);
    return r;
}

std::vector<wire::ControlRequest> steeringRequests() {
    std::vector<wire::ControlRequest> all(4);
    all[0].set_stop(true);
    all[1].set_pause(true);
    all[2].mutable_set_mode()->mutable_settings()->set_mode(wire::ASP);
    all[3].mutable_set_learning_rate()->set_learning_rate(0.5f);
    return all;
}

wire::Envelope registerEnvelope(const std::string& hostname = "fake") {
    wire::Envelope e;
    e.mutable_register_()->set_pid(4242);
    e.mutable_register_()->set_hostname(hostname);
    return e;
}

EndpointSecurity wrongKeys(const engine::Credentials& real) {
    engine::Credentials forged;
    forged.serverPublic = real.serverPublic;  // the server's public key is no secret
    forged.clients[Role::Steer] = engine::KeyPair::generate();
    return EndpointSecurity::client(&forged, Role::Steer);
}

struct EngineResult {
    int exitCode;
    QString err;
};

EngineResult runEngine(const QStringList& args, int timeoutMs = 30'000) {
    QProcess p;
    p.start(SYNCSCOPE_ENGINE_BINARY, args);
    p.waitForFinished(timeoutMs);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace

class TestSecurity : public QObject {
    Q_OBJECT
    std::unique_ptr<ClusterFixture> m_cluster;

    bool stillRunning() {
        const auto tick = m_cluster->telemetry().waitForTick([](const wire::Tick&) { return true; }, 2000);
        return tick && tick->state() == wire::RUN_RUNNING;
    }

private slots:
    void initTestCase() {
        m_cluster = std::make_unique<ClusterFixture>();
        auto started = m_cluster->startCoordinator({"--workers", "2", "--spare-workers", "2", "--model", "mlp",
                                                    "--max-seconds", "120", "--eval-interval", "5"});
        QVERIFY2(started, started.message().c_str());
        m_cluster->startWorker();
        m_cluster->startWorker();
        QVERIFY2(m_cluster->telemetry().waitForTick([](const wire::Tick& t) { return t.state() == wire::RUN_RUNNING; }, 30'000),
                 qPrintable(m_cluster->logs()));
    }
    void cleanupTestCase() { m_cluster.reset(); }

    void strangersCannotSteer() {
        const std::string control = m_cluster->endpoints().control;
        Peer nobody(m_cluster->context(), control, {});
        Peer forged(m_cluster->context(), control, wrongKeys(m_cluster->credentials()));
        QVERIFY(!nobody.command(stopRequest(), 1500));  // the handshake is refused: nothing answers
        QVERIFY(!forged.command(stopRequest(), 1500));
        Peer nobodyWorker(m_cluster->context(), m_cluster->endpoints().data, {});
        nobodyWorker.send(registerEnvelope());
        QVERIFY(!nobodyWorker.reply(1500));
        QVERIFY(stillRunning());
    }

    void viewWatchesButCannotSteer() {
        Peer view(m_cluster->context(), m_cluster->endpoints().control, m_cluster->clientSecurity(Role::View));
        wire::ControlRequest snapshot;
        snapshot.set_snapshot(true);
        const auto reply = view.command(snapshot);
        QVERIFY(reply && reply->ok());
        QCOMPARE(reply->snapshot().client_role(), std::string("view"));
        QCOMPARE(reply->snapshot().authentication(), std::string("curve"));
        QVERIFY(reply->snapshot().ticks_size() > 0);
        for (const wire::ControlRequest& request : steeringRequests()) {
            const auto refused = view.command(request);
            QVERIFY(refused && !refused->ok());
            QVERIFY2(QString::fromStdString(refused->error()).contains("view role"), refused->error().c_str());
        }
        TelemetryProbe viewTicks(m_cluster->context(), m_cluster->endpoints().telemetry, m_cluster->clientSecurity(Role::View));
        QVERIFY(viewTicks.waitForTick([](const wire::Tick&) { return true; }, 3000));
        TelemetryProbe strangerTicks(m_cluster->context(), m_cluster->endpoints().telemetry, {});
        QVERIFY(!strangerTicks.waitForTick([](const wire::Tick&) { return true; }, 1000));
        QVERIFY(stillRunning());
    }

    void onlyWorkerKeysJoinTheDataPlane() {
        for (Role role : {Role::View, Role::Steer}) {
            Peer impostor(m_cluster->context(), m_cluster->endpoints().data, m_cluster->clientSecurity(role));
            impostor.send(registerEnvelope());
            QVERIFY2(!impostor.reply(1500), engine::roleName(role).c_str());
        }
    }

    void steerSteers() {
        wire::ControlRequest pause, resume;
        pause.set_pause(true);
        resume.set_resume(true);
        auto paused = m_cluster->control().request(pause);
        QVERIFY(paused && paused->ok());
        auto resumed = m_cluster->control().request(resume);
        QVERIFY(resumed && resumed->ok());
    }

    void snapshotsAreRateLimited() {
        Peer view(m_cluster->context(), m_cluster->endpoints().control, m_cluster->clientSecurity(Role::View));
        wire::ControlRequest snapshot;
        snapshot.set_snapshot(true);
        QVERIFY(view.command(snapshot)->ok());
        const auto again = view.command(snapshot);
        QVERIFY(again && !again->ok());
        QVERIFY2(QString::fromStdString(again->error()).contains("at most one snapshot"), again->error().c_str());
    }

    // A fake worker with the worker key: registered, but it cannot heartbeat for someone else, and
    // what it says of itself is capped, escaped and checked.
    void workerKeyHolderStaysInItsLane() {
        Peer fake(m_cluster->context(), m_cluster->endpoints().data, m_cluster->clientSecurity(Role::Worker));
        const std::string forgedLog = "host\n[   1.00s] stop: forged " + std::string(10'000, 'x');
        fake.send(registerEnvelope(forgedLog));
        const auto welcome = fake.reply();
        QVERIFY(welcome && welcome->envelope.has_welcome());
        const uint32_t id = welcome->envelope.welcome().worker_id();
        QVERIFY(welcome->envelope.welcome().session_token() != 0);
        const auto joined = m_cluster->telemetry().waitForEvent(
            [&](const wire::Event& e) { return e.kind() == wire::EVENT_WORKER_JOINED && e.worker_id() == id; }, 3000);
        QVERIFY(joined);
        QVERIFY2(joined->detail().size() < 400, joined->detail().substr(0, 100).c_str());
        QVERIFY(joined->detail().find('\n') == std::string::npos);
        QVERIFY(joined->detail().find("\\x0a") != std::string::npos);

        wire::Envelope beat;  // heartbeats for a real worker, without its token
        beat.mutable_register_()->set_heartbeat_only(true);
        beat.mutable_register_()->set_worker_id(0);
        fake.send(beat);
        auto refused = fake.reply();
        QVERIFY(refused && refused->envelope.has_error());
        QVERIFY2(QString::fromStdString(refused->envelope.error().message()).contains("session token"),
                 refused->envelope.error().message().c_str());

        wire::Envelope pull;  // its first pull, then a push claiming 8x the batch it was given
        pull.mutable_push()->set_worker_id(id);
        fake.send(pull);
        const auto params = fake.reply(5000);
        QVERIFY(params && params->envelope.has_params() && params->tensor);
        wire::Envelope push;
        push.mutable_push()->set_worker_id(id);
        push.mutable_push()->set_has_gradient(true);
        push.mutable_push()->set_base_version(params->envelope.params().version());
        push.mutable_push()->set_batch_size(8 * params->envelope.params().batch_size());
        const std::vector<float> gradient(params->tensor->size() / sizeof(float), 0.0f);
        fake.send(push, &gradient);
        refused = fake.reply();
        QVERIFY(refused && refused->envelope.has_error());
        QVERIFY2(QString::fromStdString(refused->envelope.error().message()).contains("it was given"),
                 refused->envelope.error().message().c_str());
    }

    // A killed worker is declared lost although a stranger keeps heartbeating for it.
    void forgedHeartbeatsKeepNoDeadWorkerAlive() {
        Peer forger(m_cluster->context(), m_cluster->endpoints().data, m_cluster->clientSecurity(Role::Worker));
        const std::string tag = "pid " + std::to_string(m_cluster->worker(0).pid()) + "@";
        const auto joined = m_cluster->telemetry().waitForEvent(
            [&](const wire::Event& e) { return e.kind() == wire::EVENT_WORKER_JOINED && e.detail().find(tag) != std::string::npos; },
            3000);
        QVERIFY2(joined, "no worker_joined event names the first worker's pid");
        const uint32_t victim = joined->worker_id();
        m_cluster->worker(0).kill();
        QDeadlineTimer deadline(8000);
        bool lost = false;
        while (!lost && !deadline.hasExpired()) {
            wire::Envelope hello;
            hello.mutable_register_()->set_heartbeat_only(true);
            hello.mutable_register_()->set_worker_id(victim);
            hello.mutable_register_()->set_session_token(1);  // a guess
            forger.send(hello);
            wire::Envelope beat;
            beat.mutable_heartbeat()->set_worker_id(victim);
            forger.send(beat);
            lost = m_cluster->telemetry()
                       .waitForEvent([&](const wire::Event& e) {
                           return e.kind() == wire::EVENT_WORKER_LOST && e.worker_id() == victim;
                       }, 200)
                       .has_value();
        }
        QVERIFY2(lost, qPrintable("the killed worker was never declared lost\n" + m_cluster->logs()));
    }

    void registrationsAreCapped() {
        ClusterFixture small;
        auto started = small.startCoordinator({"--workers", "1", "--spare-workers", "0", "--max-seconds", "30"});
        QVERIFY2(started, started.message().c_str());
        Peer first(small.context(), small.endpoints().data, small.clientSecurity(Role::Worker));
        Peer second(small.context(), small.endpoints().data, small.clientSecurity(Role::Worker));
        first.send(registerEnvelope());
        const auto welcome = first.reply();
        QVERIFY(welcome && welcome->envelope.has_welcome());
        second.send(registerEnvelope());
        const auto refused = second.reply();
        QVERIFY(refused && refused->envelope.has_error());
        QVERIFY2(QString::fromStdString(refused->envelope.error().message()).contains("takes 1 workers and 0 spare"),
                 refused->envelope.error().message().c_str());
    }

    void gradientNormGuardDropsWithItsReason() {
        ClusterFixture guarded;
        QTemporaryDir dir;
        const QString recording = dir.filePath("run.ssrec");
        auto started = guarded.startCoordinator(
            {"--workers", "1", "--mode", "asp", "--max-gradient-norm", "1", "--max-seconds", "30", "--record", recording});
        QVERIFY2(started, started.message().c_str());
        Peer fake(guarded.context(), guarded.endpoints().data, guarded.clientSecurity(Role::Worker));
        fake.send(registerEnvelope());
        const auto welcome = fake.reply();
        QVERIFY(welcome && welcome->envelope.has_welcome());
        wire::Envelope pull;
        pull.mutable_push()->set_worker_id(welcome->envelope.welcome().worker_id());
        fake.send(pull);
        const auto params = fake.reply(5000);
        QVERIFY(params && params->envelope.has_params());
        wire::Envelope push = pull;
        push.mutable_push()->set_has_gradient(true);
        push.mutable_push()->set_batch_size(params->envelope.params().batch_size());
        const std::vector<float> huge(params->tensor->size() / sizeof(float), 1e15f);  // finite, and absurd
        fake.send(push, &huge);
        const auto next = fake.reply(5000);
        QVERIFY2(next && next->envelope.has_params(), "the worker was not given parameters again after the drop");
        QCOMPARE(next->envelope.params().version(), params->envelope.params().version());  // nothing applied
        const auto counted = guarded.telemetry().waitForTick([](const wire::Tick& t) { return t.dropped() == 1; }, 3000);
        QVERIFY(counted);
    }

    void credentialsMustBePrivateAndInsecureStaysLocal() {
        QTemporaryDir dir;
        const QString keys = dir.filePath("credentials");
        QVERIFY(engine::Credentials::generate().save(keys.toStdString()));
        QVERIFY(::chmod(keys.toLocal8Bit().constData(), 0644) == 0);
        EngineResult open = runEngine({"serve", "--credentials", keys, "--data-port", "0", "--control-port", "0",
                                       "--telemetry-port", "0"});
        QVERIFY(open.exitCode == 2);
        QVERIFY2(open.err.contains("chmod 600"), qPrintable(open.err));
        EngineResult wide = runEngine({"serve", "--insecure", "--bind", "0.0.0.0"});
        QVERIFY(wide.exitCode == 2);
        QVERIFY2(wide.err.contains("loopback"), qPrintable(wide.err));
    }

    void keygenWritesOnlyWhatARoleNeeds() {
        QTemporaryDir dir;
        const QString all = dir.filePath("all"), view = dir.filePath("view");
        const EngineResult made = runEngine({"keygen", "--credentials", all, "--role", "view", "--out", view});
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        struct stat info {};
        QVERIFY(::stat(view.toLocal8Bit().constData(), &info) == 0);
        QCOMPARE(info.st_mode & 0777, 0600u);
        auto loaded = engine::Credentials::load(view.toStdString());
        QVERIFY2(loaded, loaded.status().message().c_str());
        QVERIFY(loaded->serverSecret.empty());
        QCOMPARE(loaded->clients.size(), size_t(1));
        QVERIFY(loaded->clients.count(Role::View));
        QVERIFY(loaded->workerToken.empty());
        QCOMPARE(loaded->serverPublic, engine::Credentials::load(all.toStdString())->serverPublic);
    }

    // A worker checks what a coordinator sends before relying on it.
    void workerRefusesNonsenseFromACoordinator() {
        for (int nonsense = 0; nonsense < 2; ++nonsense) {
            zmq::context_t context;
            zmq::socket_t router(context, zmq::socket_type::router);
            router.set(zmq::sockopt::linger, 0);
            router.bind("tcp://127.0.0.1:*");
            const std::string endpoint = router.get(zmq::sockopt::last_endpoint);
            QProcess worker;
            worker.start(SYNCSCOPE_ENGINE_BINARY, {"work", "--insecure", "--connect", QString::fromStdString(endpoint),
                                                   "--data", SYNCSCOPE_FASHION_MNIST_DIR});
            auto next = [&] {  // the worker's next data-plane message (its heartbeat socket's are skipped)
                QDeadlineTimer deadline(15'000);
                while (!deadline.hasExpired()) {
                    zmq::pollitem_t item{router.handle(), 0, ZMQ_POLLIN, 0};
                    zmq::poll(&item, 1, std::chrono::milliseconds(100));
                    std::string identity;
                    auto message = engine::receiveMessage(router, true, {1 << 20, 1 << 26}, &identity);
                    if (!message || !*message) continue;
                    const wire::Envelope& e = message->value().envelope;
                    if (e.has_heartbeat() || (e.has_register_() && e.register_().heartbeat_only())) continue;
                    return std::make_pair(identity, e);
                }
                return std::make_pair(std::string(), wire::Envelope());
            };
            auto [identity, hello] = next();
            QVERIFY(hello.has_register_());
            wire::Envelope welcome;
            welcome.mutable_welcome()->mutable_spec()->set_model("mlp");
            welcome.mutable_welcome()->mutable_spec()->set_batch_size(64);
            welcome.mutable_welcome()->mutable_spec()->set_parameter_count(235146);
            welcome.mutable_welcome()->mutable_spec()->set_shard_count(nonsense == 0 ? 0 : 1);
            welcome.mutable_welcome()->mutable_spec()->set_data_dir(SYNCSCOPE_FASHION_MNIST_DIR);
            engine::sendMessage(router, &identity, welcome);
            if (nonsense == 1) {  // a sane Welcome, then Params asking for a sleep of 30 years
                auto [again, pull] = next();
                QVERIFY(pull.has_push());
                wire::Envelope params;
                params.mutable_params()->set_version(0);
                params.mutable_params()->mutable_slowdown()->set_factor(1);
                params.mutable_params()->mutable_slowdown()->set_fixed_delay_ms(1e12);
                std::vector<float> zeros(235146, 0.0f);
                zmq::message_t tensor(zeros.data(), zeros.size() * sizeof(float));
                engine::sendMessage(router, &again, params, &tensor);
            }
            QVERIFY2(worker.waitForFinished(20'000), "the worker did not exit");
            const QString err = QString::fromUtf8(worker.readAllStandardError());
            QVERIFY(worker.exitCode() != 0);
            QVERIFY2(err.contains(nonsense == 0 ? "shard 0 of 0" : "nonsensical slowdown"), qPrintable(err));
        }
    }
};

QTEST_GUILESS_MAIN(TestSecurity)
#include "test_security.moc"
