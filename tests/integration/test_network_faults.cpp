// Network faults with real processes in their own network namespaces: the coordinator and each
// worker sit in a namespace of their own, joined to this one by veth pairs, and every worker
// reaches the coordinator through a FaultProxy here that adds 50 ms to every chunk each way and
// drops connections (1% a second, and all of a worker's at once mid-run). Training completes; a
// worker cut off for 30 s is declared lost, the run goes on without it, and it rejoins when the
// partition heals. Needs root for `ip netns` (skips with the reason otherwise). A worker whose stop
// was lost with a dropped connection still ends cleanly (on loopback: no root needed).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "tests/integration/engine_cluster.h"
#include "tests/integration/fault_proxy.h"
#include "tests/integration/network_lab.h"

using namespace syncscope::testing;
namespace wire = syncscope::wire;
namespace engine = syncscope::engine;

namespace {

constexpr int kDataPort = 47555, kControlPort = 47556, kTelemetryPort = 47557;

/// A coordinator in namespace 0 (10.199.0.2) and `workers` workers, worker i in namespace 1 + i, each
/// behind its own FaultProxy here (on 10.199.(1 + i).1).
class FaultyCluster {
public:
    FaultyCluster(int workers, FaultProxy::Faults faults, const Args& serveArgs) : m_lab(workers + 1) {
        if (!m_lab.ready()) return;
        m_credentials = engine::Credentials::generate();
        if (!m_credentials.save(m_dir.path() + "/credentials")) return;
        const Args security{"--credentials", m_dir.path() + "/credentials"};
        m_coordinator = std::make_unique<EngineChild>(
            m_dir.path(), "coordinator",
            Args{"serve", "--bind", "0.0.0.0", "--data-port", std::to_string(kDataPort), "--control-port",
                 std::to_string(kControlPort), "--telemetry-port", std::to_string(kTelemetryPort), "--data",
                 SYNCSCOPE_FASHION_MNIST_DIR, "--workers", std::to_string(workers)} +
                serveArgs + security,
            m_lab.launcher(0));
        const std::string coordinator = m_lab.address(0, 2);
        for (int i = 0; i < workers; ++i) {
            m_proxies.push_back(std::make_unique<FaultProxy>(m_lab.address(1 + i, 1), kDataPort, coordinator, kDataPort,
                                                             faults, 17u + unsigned(i)));
            const std::string connect = "tcp://" + m_lab.address(1 + i, 1) + ":" + std::to_string(kDataPort);
            m_workers.push_back(std::make_unique<EngineChild>(
                m_dir.path(), "worker" + std::to_string(i),
                Args{"work", "--connect", connect, "--backend", "cpu", "--retry", "--coordinator-timeout", "3"} + security,
                m_lab.launcher(1 + i)));
        }
        const auto steer = engine::EndpointSecurity::client(&m_credentials, engine::Role::Steer);
        const std::string host = "tcp://" + coordinator + ":";
        sleepMs(500);  // the coordinator binds before its subscribers connect (they would retry anyway)
        m_telemetry = std::make_unique<TelemetryProbe>(m_context, host + std::to_string(kTelemetryPort), steer);
        m_control = std::make_unique<ControlClient>(m_context, host + std::to_string(kControlPort), steer);
    }
    ~FaultyCluster() {
        m_workers.clear();
        m_coordinator.reset();
    }
    const NetworkLab& lab() const { return m_lab; }
    TelemetryProbe& telemetry() { return *m_telemetry; }
    ControlClient& control() { return *m_control; }
    FaultProxy& proxy(int i) { return *m_proxies.at(size_t(i)); }
    EngineChild& coordinator() { return *m_coordinator; }
    EngineChild& worker(int i) { return *m_workers.at(size_t(i)); }
    /// The id the coordinator gave the worker process behind proxy i (ids follow the order in
    /// which workers registered, not the order they were started); -1 before it registered.
    int workerId(int i) const {
        for (const std::string& line : split(m_workers.at(size_t(i))->stderrText(), '\n')) {  // the first line that says it
            std::smatch match;
            if (std::regex_search(line, match, std::regex("^worker (\\d+): "))) return int(toLongLong(match[1]));
        }
        return -1;
    }
    std::string logs() const {
        std::string text = "--- coordinator:\n" + m_coordinator->stderrText();
        for (size_t i = 0; i < m_workers.size(); ++i)
            text += "--- worker " + std::to_string(i) + ":\n" + m_workers[i]->stderrText();
        return text;
    }

private:
    NetworkLab m_lab;
    TempDir m_dir;
    engine::Credentials m_credentials;
    std::unique_ptr<EngineChild> m_coordinator;
    std::vector<std::unique_ptr<FaultProxy>> m_proxies;
    std::vector<std::unique_ptr<EngineChild>> m_workers;
    zmq::context_t m_context{1};
    std::unique_ptr<TelemetryProbe> m_telemetry;
    std::unique_ptr<ControlClient> m_control;
};

}  // namespace

class TestNetworkFaults : public ::testing::Test {
protected:
    // What keeps these tests from running here (as initTestCase's QSKIP: every test is skipped).
    static void SetUpTestSuite() {
        s_skip.clear();
        if (::geteuid() != 0) {
            s_skip = "network namespaces need root (ip netns)";
            return;
        }
        NetworkLab probe(1);
        if (!probe.ready()) s_skip = "cannot make network namespaces here: " + probe.error();
    }
    void SetUp() override {
        if (!s_skip.empty()) GTEST_SKIP() << s_skip;
    }
    static std::string s_skip;
};

std::string TestNetworkFaults::s_skip;

// 50 ms added to every chunk each way, 1% of connections dropped a second, and every
// connection of worker 1 dropped at once mid-run: bsp training still reaches its target.
TEST_F(TestNetworkFaults, trainsThroughDelayAndDroppedConnections) {
    FaultyCluster cluster(2, {std::chrono::milliseconds(50), 0.01},
                          {"--model", "mlp", "--mode", "bsp", "--batch", "128", "--target-accuracy", "85",
                           "--max-seconds", "150", "--eval-interval", "2"});
    ASSERT_TRUE(cluster.lab().ready()) << cluster.lab().error();
    auto running = cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 30; }, 60'000);
    ASSERT_TRUE(running) << "no training through the proxies\n" + cluster.logs();
    cluster.proxy(1).dropAllNow();
    ASSERT_TRUE(cluster.coordinator().waitForExit(170'000)) << "the run did not finish\n" + cluster.logs();
    const std::string report = cluster.coordinator().stderrText();
    ASSERT_TRUE(contains(report, "reached the target")) << cluster.logs();
    const uint64_t dropped = cluster.proxy(0).droppedConnections() + cluster.proxy(1).droppedConnections();
    const std::string logs = cluster.logs();
    const std::vector<std::string> outLines = split(trimmed(cluster.coordinator().stdoutText()), '\n');
    testLog("delay 50 ms each way: target reached; %llu connections dropped, %lld messages lost and recovered by "
            "registering again; %s",
            static_cast<unsigned long long>(dropped), static_cast<long long>(count(logs, "; registering again")),
            outLines.back().c_str());
    ASSERT_TRUE(dropped >= 1);
    for (int i = 0; i < 2; ++i) {
        const bool clean = (cluster.worker(i).waitForExit(10'000) ? cluster.worker(i).exitCode() : -1) == 0;
        if (!clean) std::fprintf(stderr, "%s\n", cluster.logs().c_str());  // the message would bury the failure
        ASSERT_TRUE(clean) << "worker " + std::to_string(i) + " did not end cleanly with the run (logs above)";
    }
}

// The worker behind proxy 1 cut off for 30 s: declared lost, the run goes on without it, and once the
// partition heals it registers again, gets its id back and trains.
TEST_F(TestNetworkFaults, partitionedWorkerIsLostAndRejoins) {
    FaultyCluster cluster(2, {}, {"--model", "mlp", "--mode", "bsp", "--max-seconds", "120"});
    ASSERT_TRUE(cluster.lab().ready()) << cluster.lab().error();
    ASSERT_TRUE(cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 50; }, 60'000))
        << cluster.logs();
    const int id = cluster.workerId(1);
    ASSERT_TRUE(id >= 0) << "the worker behind proxy 1 did not say its id\n" + cluster.logs();
    cluster.proxy(1).setPartitioned(true);
    auto lost = cluster.telemetry().waitForEvent(
        [&](const wire::Event& e) { return e.kind() == wire::EVENT_WORKER_LOST && int(e.worker_id()) == id; }, 10'000);
    ASSERT_TRUE(lost) << "the partitioned worker was not declared lost\n" + cluster.logs();
    const uint64_t versionAtLoss = cluster.telemetry().latest()->version();
    sleepMs(30000);
    const uint64_t versionAtHeal = cluster.telemetry().latest()->version();
    ASSERT_TRUE(versionAtHeal > versionAtLoss + 100) << "the run did not go on without the partitioned worker";
    cluster.proxy(1).setPartitioned(false);
    auto back = cluster.telemetry().waitForEvent(
        [&](const wire::Event& e) { return e.kind() == wire::EVENT_WORKER_REJOINED && int(e.worker_id()) == id; }, 30'000);
    ASSERT_TRUE(back) << "the worker did not rejoin after the partition healed\n" + cluster.logs();
    auto pushedAtReturn = cluster.telemetry().latest();
    uint64_t before = 0;
    for (const auto& w : pushedAtReturn->workers())
        if (int(w.worker_id()) == id) before = w.pushed();
    auto training = cluster.telemetry().waitForTick(
        [&](const wire::Tick& t) {
            for (const auto& w : t.workers())
                if (int(w.worker_id()) == id && w.pushed() > before + 20) return true;
            return false;
        },
        20'000);
    ASSERT_TRUE(training) << "the rejoined worker does not train\n" + cluster.logs();
    testLog("lost at version %llu, %llu versions during the 30 s partition; %s",
            static_cast<unsigned long long>(versionAtLoss),
            static_cast<unsigned long long>(versionAtHeal - versionAtLoss), back->detail().c_str());
    wire::ControlRequest stop;
    stop.set_stop(true);
    ASSERT_TRUE(cluster.control().request(stop));
}

// The stop at the end of a run lost with a dropped connection (on loopback, no root needed): what
// the coordinator sends worker 1 is held in its proxy from before the stop until the connections
// are dropped, so its stop never arrives. A worker that retries must still hear that the run is
// over (from its heartbeats' acknowledgements, or when it registers again) and end cleanly, and
// the coordinator must not wait long for it.
TEST(TestLostStop, aRetryingWorkerWhoseStopWasLostEndsCleanly) {
    EngineCluster cluster;
    ASSERT_TRUE(cluster.startCoordinator({"--bind", "127.0.0.1", "--workers", "2", "--model", "mlp", "--mode", "bsp",
                                          "--max-seconds", "120"}));
    const std::string data = cluster.endpoints().data;
    FaultProxy proxy("127.0.0.1", 0, "127.0.0.1", std::stoi(data.substr(data.rfind(':') + 1)), {}, 7u);
    ASSERT_TRUE(proxy.ok());
    cluster.startWorker();
    EngineChild& retrying = cluster.startWorkerAt("tcp://127.0.0.1:" + std::to_string(proxy.port()),
                                                  {"--retry", "--coordinator-timeout", "3"});
    ASSERT_TRUE(cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 30; }, 60'000))
        << cluster.logs();
    proxy.setHolding(true);
    wire::ControlRequest stop;
    stop.set_stop(true);
    ASSERT_TRUE(cluster.control().request(stop));
    ASSERT_TRUE(cluster.telemetry().waitForEvent([](const wire::Event& e) { return e.kind() == wire::EVENT_STOP; }, 5000));
    sleepMs(300);  // the stop (or the answer to the push the worker was computing) is in the proxy now
    proxy.dropAllNow();
    proxy.setHolding(false);
    const auto dropped = std::chrono::steady_clock::now();
    ASSERT_TRUE(cluster.coordinator().waitForExit(30'000)) << cluster.logs();
    const double coordinatorEnd = std::chrono::duration<double>(std::chrono::steady_clock::now() - dropped).count();
    ASSERT_EQ(cluster.coordinator().exitCode(), 0) << cluster.logs();
    const bool ended = retrying.waitForExit(10'000);
    ASSERT_TRUE(ended && retrying.exitCode() == 0) << "the worker whose stop was lost did not end cleanly\n"
                                                   << cluster.logs();
    const std::string said = retrying.stderrText();
    ASSERT_TRUE(contains(said, "heartbeat acknowledgements said so") || contains(said, "registered again after the end"))
        << "the stop was not lost, so this test tested nothing:\n" << said;
    ASSERT_TRUE(proxy.droppedConnections() >= 1);
    testLog("the coordinator ended %.1f s after the connections were dropped; the worker: %s", coordinatorEnd,
            trimmed(split(trimmed(said), '\n').back()).c_str());
}
