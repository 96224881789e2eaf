// bench_coordinator: updates/s of a real in-process Coordinator fed by simulated workers (threads
// speaking the worker protocol, pushing a constant mlp-sized gradient the moment parameters arrive,
// no compute), per sync mode. Prints a table and `BENCH_SUMMARY {json}`.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "engine/core/check.h"
#include "engine/model/fashion_mnist.h"
#include "engine/net/protocol.h"
#include "engine/net/tensor_frame.h"
#include "engine/net/wire_codec.h"
#include "engine/ps/coordinator.h"
#include "engine/ps/mode_catalog.h"

using namespace syncscope::engine;
namespace wire = syncscope::wire;
using Seconds = std::chrono::duration<double>;

namespace {

struct Counters {
    std::atomic<uint64_t> gradients{0}, maxVersion{0};
    std::atomic<uint32_t> started{0};
};

// The next message on a worker's socket; a coordinator silent for 30 s is a failed benchmark.
InboundMessage awaitReply(zmq::socket_t& socket, size_t floats) {
    const ReceiveLimits limits{kMaxEnvelopeBytes, floats * sizeof(float)};
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (Clock::now() < deadline) {
        zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
        zmq::poll(&item, 1, std::chrono::milliseconds(100));
        if (auto message = receiveMessage(socket, false, limits)) {
            SS_CHECK(message->isOk(), message->status().message().c_str());
            SS_CHECK(!message->value().envelope.has_error(), message->value().envelope.error().message().c_str());
            return std::move(message->value());
        }
    }
    SS_CHECK(false, "the coordinator stopped answering a simulated worker");
    return {};
}

// Register -> Welcome -> pull, then: Params in, the same gradient straight back out, until stopped.
void simulatedWorker(zmq::context_t& context, const std::string& address, const SharedFloats& gradient,
                     Counters& counters) {
    zmq::socket_t socket(context, zmq::socket_type::dealer);
    socket.set(zmq::sockopt::linger, 0);
    socket.connect(address);
    wire::Envelope hello;
    hello.mutable_register_()->set_pid(static_cast<uint32_t>(getpid()));
    hello.mutable_register_()->set_hostname("bench");
    hello.mutable_register_()->set_backend("simulated");
    sendMessage(socket, nullptr, hello);
    const InboundMessage welcome = awaitReply(socket, gradient->size());
    SS_CHECK(welcome.envelope.has_welcome(), "a Welcome in reply to Register");
    SS_CHECK(welcome.envelope.welcome().spec().parameter_count() == gradient->size(), "an mlp-sized model");
    const uint32_t id = welcome.envelope.welcome().worker_id();
    wire::Envelope pull;
    pull.mutable_push()->set_worker_id(id);
    sendMessage(socket, nullptr, pull);
    for (bool started = false;; started = true) {
        InboundMessage reply = awaitReply(socket, gradient->size());
        SS_CHECK(reply.envelope.has_params(), "only Params replies (simulated workers send no heartbeats)");
        const wire::Params& params = reply.envelope.params();
        if (params.stop()) return;
        SS_CHECK(reply.tensor && reply.tensor->size() == gradient->size() * sizeof(float), "whole parameters");
        if (!started) ++counters.started;
        uint64_t seen = counters.maxVersion.load();
        while (params.version() > seen && !counters.maxVersion.compare_exchange_weak(seen, params.version())) {}
        wire::Envelope envelope;
        wire::Push* push = envelope.mutable_push();
        push->set_worker_id(id);
        push->set_has_gradient(true);
        push->set_base_version(params.version());
        push->set_batch_size(params.batch_size());
        push->set_loss(1.0f);
        zmq::message_t frame = sharedFloatsFrame(gradient);
        sendMessage(socket, nullptr, envelope, &frame);
        ++counters.gradients;
    }
}

// Seconds a thread of this process has run on a CPU and waited, runnable, for one (/proc schedstat).
struct ThreadTimes {
    double running = 0, waiting = 0;
};

ThreadTimes threadTimes(pid_t tid) {
    std::ifstream schedstat("/proc/self/task/" + std::to_string(tid) + "/schedstat");
    double runNs = 0, waitNs = 0;
    schedstat >> runNs >> waitNs;
    return {runNs * 1e-9, waitNs * 1e-9};
}

void sendStop(const std::string& controlAddress) {
    zmq::context_t context{1};
    zmq::socket_t control(context, zmq::socket_type::dealer);
    control.set(zmq::sockopt::linger, 0);
    control.connect(controlAddress);
    wire::Envelope request;
    request.mutable_control()->set_stop(true);
    sendMessage(control, nullptr, request);
    (void)awaitReply(control, 0);
}

struct ModeThroughput {
    std::string mode;
    double updatesPerSecond, gradientsPerSecond, coordinatorRunning, coordinatorWaiting;
};

struct Settings {
    unsigned workers = 32;
    double warmup = 1.0, seconds = 3.0;
    std::string data = defaultFashionMnistDir();
};

CoordinatorOptions coordinatorOptions(const wire::ModeSettings& mode, const Settings& s) {
    CoordinatorOptions options;
    options.expectedWorkers = s.workers;
    options.spec.set_model("mlp");
    options.spec.set_batch_size(64);
    options.spec.set_seed(1);
    options.spec.set_data_dir(s.data);
    options.spec.set_shard_count(s.workers);
    options.spec.set_learning_rate(0.05f);
    options.spec.set_momentum(0.9f);
    options.spec.set_weight_decay(5e-4f);
    options.mode = mode;
    options.maxSeconds = 600;              // stopped over the control channel long before
    options.evalIntervalSeconds = 1e9;     // no periodic evaluation: this measures the update path
    options.heartbeatTimeoutSeconds = 60;  // 32 busy threads on a few cores must not look lost
    return options;
}

// The coordinator is created, run and destroyed on a thread of its own, which owns its sockets.
void serveCoordinator(const CoordinatorOptions& options, std::promise<CoordinatorEndpoints>& bound,
                      std::atomic<pid_t>& tid) {
    tid = gettid();
    auto coordinator = Coordinator::create(options);
    const Status ready = coordinator ? (*coordinator)->bind() : coordinator.status();
    if (!ready) {
        std::fprintf(stderr, "bench_coordinator: %s\n", ready.message().c_str());
        std::exit(2);
    }
    bound.set_value((*coordinator)->endpoints());
    (void)(*coordinator)->run();
}

ModeThroughput measure(const std::string& label, const wire::ModeSettings& mode, const Settings& s) {
    const CoordinatorOptions options = coordinatorOptions(mode, s);
    std::promise<CoordinatorEndpoints> bound;
    std::atomic<pid_t> coordinatorTid{0};
    std::thread server(serveCoordinator, std::cref(options), std::ref(bound), std::ref(coordinatorTid));
    const CoordinatorEndpoints endpoints = bound.get_future().get();
    const SharedFloats gradient = std::make_shared<const std::vector<float>>(235146, 1e-3f);
    Counters counters;
    zmq::context_t context{1};
    std::vector<std::thread> workers;
    for (unsigned i = 0; i < s.workers; ++i)
        workers.emplace_back(simulatedWorker, std::ref(context), endpoints.data, std::cref(gradient),
                             std::ref(counters));
    while (counters.started < s.workers) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(Seconds(s.warmup));

    const auto start = Clock::now();
    const uint64_t gradients0 = counters.gradients, version0 = counters.maxVersion;
    const ThreadTimes times0 = threadTimes(coordinatorTid);
    std::this_thread::sleep_for(Seconds(s.seconds));
    const double elapsed = Seconds(Clock::now() - start).count();
    const ThreadTimes times1 = threadTimes(coordinatorTid);
    const ModeThroughput result{label, (counters.maxVersion - version0) / elapsed,
                                (counters.gradients - gradients0) / elapsed,
                                (times1.running - times0.running) / elapsed,
                                (times1.waiting - times0.waiting) / elapsed};

    sendStop(endpoints.control);
    for (auto& w : workers) w.join();
    server.join();
    std::fprintf(stderr, "%s: %.1f updates/s, %.1f gradients/s, coordinator thread %.0f%% running, %.0f%% waiting\n",
                 label.c_str(), result.updatesPerSecond, result.gradientsPerSecond, 100 * result.coordinatorRunning,
                 100 * result.coordinatorWaiting);
    return result;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Each figure is the median of its repetitions, taken on its own.
ModeThroughput medianOf(const std::vector<ModeThroughput>& runs) {
    auto of = [&](double ModeThroughput::*field) {
        std::vector<double> values;
        for (const ModeThroughput& r : runs) values.push_back(r.*field);
        return median(values);
    };
    return {runs[0].mode, of(&ModeThroughput::updatesPerSecond), of(&ModeThroughput::gradientsPerSecond),
            of(&ModeThroughput::coordinatorRunning), of(&ModeThroughput::coordinatorWaiting)};
}

void printReport(const std::vector<std::vector<ModeThroughput>>& runs, const Settings& s) {
    // The coordinator thread's time on a CPU, and runnable but waiting for one, as % of the window.
    std::printf("%-8s %7s | %11s %13s %15s | %14s %14s\n", "mode", "workers", "updates/s", "gradients/s",
                "params out GB/s", "coord. run %", "coord. wait %");
    std::printf("%s\n", std::string(94, '-').c_str());
    std::string json;
    for (const auto& modeRuns : runs) {
        const ModeThroughput r = medianOf(modeRuns);
        // Every gradient is answered with one parameter frame of the mlp's 235,146 floats.
        const double outGBs = r.gradientsPerSecond * 235146 * sizeof(float) / 1e9;
        std::printf("%-8s %7u | %11.1f %13.1f %15.3f | %14.0f %14.0f\n", r.mode.c_str(), s.workers, r.updatesPerSecond,
                    r.gradientsPerSecond, outGBs, 100 * r.coordinatorRunning, 100 * r.coordinatorWaiting);
        char row[320];
        std::snprintf(row, sizeof row,
                      "{\"mode\":\"%s\",\"workers\":%u,\"updates_per_s\":%.2f,\"gradients_per_s\":%.2f,"
                      "\"params_out_gb_per_s\":%.4f,\"coordinator_thread_running\":%.3f,"
                      "\"coordinator_thread_waiting\":%.3f,\"updates_per_s_runs\":[",
                      r.mode.c_str(), s.workers, r.updatesPerSecond, r.gradientsPerSecond, outGBs, r.coordinatorRunning,
                      r.coordinatorWaiting);
        json += (json.empty() ? "" : ",") + std::string(row);
        for (size_t i = 0; i < modeRuns.size(); ++i) {
            if (i) json += ',';
            json += std::to_string(modeRuns[i].updatesPerSecond);
        }
        json += "]}";
    }
    std::printf("BENCH_SUMMARY {\"benchmark\":\"coordinator\",\"model\":\"mlp\",\"floats\":235146,\"workers\":%u,"
                "\"seconds\":%g,\"repeats\":%zu,\"rows\":[%s]}\n",
                s.workers, s.seconds, runs.empty() ? 0 : runs[0].size(), json.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    std::vector<std::string> modes{"asp", "bsp", "ssp"};
    unsigned staleness = 3;
    int repeats = 3;
    CLI::App app{"Coordinator throughput with simulated (compute-free) workers on the mlp buffer"};
    app.add_option("--workers", s.workers, "Simulated workers")->check(CLI::Range(1, 1024));
    app.add_option("--seconds", s.seconds, "Measurement window per mode")->check(CLI::Range(0.1, 600.0));
    app.add_option("--warmup", s.warmup, "Seconds run before the window opens")->check(CLI::Range(0.0, 600.0));
    app.add_option("--modes", modes, "Sync modes to measure")
        ->check(CLI::IsMember({"asp", "bsp", "ssp"}))
        ->delimiter(',');
    app.add_option("--repeats", repeats, "Measurements per mode, modes taking turns (median reported)")
        ->check(CLI::Range(1, 100));
    app.add_option("--staleness", staleness, "SSP bound s")->check(CLI::Range(0, 1000));
    app.add_option("--data", s.data, "Fashion-MNIST folder (the coordinator loads the test set)");
    CLI11_PARSE(app, argc, argv);

    std::vector<std::vector<ModeThroughput>> runs(modes.size());
    for (int rep = 0; rep < repeats; ++rep)
        for (size_t i = 0; i < modes.size(); ++i) {
            wire::ModeSettings mode;
            mode.set_mode(*parseSyncMode(modes[i]));
            mode.set_staleness_bound(staleness);
            const std::string label = modes[i] == "ssp" ? "ssp s=" + std::to_string(staleness) : modes[i];
            runs[i].push_back(measure(label, mode, s));
        }
    printReport(runs, s);
    return 0;
}
