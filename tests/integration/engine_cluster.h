// EngineCluster: a coordinator and workers as real `syncscope-engine` processes on loopback, with a
// telemetry subscriber and a control client, for integration tests (no Qt). They authenticate as a real
// deployment does: the fixture writes a credentials file (0600) that serve and the workers are
// given, and its own clients hold the steer keys. Whatever it started is killed (SIGKILL) when it
// goes out of scope, and dies with the test process if that crashes.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <zmq.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/net/credentials.h"
#include "engine/net/endpoint.h"
#include "engine/net/protocol.h"
#include "engine/net/wire_codec.h"
#include "engine/relay/aggregator.h"
#include "engine/launch/cluster.h"
#include "engine/relay/parameter_shard.h"
#include "tests/integration/child_process.h"

namespace syncscope::testing {

using engine::CoordinatorEndpoints;
using engine::Result;
using engine::Status;

/// One `syncscope-engine` child. Its stdout and stderr go to files, so nothing is lost when it is
/// killed and a chatty child never blocks on a full pipe while the test is not looking.
class EngineChild {
public:
    /// `launcher`: a command that runs the engine, e.g. {"nsenter", "--net=/run/netns/ns1"}; empty: none.
    EngineChild(const std::string& logDir, const std::string& name, const Args& args, const Args& launcher = {})
        : EngineChild(logDir, name, launcher.empty() ? std::string(SYNCSCOPE_ENGINE_BINARY) : launcher.front(),
                      launcher.empty() ? args
                                       : Args(launcher.begin() + 1, launcher.end()) + Args{SYNCSCOPE_ENGINE_BINARY} + args) {}
    /// Another program than the engine: `program args` (a Python worker of the package's tests).
    EngineChild(const std::string& logDir, const std::string& name, const std::string& program, const Args& args)
        : m_stdoutPath(logDir + "/" + name + ".out"), m_stderrPath(logDir + "/" + name + ".err") {
        ChildOptions options;
        options.stdoutPath = m_stdoutPath;
        options.stderrPath = m_stderrPath;
        m_process.start(program, args, options);
    }
    EngineChild(const EngineChild&) = delete;
    EngineChild& operator=(const EngineChild&) = delete;

    bool running() { return m_process.running(); }
    pid_t pid() const { return m_process.pid(); }
    /// SIGKILL, and wait until it is gone.
    void kill() { m_process.kill(); }
    /// Waits for the child to exit by itself; false if it is still running after `timeoutMs`.
    bool waitForExit(long long timeoutMs) { return m_process.waitForExit(timeoutMs); }
    /// The exit code of a normal exit; -1 while running or after a signal.
    int exitCode() { return running() ? -1 : m_process.exitCode(); }
    std::string stdoutText() const { return readFile(m_stdoutPath); }
    std::string stderrText() const { return readFile(m_stderrPath); }

private:
    std::string m_stdoutPath, m_stderrPath;
    ChildProcess m_process;  // killed (SIGKILL) when this goes
};

/// Subscribes to a coordinator's ticks and remembers every event it has seen. Events arrive in
/// exactly one tick each, so the waits below read every tick in order and keep their events.
class TelemetryProbe {
public:
    TelemetryProbe(zmq::context_t& context, const std::string& endpoint, const engine::EndpointSecurity& security = {})
        : m_socket(context, zmq::socket_type::sub) {
        m_socket.set(zmq::sockopt::linger, 0);
        engine::applySecurity(m_socket, security, false);
        m_socket.set(zmq::sockopt::rcvhwm, 100'000);  // the test may look away for a while
        m_socket.set(zmq::sockopt::subscribe, engine::kTickTopic);
        m_socket.connect(endpoint);
    }

    /// Reads ticks until one satisfies `accept`; an empty optional if none does within `timeoutMs`.
    std::optional<wire::Tick> waitForTick(const std::function<bool(const wire::Tick&)>& accept, int timeoutMs) {
        const Deadline deadline(timeoutMs);
        for (;;) {
            if (std::optional<wire::Tick> tick = receiveTick(deadline); tick && accept(*tick)) return tick;
            if (deadline.expired()) return std::nullopt;
        }
    }

    /// The first event, among those seen so far and then new ones, that satisfies `accept`. Old
    /// events count too, so a predicate should name what it waits for (kind and worker id).
    std::optional<wire::Event> waitForEvent(const std::function<bool(const wire::Event&)>& accept, int timeoutMs) {
        const Deadline deadline(timeoutMs);
        size_t checked = 0;
        for (;;) {
            for (; checked < m_events.size(); ++checked)
                if (accept(m_events[checked])) return m_events[checked];
            if (deadline.expired()) return std::nullopt;
            receiveTick(deadline);
        }
    }

    /// Reads whatever ticks are already waiting; returns the newest tick seen so far.
    const std::optional<wire::Tick>& latest() {
        while (receiveTick(Deadline(0))) {
        }
        return m_latest;
    }
    const std::vector<wire::Event>& events() const { return m_events; }

private:
    /// One tick, or nothing by the deadline.
    std::optional<wire::Tick> receiveTick(const Deadline& deadline) {
        for (;;) {
            zmq::pollitem_t item{m_socket.handle(), 0, ZMQ_POLLIN, 0};
            zmq::poll(&item, 1, std::chrono::milliseconds(std::min<long long>(50, deadline.remainingMs())));
            zmq::message_t topic, body;
            if (m_socket.recv(topic, zmq::recv_flags::dontwait)) {
                if (!topic.more() || !m_socket.recv(body, zmq::recv_flags::none)) continue;
                while (body.more()) (void)m_socket.recv(body, zmq::recv_flags::none);  // a malformed tail
                wire::Tick tick;
                if (!tick.ParseFromArray(body.data(), static_cast<int>(body.size()))) continue;
                for (const wire::Event& e : tick.events()) m_events.push_back(e);
                m_latest = tick;
                return tick;
            }
            if (deadline.expired()) return std::nullopt;
        }
    }

    zmq::socket_t m_socket;
    std::optional<wire::Tick> m_latest;
    std::vector<wire::Event> m_events;
};

/// A console's view of the control endpoint: one request, one reply.
class ControlClient {
public:
    ControlClient(zmq::context_t& context, const std::string& endpoint, const engine::EndpointSecurity& security = {})
        : m_socket(context, zmq::socket_type::dealer) {
        m_socket.set(zmq::sockopt::linger, 0);
        engine::applySecurity(m_socket, security, false);
        m_socket.connect(endpoint);
    }

    /// Sends `request` and waits for its reply. An Error envelope or no reply is a failed Status;
    /// a ControlReply with ok=false is returned as it is (the caller checks ok and error).
    Result<wire::ControlReply> request(const wire::ControlRequest& request, int timeoutMs = 3000) {
        wire::Envelope envelope;
        envelope.set_correlation_id(++m_lastCorrelation);
        *envelope.mutable_control() = request;
        engine::sendMessage(m_socket, nullptr, envelope);
        const engine::ReceiveLimits limits{engine::kMaxEnvelopeBytes * 64, 0};  // snapshots can be large
        const Deadline deadline(timeoutMs);
        while (!deadline.expired()) {
            zmq::pollitem_t item{m_socket.handle(), 0, ZMQ_POLLIN, 0};
            zmq::poll(&item, 1, std::chrono::milliseconds(50));
            auto reply = engine::receiveMessage(m_socket, false, limits);
            if (!reply) continue;
            if (!*reply) return reply->status();
            const wire::Envelope& in = reply->value().envelope;
            if (in.correlation_id() != m_lastCorrelation && !in.has_error()) continue;  // a late reply
            if (in.has_error()) return engine::unavailable("control request refused: " + in.error().message());
            if (!in.has_control_reply()) return engine::unavailable("control reply without a control_reply body");
            return in.control_reply();
        }
        return engine::unavailable("no control reply within " + std::to_string(timeoutMs) + " ms");
    }

private:
    zmq::socket_t m_socket;
    uint64_t m_lastCorrelation = 0;
};

/// The cluster under test. Typical use:
///   EngineCluster cluster;
///   ASSERT_TRUE(cluster.startCoordinator({"--workers", "2", "--max-seconds", "20"})) << cluster.logs();
///   cluster.startWorker(); cluster.startWorker();
///   auto tick = cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 10; }, 10'000);
class EngineCluster {
public:
    EngineCluster() = default;
    ~EngineCluster() { killAll(); }
    EngineCluster(const EngineCluster&) = delete;
    EngineCluster& operator=(const EngineCluster&) = delete;

    /// Starts `serve <serveArgs>`; --data, and any of the three ports not given, are added (ports
    /// 0: any free port). Reads the endpoints line, connects telemetry and control and waits for
    /// the first tick, so no event after this returns is missed. A second call starts a new
    /// coordinator (the previous one should be dead); workers started later connect to it.
    Status startCoordinator(Args serveArgs, int timeoutMs = 30'000) {
        for (const char* flag : {"--data-port", "--control-port", "--telemetry-port"})
            if (!serveArgs.contains(flag)) serveArgs << flag << "0";
        m_insecure = serveArgs.contains("--insecure");
        m_plainData = serveArgs.contains("authenticated");  // --data-plane authenticated
        if (!m_insecure && !serveArgs.contains("--credentials")) serveArgs << "--credentials" << credentialsPath();
        if (!serveArgs.contains("--data")) serveArgs << "--data" << SYNCSCOPE_FASHION_MNIST_DIR;
        const std::string name = "coordinator" + std::to_string(m_coordinators.size());
        m_coordinators.push_back(std::make_unique<EngineChild>(logDir(), name, Args{"serve"} + serveArgs));
        EngineChild& child = *m_coordinators.back();
        const Deadline deadline(timeoutMs);
        std::string out;
        while (!contains(out = child.stdoutText(), "\n")) {
            if (!child.running())
                return engine::unavailable("serve exited before printing its endpoints: " + child.stderrText());
            if (deadline.expired()) return engine::unavailable("serve printed no endpoints line in time");
            sleepMs(20);
        }
        auto endpoints = engine::parseEndpointsLine(out.substr(0, out.find('\n')));
        if (!endpoints) return endpoints.status();
        m_endpoints = *endpoints;
        m_telemetry = std::make_unique<TelemetryProbe>(m_context, m_endpoints.telemetry, clientSecurity(engine::Role::Steer));
        m_control = std::make_unique<ControlClient>(m_context, m_endpoints.control, clientSecurity(engine::Role::Steer));
        const int left = static_cast<int>(deadline.remainingMs());
        if (!m_telemetry->waitForTick([](const wire::Tick&) { return true; }, left))
            return engine::unavailable("serve published no tick on " + m_endpoints.telemetry);
        return Status::ok();
    }

    /// Starts `work --connect <data endpoint> --backend cpu <extraArgs>`.
    EngineChild& startWorker(const Args& extraArgs = {}) { return startWorkerAt(m_endpoints.data, extraArgs); }
    /// The same, connecting to `endpoint` (a group aggregator's).
    EngineChild& startWorkerAt(const std::string& endpoint, const Args& extraArgs = {}) {
        const std::string name = "worker" + std::to_string(m_workers.size());
        Args args = Args{"work", "--connect", endpoint, "--backend", "cpu"} + extraArgs;
        if (m_insecure) args << "--insecure";
        else if (!extraArgs.contains("--credentials")) args << "--credentials" << credentialsPath();
        if (m_plainData && !extraArgs.contains("--data-plane")) args << "--data-plane" << "authenticated";
        m_workers.push_back(std::make_unique<EngineChild>(logDir(), name, args));
        return *m_workers.back();
    }

    /// Starts `program args` beside the cluster (a PyTorch worker, an evaluator), logged as `name`.
    EngineChild& startProgram(const std::string& name, const std::string& program, const Args& args) {
        m_programs.push_back(std::make_unique<EngineChild>(logDir(), name, program, args));
        return *m_programs.back();
    }
    EngineChild& program(size_t index) { return *m_programs.at(index); }
    size_t programCount() const { return m_programs.size(); }

    /// Starts `aggregate --connect <data endpoint>` (a group aggregator) and returns the endpoint its
    /// workers connect to; empty (and a failed check) when it printed none within 30 s.
    std::string startAggregator(const Args& extraArgs = {}) {
        return startRelay("aggregate", engine::kAggregatorLinePrefix, m_aggregators, extraArgs);
    }
    EngineChild& aggregator(size_t index) { return *m_aggregators.at(index); }
    /// Starts `shard --connect <data endpoint>` (a parameter shard of a `serve --shards` run) and
    /// returns the endpoint its workers connect to, once it has its range of the model; empty when
    /// it printed none within 30 s.
    std::string startShard(const Args& extraArgs = {}) {
        return startRelay("shard", engine::kShardLinePrefix, m_shards, extraArgs);
    }
    /// A shard started while every place is taken: it waits as a standby, and says nothing until it
    /// gets a place (so this returns at once; its EVENT_SHARDS event says it waits).
    EngineChild& startStandbyShard() {
        m_shards.push_back(std::make_unique<EngineChild>(logDir(), "shard" + std::to_string(m_shards.size()),
                                                         relayArgs("shard", {})));
        return *m_shards.back();
    }
    EngineChild& shard(size_t index) { return *m_shards.at(index); }

    EngineChild& coordinator() { return *m_coordinators.back(); }
    EngineChild& worker(size_t index) { return *m_workers.at(index); }
    const CoordinatorEndpoints& endpoints() const { return m_endpoints; }
    TelemetryProbe& telemetry() { return *m_telemetry; }
    ControlClient& control() { return *m_control; }
    zmq::context_t& context() { return m_context; }
    /// The cluster's credentials file (every role's keys), written on first use.
    std::string credentialsPath() {
        const std::string path = logDir() + "/credentials";
        if (!m_credentials) {
            m_credentials = engine::Credentials::generate();
            const Status saved = m_credentials->save(path);
            if (!saved) throw std::runtime_error("cannot write test credentials: " + saved.message());
        }
        return path;
    }
    const engine::Credentials& credentials() {
        credentialsPath();
        return *m_credentials;
    }
    /// How a client of `role` connects to this cluster (none when it was started --insecure): a
    /// worker to the data plane (sealed, or only authenticated with --data-plane authenticated), the
    /// other roles on CURVE.
    engine::EndpointSecurity clientSecurity(engine::Role role) {
        if (m_insecure) return engine::EndpointSecurity{};
        const auto protection = role != engine::Role::Worker ? engine::Protection::Curve
                                                             : engine::dataPlaneProtection(m_plainData);
        return engine::EndpointSecurity::client(&credentials(), role, protection);
    }

    /// Everything the children wrote to stderr, labelled; for failure messages.
    std::string logs() const {
        std::string text;
        for (const auto& c : m_coordinators) text += "--- coordinator stderr:\n" + c->stderrText();
        for (size_t i = 0; i < m_workers.size(); ++i)
            text += "--- worker " + std::to_string(i) + " stderr:\n" + m_workers[i]->stderrText();
        for (size_t i = 0; i < m_aggregators.size(); ++i)
            text += "--- aggregator " + std::to_string(i) + " stderr:\n" + m_aggregators[i]->stderrText();
        for (size_t i = 0; i < m_shards.size(); ++i)
            text += "--- shard " + std::to_string(i) + " stderr:\n" + m_shards[i]->stderrText();
        for (size_t i = 0; i < m_programs.size(); ++i)
            text += "--- program " + std::to_string(i) + " output:\n" + m_programs[i]->stdoutText() +
                    m_programs[i]->stderrText();
        return text;
    }

    void killAll() {
        for (auto& p : m_programs) p->kill();
        for (auto& w : m_workers) w->kill();
        for (auto& a : m_aggregators) a->kill();
        for (auto& s : m_shards) s->kill();
        for (auto& c : m_coordinators) c->kill();
    }

private:
    /// A server process between the workers and the coordinator: started with `command --connect
    /// <data endpoint>`, its endpoint read from the line it prints after `prefix`.
    std::string startRelay(const std::string& command, const std::string& prefix,
                           std::vector<std::unique_ptr<EngineChild>>& into, const Args& extraArgs) {
        const std::string name = command + std::to_string(into.size());
        into.push_back(std::make_unique<EngineChild>(logDir(), name, relayArgs(command, extraArgs)));
        const Deadline deadline(30'000);
        std::string out;
        // waitForExit, not a sleep: it also notices a child that exited (refused) at once.
        while (!contains(out = into.back()->stdoutText(), "\n") && !into.back()->waitForExit(20) && !deadline.expired()) {
        }
        const std::string line = out.substr(0, out.find('\n'));
        return startsWith(line, prefix) ? line.substr(prefix.size()) : std::string();
    }

    /// An aggregator's or a shard's command line, connected to this cluster's coordinator.
    Args relayArgs(const std::string& command, const Args& extraArgs) {
        Args args = Args{command, "--connect", m_endpoints.data} + extraArgs;
        if (m_insecure) args << "--insecure";
        else args << "--credentials" << credentialsPath();
        if (m_plainData && !extraArgs.contains("--data-plane")) args << "--data-plane" << "authenticated";
        return args;
    }

    std::string logDir() {
        if (!m_logs) m_logs = std::make_unique<TempDir>();
        return m_logs->path();
    }

    std::unique_ptr<TempDir> m_logs;
    std::optional<engine::Credentials> m_credentials;
    bool m_insecure = false;
    bool m_plainData = false;  ///< the coordinator was started with --data-plane authenticated
    std::vector<std::unique_ptr<EngineChild>> m_coordinators, m_workers, m_aggregators, m_shards, m_programs;
    CoordinatorEndpoints m_endpoints;
    // Sockets are declared after the context, so they close before it terminates.
    zmq::context_t m_context{1};
    std::unique_ptr<TelemetryProbe> m_telemetry;
    std::unique_ptr<ControlClient> m_control;
};

/// A loopback TCP port that was free a moment ago (bound to port 0, then released); 0 on failure.
inline int pickFreePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return 0;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
        port = ntohs(address.sin_port);
    ::close(fd);
    return port;
}

}  // namespace syncscope::testing
