// bench_soak: hours of a real coordinator (`syncscope-engine serve`, with a recording and checkpoints)
// under churn. 32 compute-free worker processes (forked from this one: they speak the worker
// protocol, heartbeats included, and push a constant mlp-sized gradient after a short sleep), a
// mode or group change every 10 s, one worker SIGKILLed and a new one started every minute. It
// checks the accounting at every event (pushed = applied + dropped + pending) and samples the
// coordinator's memory; prints a table and `BENCH_SUMMARY {json}`. A benchmark, not a CI test.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "engine/core/check.h"
#include "engine/core/temporary_folder.h"
#include "engine/launch/cluster.h"
#include "engine/model/fashion_mnist.h"
#include "engine/net/protocol.h"
#include "engine/net/tensor_frame.h"
#include "engine/net/wire_codec.h"
#include "engine/plan/run_plan.h"
#include "engine/worker/heartbeat_sender.h"
#include "tests/bench/process_memory.h"

using namespace syncscope::engine;
namespace wire = syncscope::wire;
using Seconds = std::chrono::duration<double>;
using Clock = std::chrono::steady_clock;

using syncscope::bench::rssMiB;

namespace {

struct Settings {
    double seconds = 7200, changeEvery = 10, killEvery = 60, iterationMs = 20;
    unsigned workers = 32;
    std::string engine = selfExecutable(), data = defaultFashionMnistDir(), csv;
};

// A compute-free worker process: register, heartbeats, then parameters in, a gradient out, until
// the run stops (exit 0) or the coordinator refuses it (exit 1).
[[noreturn]] void simulatedWorker(const std::string& address, const Credentials* credentials, double iterationMs) {
    zmq::context_t context{1};
    const EndpointSecurity security = EndpointSecurity::client(credentials, Role::Worker, Protection::Plain);
    zmq::socket_t socket(context, zmq::socket_type::dealer);
    const std::string routingId = "soak-" + std::to_string(getpid());
    socket.set(zmq::sockopt::linger, 0);
    socket.set(zmq::sockopt::routing_id, routingId);
    applySecurity(socket, security, false);
    socket.connect(address);
    wire::Envelope hello;
    hello.mutable_register_()->set_pid(static_cast<uint32_t>(getpid()));
    hello.mutable_register_()->set_hostname("soak");
    hello.mutable_register_()->set_backend("compute-free");
    sendMessage(socket, nullptr, hello);
    const auto receive = [&](size_t floats) -> InboundMessage {
        for (int i = 0; i < 600; ++i) {
            zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
            zmq::poll(&item, 1, std::chrono::milliseconds(100));
            if (auto message = receiveMessage(socket, false, {kMaxEnvelopeBytes, floats * sizeof(float)})) {
                if (!*message || message->value().envelope.has_error()) _exit(1);
                return std::move(message->value());
            }
        }
        _exit(1);  // a minute without an answer
    };
    const InboundMessage welcome = receive(0);
    if (!welcome.envelope.has_welcome()) _exit(1);
    const wire::Welcome& w = welcome.envelope.welcome();
    const size_t count = w.spec().parameter_count();
    HeartbeatSender heartbeat(context, address, security, routingId + "/heartbeat", w.worker_id(), w.session_token(),
                              std::chrono::milliseconds(3000));
    const SharedFloats gradient = std::make_shared<const std::vector<float>>(count, 1e-4f);
    wire::Envelope pull;
    pull.mutable_push()->set_worker_id(w.worker_id());
    sendMessage(socket, nullptr, pull);
    for (;;) {
        InboundMessage reply = receive(count);
        if (!reply.envelope.has_params()) continue;
        const wire::Params& params = reply.envelope.params();
        if (params.stop()) _exit(0);
        std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(iterationMs));
        wire::Envelope envelope;
        wire::Push* push = envelope.mutable_push();
        push->set_worker_id(w.worker_id());
        push->set_has_gradient(true);
        push->set_base_version(params.version());
        push->set_batch_size(params.batch_size());
        push->set_loss(1.0f);
        push->set_compute_ms(iterationMs);
        zmq::message_t frame = sharedFloatsFrame(gradient);
        sendMessage(socket, nullptr, envelope, &frame);
    }
}

pid_t forkWorker(const std::string& address, const Credentials* credentials, double iterationMs) {
    const pid_t pid = fork();
    SS_CHECK(pid >= 0, "fork");
    if (pid == 0) simulatedWorker(address, credentials, iterationMs);
    return pid;
}

// The changes the soak cycles through: modes with their settings, and regroupings.
std::vector<wire::ControlRequest> changes() {
    std::vector<wire::ControlRequest> list;
    const auto mode = [&](wire::SyncMode m, auto&& set) {
        wire::ControlRequest r;
        wire::ModeSettings* s = r.mutable_set_mode()->mutable_settings();
        s->set_mode(m);
        set(*s);
        list.push_back(r);
    };
    mode(wire::BSP, [](wire::ModeSettings&) {});
    mode(wire::ASP, [](wire::ModeSettings& s) { s.set_lr_modulation(wire::LR_DYNSGD); });
    mode(wire::SSP, [](wire::ModeSettings& s) { s.set_staleness_bound(3); });
    mode(wire::GROUPED, [](wire::ModeSettings& s) { s.set_group_count(4); });
    for (uint32_t g : {8u, 2u}) {
        wire::ControlRequest r;
        r.mutable_set_groups()->set_count(g);
        r.mutable_set_groups()->set_by(wire::GROUP_BY_SPEED);
        list.push_back(r);
    }
    mode(wire::KASYNC, [](wire::ModeSettings& s) { s.set_k(8); });
    mode(wire::ELASTIC, [](wire::ModeSettings&) {});
    return list;
}

struct Soak {
    uint64_t events = 0, accountingErrors = 0, ticks = 0, changesSent = 0, changesRefused = 0, kills = 0, maxVersion = 0;
    uint64_t pushed = 0, applied = 0, dropped = 0;
    double rssStart = 0, rssMax = 0, rssEnd = 0;
    std::vector<std::pair<double, double>> rss;  // (seconds, MiB)
};

void checkTick(const wire::Tick& tick, Soak& soak) {
    ++soak.ticks;
    soak.maxVersion = std::max(soak.maxVersion, tick.version());
    soak.pushed = tick.pushed();
    soak.applied = tick.applied();
    soak.dropped = tick.dropped();
    for (const wire::Event& e : tick.events()) {
        ++soak.events;
        if (e.pushed() != e.applied() + e.dropped() + e.pending()) {
            ++soak.accountingErrors;
            std::fprintf(stderr, "ACCOUNTING: %s at %.1f s: pushed %llu != applied %llu + dropped %llu + pending %llu\n",
                         e.detail().c_str(), e.time_s(), (unsigned long long)e.pushed(), (unsigned long long)e.applied(),
                         (unsigned long long)e.dropped(), (unsigned long long)e.pending());
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    CLI::App app{"bench_soak: a real coordinator under hours of churn; memory and accounting"};
    app.add_option("--seconds", s.seconds, "How long (the issue's soak: 7200)")->capture_default_str();
    app.add_option("--workers", s.workers, "Compute-free worker processes")->capture_default_str();
    app.add_option("--change-every", s.changeEvery, "Seconds between mode or group changes")->capture_default_str();
    app.add_option("--kill-every", s.killEvery, "Seconds between a worker SIGKILLed and replaced")->capture_default_str();
    app.add_option("--iteration-ms", s.iterationMs, "A compute-free worker's sleep per iteration")->capture_default_str();
    app.add_option("--engine", s.engine, "The syncscope-engine binary")->required();
    app.add_option("--data", s.data, "Fashion-MNIST folder (the coordinator evaluates on it)")->capture_default_str();
    app.add_option("--csv", s.csv, "Write the memory samples here (seconds,rss_mib)");
    CLI11_PARSE(app, argc, argv);

    auto folder = TemporaryFolder::create("syncscope-soak-");
    SS_CHECK(folder, "a temp folder");
    Cluster cluster(s.engine);
    SS_CHECK(cluster.secure(), "credentials");
    const std::string dir = folder->path();
    wire::RunPlan run = defaultRunPlan();  // mlp, bsp
    run.mutable_layout()->set_workers(s.workers);
    run.mutable_layout()->set_spare_workers(4);
    run.mutable_stop()->set_max_seconds(s.seconds + 120);
    run.mutable_spec()->set_data_dir(s.data);
    run.mutable_spec()->set_eval_interval_seconds(30);
    run.set_record_path(dir + "/soak.ssrec");
    run.mutable_checkpoints()->set_folder(dir + "/checkpoints");
    run.mutable_checkpoints()->set_seconds(30);
    Status started = cluster.startCoordinator(run);
    SS_CHECK(started, started.message().c_str());
    const pid_t coordinator = cluster.coordinatorPid();
    std::vector<pid_t> workers;
    for (unsigned i = 0; i < s.workers; ++i) workers.push_back(forkWorker(cluster.endpoints().data, cluster.credentials(), s.iterationMs));

    zmq::context_t context{1};
    const EndpointSecurity steer = EndpointSecurity::client(cluster.credentials(), Role::Steer);
    zmq::socket_t telemetry(context, zmq::socket_type::sub), control(context, zmq::socket_type::dealer);
    for (zmq::socket_t* socket : {&telemetry, &control}) {
        socket->set(zmq::sockopt::linger, 0);
        applySecurity(*socket, steer, false);
    }
    telemetry.set(zmq::sockopt::subscribe, kTickTopic);
    telemetry.connect(cluster.endpoints().telemetry);
    control.connect(cluster.endpoints().control);

    Soak soak;
    const std::vector<wire::ControlRequest> plan = changes();
    std::mt19937 random(7);
    const auto start = Clock::now();
    const auto after = [](double seconds) { return std::chrono::duration_cast<Clock::duration>(Seconds(seconds)); };
    Clock::time_point nextChange = start + after(s.changeEvery), nextKill = start + after(s.killEvery), nextSample = start;
    double lastReport = 0;
    while (Seconds(Clock::now() - start).count() < s.seconds) {
        zmq::pollitem_t items[] = {{telemetry.handle(), 0, ZMQ_POLLIN, 0}, {control.handle(), 0, ZMQ_POLLIN, 0}};
        zmq::poll(items, 2, std::chrono::milliseconds(100));
        zmq::message_t topic, body;
        while (telemetry.recv(topic, zmq::recv_flags::dontwait)) {
            if (!topic.more() || !telemetry.recv(body, zmq::recv_flags::none)) continue;
            wire::Tick tick;
            if (tick.ParseFromArray(body.data(), int(body.size()))) checkTick(tick, soak);
        }
        while (auto reply = receiveMessage(control, false, {kMaxEnvelopeBytes, 0}))
            if (!*reply || !reply->value().envelope.control_reply().ok()) ++soak.changesRefused;
        const auto now = Clock::now();
        const double t = Seconds(now - start).count();
        if (now >= nextChange) {
            wire::Envelope envelope;
            *envelope.mutable_control() = plan[soak.changesSent % plan.size()];
            sendMessage(control, nullptr, envelope);
            ++soak.changesSent;
            nextChange += after(s.changeEvery);
        }
        if (now >= nextKill) {
            const size_t victim = random() % workers.size();
            ::kill(workers[victim], SIGKILL);
            ::waitpid(workers[victim], nullptr, 0);
            workers[victim] = forkWorker(cluster.endpoints().data, cluster.credentials(), s.iterationMs);
            ++soak.kills;
            nextKill += after(s.killEvery);
        }
        if (now >= nextSample) {
            const double mib = rssMiB(coordinator);
            soak.rss.emplace_back(t, mib);
            if (t >= 60 && soak.rssStart == 0) soak.rssStart = mib;  // after the first minute: warm
            soak.rssMax = std::max(soak.rssMax, mib);
            soak.rssEnd = mib;
            nextSample += after(10);
        }
        if (t - lastReport >= 60) {
            lastReport = t;
            std::fprintf(stderr, "[%6.0f s] version %llu, %llu events, accounting errors %llu, %llu changes (%llu refused), "
                         "%llu kills, coordinator RSS %.1f MiB\n", t, (unsigned long long)soak.maxVersion,
                         (unsigned long long)soak.events, (unsigned long long)soak.accountingErrors,
                         (unsigned long long)soak.changesSent, (unsigned long long)soak.changesRefused,
                         (unsigned long long)soak.kills, soak.rssEnd);
        }
    }
    wire::Envelope stop;
    stop.mutable_control()->set_stop(true);
    sendMessage(control, nullptr, stop);
    int exitCode = -1;
    for (int i = 0; i < 300 && cluster.coordinatorRunning(&exitCode); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    for (pid_t pid : workers) ::kill(pid, SIGKILL);
    for (pid_t pid : workers) ::waitpid(pid, nullptr, 0);
    if (!s.csv.empty()) {
        std::ofstream csv(s.csv);
        csv << "seconds,rss_mib\n";
        for (const auto& [t, mib] : soak.rss) csv << t << ',' << mib << '\n';
    }
    const double hours = s.seconds / 3600.0;
    const double growthPerHour = hours > 1.0 / 60 ? (soak.rssEnd - soak.rssStart) / std::max(hours - 1.0 / 60, 1e-9) : 0;
    std::printf("| soak | seconds | workers | changes (refused) | kills | events | accounting errors | versions | "
                "RSS after 1 min | RSS max | RSS end | growth/h |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    std::printf("| coordinator | %.0f | %u | %llu (%llu) | %llu | %llu | %llu | %llu | %.1f MiB | %.1f MiB | %.1f MiB | "
                "%.2f MiB |\n", s.seconds, s.workers, (unsigned long long)soak.changesSent,
                (unsigned long long)soak.changesRefused, (unsigned long long)soak.kills, (unsigned long long)soak.events,
                (unsigned long long)soak.accountingErrors, (unsigned long long)soak.maxVersion, soak.rssStart, soak.rssMax,
                soak.rssEnd, growthPerHour);
    std::printf("BENCH_SUMMARY {\"bench\":\"soak\",\"seconds\":%.0f,\"workers\":%u,\"changes\":%llu,\"refused\":%llu,"
                "\"kills\":%llu,\"events\":%llu,\"accounting_errors\":%llu,\"versions\":%llu,\"rss_start_mib\":%.1f,"
                "\"rss_max_mib\":%.1f,\"rss_end_mib\":%.1f,\"rss_growth_mib_per_hour\":%.2f,\"coordinator_exit\":%d}\n",
                s.seconds, s.workers, (unsigned long long)soak.changesSent, (unsigned long long)soak.changesRefused,
                (unsigned long long)soak.kills, (unsigned long long)soak.events, (unsigned long long)soak.accountingErrors,
                (unsigned long long)soak.maxVersion, soak.rssStart, soak.rssMax, soak.rssEnd, growthPerHour, exitCode);
    return soak.accountingErrors == 0 && exitCode == 0 ? 0 : 1;
}
