// Who may talk to a coordinator, tried as a stranger would, against real processes on loopback:
// without keys, with a wrong key, or with a view key nobody can stop, pause, change the mode or the
// learning rate, or join as a worker; a view key watches (ticks, snapshots); steer steers. The data
// plane holds against a peer with the worker key: forged heartbeats, oversized hostnames, pushes
// claiming another batch, too many registrations; a worker refuses a nonsense Welcome or Params.
// Credentials files must be private; --insecure listens on loopback only.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tests/integration/engine_cluster.h"

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
        m_seal = security.makeSeal(false);
        m_socket.connect(endpoint);
    }
    void send(wire::Envelope envelope, const std::vector<float>* tensor = nullptr) {
        if (!tensor) return engine::sendMessage(m_socket, nullptr, envelope, nullptr, m_seal.get());
        zmq::message_t frame(tensor->data(), tensor->size() * sizeof(float));
        engine::sendMessage(m_socket, nullptr, envelope, &frame, m_seal.get());
    }
    /// The next envelope, or nothing within `timeoutMs` (a connection the handshake refused); a
    /// sealed link's handshake frames are taken care of on the way.
    std::optional<engine::InboundMessage> reply(int timeoutMs = 2000) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        do {
            zmq::pollitem_t item{m_socket.handle(), 0, ZMQ_POLLIN, 0};
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (zmq::poll(&item, 1, std::max(left, std::chrono::milliseconds(0))) == 0) return std::nullopt;
            auto message = engine::receiveMessage(m_socket, false, {1 << 26, 1 << 26}, nullptr, m_seal.get());
            if (!message) continue;
            if (!*message) return std::nullopt;
            return std::move(message->value());
        } while (std::chrono::steady_clock::now() < deadline);
        return std::nullopt;
    }
    engine::LinkSeal* seal() { return m_seal.get(); }
    zmq::socket_t& socket() { return m_socket; }
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
    std::unique_ptr<engine::LinkSeal> m_seal;
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
    std::string err;
};

EngineResult runEngine(const Args& args, int timeoutMs = 30'000) {
    const ProgramRun run = runProgram(SYNCSCOPE_ENGINE_BINARY, args, timeoutMs);
    return {run.exitCode, run.started ? run.err : run.error};
}

}  // namespace

// The tests share one coordinator (2 workers, 2 spare places) the suite starts.
class TestSecurity : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        s_cluster = std::make_unique<EngineCluster>();
        auto started = s_cluster->startCoordinator({"--workers", "2", "--spare-workers", "2", "--model", "mlp",
                                                    "--max-seconds", "120", "--eval-interval", "5"});
        if (!started) {
            s_setupError = started.message();
            return;
        }
        s_cluster->startWorker();
        s_cluster->startWorker();
        if (!s_cluster->telemetry().waitForTick([](const wire::Tick& t) { return t.state() == wire::RUN_RUNNING; }, 30'000))
            s_setupError = s_cluster->logs();
    }
    static void TearDownTestSuite() { s_cluster.reset(); }
    // What initTestCase's failure did: no test runs on a cluster that did not start.
    void SetUp() override { ASSERT_TRUE(s_setupError.empty()) << s_setupError; }

    static bool stillRunning() {
        const auto tick = s_cluster->telemetry().waitForTick([](const wire::Tick&) { return true; }, 2000);
        return tick && tick->state() == wire::RUN_RUNNING;
    }

    static std::unique_ptr<EngineCluster> s_cluster;
    static std::string s_setupError;
};

std::unique_ptr<EngineCluster> TestSecurity::s_cluster;
std::string TestSecurity::s_setupError;

TEST_F(TestSecurity, strangersCannotSteer) {
    const std::string control = s_cluster->endpoints().control;
    Peer nobody(s_cluster->context(), control, {});
    Peer forged(s_cluster->context(), control, wrongKeys(s_cluster->credentials()));
    ASSERT_TRUE(!nobody.command(stopRequest(), 1500));  // the handshake is refused: nothing answers
    ASSERT_TRUE(!forged.command(stopRequest(), 1500));
    Peer nobodyWorker(s_cluster->context(), s_cluster->endpoints().data, {});
    nobodyWorker.send(registerEnvelope());
    ASSERT_TRUE(!nobodyWorker.reply(1500));
    ASSERT_TRUE(stillRunning());
}

TEST_F(TestSecurity, viewWatchesButCannotSteer) {
    Peer view(s_cluster->context(), s_cluster->endpoints().control, s_cluster->clientSecurity(Role::View));
    wire::ControlRequest snapshot;
    snapshot.set_snapshot(true);
    const auto reply = view.command(snapshot);
    ASSERT_TRUE(reply && reply->ok());
    ASSERT_EQ(reply->snapshot().client_role(), std::string("view"));
    ASSERT_EQ(reply->snapshot().authentication(), std::string("curve, data plane sealed"));
    ASSERT_TRUE(reply->snapshot().ticks_size() > 0);
    for (const wire::ControlRequest& request : steeringRequests()) {
        const auto refused = view.command(request);
        ASSERT_TRUE(refused && !refused->ok());
        ASSERT_TRUE(contains(refused->error(), "view role")) << refused->error().c_str();
    }
    TelemetryProbe viewTicks(s_cluster->context(), s_cluster->endpoints().telemetry, s_cluster->clientSecurity(Role::View));
    ASSERT_TRUE(viewTicks.waitForTick([](const wire::Tick&) { return true; }, 3000));
    TelemetryProbe strangerTicks(s_cluster->context(), s_cluster->endpoints().telemetry, {});
    ASSERT_TRUE(!strangerTicks.waitForTick([](const wire::Tick&) { return true; }, 1000));
    ASSERT_TRUE(stillRunning());
}

TEST_F(TestSecurity, onlyWorkerKeysJoinTheDataPlane) {
    for (Role role : {Role::View, Role::Steer}) {
        Peer impostor(s_cluster->context(), s_cluster->endpoints().data, s_cluster->clientSecurity(role));
        impostor.send(registerEnvelope());
        ASSERT_TRUE(!impostor.reply(1500)) << engine::roleName(role).c_str();
    }
}

TEST_F(TestSecurity, steerSteers) {
    wire::ControlRequest pause, resume;
    pause.set_pause(true);
    resume.set_resume(true);
    auto paused = s_cluster->control().request(pause);
    ASSERT_TRUE(paused && paused->ok());
    auto resumed = s_cluster->control().request(resume);
    ASSERT_TRUE(resumed && resumed->ok());
}

TEST_F(TestSecurity, snapshotsAreRateLimited) {
    Peer view(s_cluster->context(), s_cluster->endpoints().control, s_cluster->clientSecurity(Role::View));
    wire::ControlRequest snapshot;
    snapshot.set_snapshot(true);
    ASSERT_TRUE(view.command(snapshot)->ok());
    const auto again = view.command(snapshot);
    ASSERT_TRUE(again && !again->ok());
    ASSERT_TRUE(contains(again->error(), "at most one snapshot")) << again->error().c_str();
}

// A fake worker with the worker key: registered, but it cannot heartbeat for someone else, and
// what it says of itself is capped, escaped and checked.
TEST_F(TestSecurity, workerKeyHolderStaysInItsLane) {
    Peer fake(s_cluster->context(), s_cluster->endpoints().data, s_cluster->clientSecurity(Role::Worker));
    const std::string forgedLog = "host\n[   1.00s] stop: forged " + std::string(10'000, 'x');
    fake.send(registerEnvelope(forgedLog));
    const auto welcome = fake.reply();
    ASSERT_TRUE(welcome && welcome->envelope.has_welcome());
    const uint32_t id = welcome->envelope.welcome().worker_id();
    ASSERT_TRUE(welcome->envelope.welcome().session_token() != 0);
    const auto joined = s_cluster->telemetry().waitForEvent(
        [&](const wire::Event& e) { return e.kind() == wire::EVENT_WORKER_JOINED && e.worker_id() == id; }, 3000);
    ASSERT_TRUE(joined);
    ASSERT_TRUE(joined->detail().size() < 400) << joined->detail().substr(0, 100).c_str();
    ASSERT_TRUE(joined->detail().find('\n') == std::string::npos);
    ASSERT_TRUE(joined->detail().find("\\x0a") != std::string::npos);

    wire::Envelope beat;  // heartbeats for a real worker, without its token
    beat.mutable_register_()->set_heartbeat_only(true);
    beat.mutable_register_()->set_worker_id(0);
    fake.send(beat);
    auto refused = fake.reply();
    ASSERT_TRUE(refused && refused->envelope.has_error());
    ASSERT_TRUE(contains(refused->envelope.error().message(), "session token")) << refused->envelope.error().message().c_str();

    wire::Envelope pull;  // its first pull, then a push claiming 8x the batch it was given
    pull.mutable_push()->set_worker_id(id);
    fake.send(pull);
    const auto params = fake.reply(5000);
    ASSERT_TRUE(params && params->envelope.has_params() && params->tensor);
    wire::Envelope push;
    push.mutable_push()->set_worker_id(id);
    push.mutable_push()->set_has_gradient(true);
    push.mutable_push()->set_base_version(params->envelope.params().version());
    push.mutable_push()->set_batch_size(8 * params->envelope.params().batch_size());
    const std::vector<float> gradient(params->tensor->size() / sizeof(float), 0.0f);
    fake.send(push, &gradient);
    refused = fake.reply();
    ASSERT_TRUE(refused && refused->envelope.has_error());
    ASSERT_TRUE(contains(refused->envelope.error().message(), "it was given")) << refused->envelope.error().message().c_str();
}

// A killed worker is declared lost although a stranger keeps heartbeating for it.
TEST_F(TestSecurity, forgedHeartbeatsKeepNoDeadWorkerAlive) {
    Peer forger(s_cluster->context(), s_cluster->endpoints().data, s_cluster->clientSecurity(Role::Worker));
    const std::string tag = "pid " + std::to_string(s_cluster->worker(0).pid()) + "@";
    const auto joined = s_cluster->telemetry().waitForEvent(
        [&](const wire::Event& e) { return e.kind() == wire::EVENT_WORKER_JOINED && e.detail().find(tag) != std::string::npos; },
        3000);
    ASSERT_TRUE(joined) << "no worker_joined event names the first worker's pid";
    const uint32_t victim = joined->worker_id();
    s_cluster->worker(0).kill();
    const Deadline deadline(8000);
    bool lost = false;
    while (!lost && !deadline.expired()) {
        wire::Envelope hello;
        hello.mutable_register_()->set_heartbeat_only(true);
        hello.mutable_register_()->set_worker_id(victim);
        hello.mutable_register_()->set_session_token(1);  // a guess
        forger.send(hello);
        wire::Envelope beat;
        beat.mutable_heartbeat()->set_worker_id(victim);
        forger.send(beat);
        lost = s_cluster->telemetry()
                   .waitForEvent([&](const wire::Event& e) {
                       return e.kind() == wire::EVENT_WORKER_LOST && e.worker_id() == victim;
                   }, 200)
                   .has_value();
    }
    ASSERT_TRUE(lost) << "the killed worker was never declared lost\n" + s_cluster->logs();
}

TEST_F(TestSecurity, registrationsAreCapped) {
    EngineCluster small;
    auto started = small.startCoordinator({"--workers", "1", "--spare-workers", "0", "--max-seconds", "30"});
    ASSERT_TRUE(started) << started.message().c_str();
    Peer first(small.context(), small.endpoints().data, small.clientSecurity(Role::Worker));
    Peer second(small.context(), small.endpoints().data, small.clientSecurity(Role::Worker));
    first.send(registerEnvelope());
    const auto welcome = first.reply();
    ASSERT_TRUE(welcome && welcome->envelope.has_welcome());
    second.send(registerEnvelope());
    const auto refused = second.reply();
    ASSERT_TRUE(refused && refused->envelope.has_error());
    ASSERT_TRUE(contains(refused->envelope.error().message(), "takes 1 workers and 0 spare")) << refused->envelope.error().message().c_str();
}

TEST_F(TestSecurity, gradientNormGuardDropsWithItsReason) {
    EngineCluster guarded;
    TempDir dir;
    const std::string recording = dir.filePath("run.ssrec");
    auto started = guarded.startCoordinator(
        {"--workers", "1", "--mode", "asp", "--max-gradient-norm", "1", "--max-seconds", "30", "--record", recording});
    ASSERT_TRUE(started) << started.message().c_str();
    Peer fake(guarded.context(), guarded.endpoints().data, guarded.clientSecurity(Role::Worker));
    fake.send(registerEnvelope());
    const auto welcome = fake.reply();
    ASSERT_TRUE(welcome && welcome->envelope.has_welcome());
    wire::Envelope pull;
    pull.mutable_push()->set_worker_id(welcome->envelope.welcome().worker_id());
    fake.send(pull);
    const auto params = fake.reply(5000);
    ASSERT_TRUE(params && params->envelope.has_params());
    wire::Envelope push = pull;
    push.mutable_push()->set_has_gradient(true);
    push.mutable_push()->set_batch_size(params->envelope.params().batch_size());
    const std::vector<float> huge(params->tensor->size() / sizeof(float), 1e15f);  // finite, and absurd
    fake.send(push, &huge);
    const auto next = fake.reply(5000);
    ASSERT_TRUE(next && next->envelope.has_params()) << "the worker was not given parameters again after the drop";
    ASSERT_EQ(next->envelope.params().version(), params->envelope.params().version());  // nothing applied
    const auto counted = guarded.telemetry().waitForTick([](const wire::Tick& t) { return t.dropped() == 1; }, 3000);
    ASSERT_TRUE(counted);
}

TEST_F(TestSecurity, credentialsMustBePrivateAndInsecureStaysLocal) {
    TempDir dir;
    const std::string keys = dir.filePath("credentials");
    ASSERT_TRUE(engine::Credentials::generate().save(keys));
    ASSERT_TRUE(::chmod(keys.c_str(), 0644) == 0);
    EngineResult open = runEngine({"serve", "--credentials", keys, "--data-port", "0", "--control-port", "0",
                                   "--telemetry-port", "0"});
    ASSERT_TRUE(open.exitCode == 2);
    ASSERT_TRUE(contains(open.err, "chmod 600")) << open.err;
    EngineResult wide = runEngine({"serve", "--insecure", "--bind", "0.0.0.0"});
    ASSERT_TRUE(wide.exitCode == 2);
    ASSERT_TRUE(contains(wide.err, "loopback")) << wide.err;
}

TEST_F(TestSecurity, keygenWritesOnlyWhatARoleNeeds) {
    TempDir dir;
    const std::string all = dir.filePath("all"), view = dir.filePath("view");
    const EngineResult made = runEngine({"keygen", "--credentials", all, "--role", "view", "--out", view});
    ASSERT_TRUE(made.exitCode == 0) << made.err;
    struct stat info {};
    ASSERT_TRUE(::stat(view.c_str(), &info) == 0);
    ASSERT_EQ(info.st_mode & 0777, 0600u);
    auto loaded = engine::Credentials::load(view);
    ASSERT_TRUE(loaded) << loaded.status().message().c_str();
    ASSERT_TRUE(loaded->serverSecret.empty());
    ASSERT_EQ(loaded->clients.size(), size_t(1));
    ASSERT_TRUE(loaded->clients.count(Role::View));
    ASSERT_TRUE(loaded->workerToken.empty());
    ASSERT_EQ(loaded->serverPublic, engine::Credentials::load(all)->serverPublic);
}

// A worker checks what a coordinator sends before relying on it.
TEST_F(TestSecurity, workerRefusesNonsenseFromACoordinator) {
    for (int nonsense = 0; nonsense < 2; ++nonsense) {
        zmq::context_t context;
        zmq::socket_t router(context, zmq::socket_type::router);
        router.set(zmq::sockopt::linger, 0);
        router.bind("tcp://127.0.0.1:*");
        const std::string endpoint = router.get(zmq::sockopt::last_endpoint);
        TempDir logs;
        EngineChild worker(logs.path(), "worker",
                           {"work", "--insecure", "--connect", endpoint, "--data", SYNCSCOPE_FASHION_MNIST_DIR});
        auto next = [&] {  // the worker's next data-plane message (its heartbeat socket's are skipped)
            const Deadline deadline(15'000);
            while (!deadline.expired()) {
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
        ASSERT_TRUE(hello.has_register_());
        wire::Envelope welcome;
        welcome.mutable_welcome()->mutable_spec()->set_model("mlp");
        welcome.mutable_welcome()->mutable_spec()->set_batch_size(64);
        welcome.mutable_welcome()->mutable_spec()->set_parameter_count(235146);
        welcome.mutable_welcome()->mutable_spec()->set_shard_count(nonsense == 0 ? 0 : 1);
        welcome.mutable_welcome()->mutable_spec()->set_data_dir(SYNCSCOPE_FASHION_MNIST_DIR);
        engine::sendMessage(router, &identity, welcome);
        if (nonsense == 1) {  // a sane Welcome, then Params asking for a sleep of 30 years
            auto [again, pull] = next();
            ASSERT_TRUE(pull.has_push());
            wire::Envelope params;
            params.mutable_params()->set_version(0);
            params.mutable_params()->mutable_slowdown()->set_factor(1);
            params.mutable_params()->mutable_slowdown()->set_fixed_delay_ms(1e12);
            std::vector<float> zeros(235146, 0.0f);
            zmq::message_t tensor(zeros.data(), zeros.size() * sizeof(float));
            engine::sendMessage(router, &again, params, &tensor);
        }
        ASSERT_TRUE(worker.waitForExit(20'000)) << "the worker did not exit";
        const std::string err = worker.stderrText();
        ASSERT_TRUE(worker.exitCode() != 0);
        ASSERT_TRUE(contains(err, nonsense == 0 ? "shard 0 of 0" : "nonsensical slowdown")) << err;
    }
}

// Workers with keys of their own (`keygen --name`): one is revoked while the run goes on and is cut
// off at once (told why, marked lost, refused when it comes back), the other trains on, and a
// worker named after the coordinator started is admitted without a restart. On the sealed data
// plane (serve's default) and the authenticated one.
TEST_F(TestSecurity, aRevokedWorkerIsCutOffWhileTheOthersTrainOn) {
    for (const char* plane : {"encrypted", "authenticated"}) {
        SCOPED_TRACE(plane);
        EngineCluster cluster;
        const std::string all = cluster.credentialsPath();
        TempDir dir;
        const std::string alice = dir.filePath("alice"), bob = dir.filePath("bob");
        EngineResult made = runEngine({"keygen", "--credentials", all, "--role", "worker", "--name", "alice", "--out", alice});
        ASSERT_EQ(made.exitCode, 0) << made.err;
        ASSERT_TRUE(cluster.startCoordinator({"--workers", "2", "--mode", "asp", "--until-stopped", "--data-plane", plane}))
            << cluster.logs();
        made = runEngine({"keygen", "--credentials", all, "--role", "worker", "--name", "bob", "--out", bob});
        ASSERT_EQ(made.exitCode, 0) << made.err;
        cluster.startWorker({"--credentials", alice});
        cluster.startWorker({"--credentials", bob});
        const auto both = cluster.telemetry().waitForTick(
            [](const wire::Tick& t) { return t.workers_size() == 2 && t.version() > 20; }, 30'000);
        ASSERT_TRUE(both) << "the named workers did not both train\n" << cluster.logs();

        made = runEngine({"revoke", "--credentials", all, "--name", "alice"});
        ASSERT_EQ(made.exitCode, 0) << made.err;
        const auto cut = cluster.telemetry().waitForEvent(
            [](const wire::Event& e) {
                return e.kind() == wire::EVENT_WORKER_LOST && e.detail().find("'alice'") != std::string::npos;
            },
            5'000);
        ASSERT_TRUE(cut) << "the revoked worker was not cut off\n" << cluster.logs();
        ASSERT_TRUE(cluster.worker(0).waitForExit(10'000)) << cluster.worker(0).stderrText();
        EXPECT_TRUE(contains(cluster.worker(0).stderrText(), "revoked")) << cluster.worker(0).stderrText();
        const auto after = cluster.telemetry().waitForTick([](const wire::Tick&) { return true; }, 3'000);
        ASSERT_TRUE(after);
        const auto onward = cluster.telemetry().waitForTick(
            [&](const wire::Tick& t) { return t.version() > after->version() + 20; }, 15'000);
        ASSERT_TRUE(onward) << "the other worker stopped training\n" << cluster.logs();

        EngineChild& again = cluster.startWorker({"--credentials", alice, "--register-timeout", "2"});
        ASSERT_TRUE(again.waitForExit(15'000)) << "a revoked worker was let back in\n" << cluster.logs();
        EXPECT_NE(again.exitCode(), 0);
        const auto joined = cluster.telemetry().waitForEvent(
            [](const wire::Event& e) { return e.kind() == wire::EVENT_WORKER_JOINED && e.worker_id() > 1; }, 500);
        EXPECT_FALSE(joined) << "a revoked worker joined again: " << joined->detail();
    }
    // Revoking a name nobody was given says which names there are.
    TempDir dir;
    const std::string all = dir.filePath("all"), carol = dir.filePath("carol");
    ASSERT_EQ(runEngine({"keygen", "--credentials", all, "--role", "worker", "--name", "carol", "--out", carol}).exitCode, 0);
    const EngineResult unknown = runEngine({"revoke", "--credentials", all, "--name", "dave"});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_TRUE(contains(unknown.err, "no worker is named 'dave'") && contains(unknown.err, "carol")) << unknown.err;
    const EngineResult twice = runEngine({"keygen", "--credentials", all, "--role", "worker", "--name", "carol", "--out", carol + "2"});
    EXPECT_EQ(twice.exitCode, 2);
    EXPECT_TRUE(contains(twice.err, "revoke them first")) << twice.err;
}
