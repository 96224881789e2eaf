// bench_coordinator: updates/s of a real in-process Coordinator fed by simulated workers (threads
// speaking the worker protocol, pushing a constant mlp-sized gradient the moment parameters arrive,
// no compute), per sync mode, directly or through A in-process group aggregators; beside it the CPU
// of the coordinator's, the aggregators' and the workers' threads, the bytes of each telemetry tick
// and the snapshot a console would get. Prints two tables and `BENCH_SUMMARY {json}`.
#include <pthread.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "engine/core/check.h"
#include "engine/model/fashion_mnist.h"
#include "engine/net/protocol.h"
#include "engine/net/tensor_frame.h"
#include "engine/net/wire_codec.h"
#include "engine/ps/aggregator.h"
#include "engine/ps/coordinator.h"
#include "engine/ps/mode_catalog.h"
#include "tests/bench/coordinator_probes.h"

using namespace syncscope::engine;
namespace wire = syncscope::wire;
using Seconds = std::chrono::duration<double>;
using namespace syncscope::bench;

namespace {

constexpr size_t kMlpFloats = 235146;
constexpr double kGradientBytes = kMlpFloats * sizeof(float);

struct Counters {
    std::atomic<uint64_t> gradients{0}, maxVersion{0}, parameterBytes{0};
    std::atomic<uint32_t> started{0}, moves{0};
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

zmq::socket_t dial(zmq::context_t& context, const std::string& address, const EndpointSecurity& security) {
    zmq::socket_t socket(context, zmq::socket_type::dealer);
    socket.set(zmq::sockopt::linger, 0);
    applySecurity(socket, security, false);
    socket.connect(address);
    return socket;
}

// Register -> Welcome -> pull. Movable, as the native worker: in grouped mode the coordinator moves
// it to its group's aggregator, where it registers again with its session's id and token.
wire::Welcome join(zmq::socket_t& socket, wire::Envelope hello, size_t floats) {
    wire::Register* reg = hello.mutable_register_();
    reg->set_pid(static_cast<uint32_t>(getpid()));
    reg->set_hostname("bench");
    reg->set_backend("simulated");
    reg->set_movable(true);
    sendMessage(socket, nullptr, hello);
    const InboundMessage welcome = awaitReply(socket, floats);
    SS_CHECK(welcome.envelope.has_welcome(), "a Welcome in reply to Register");
    SS_CHECK(welcome.envelope.welcome().spec().parameter_count() == floats, "an mlp-sized model");
    wire::Envelope pull;
    pull.mutable_push()->set_worker_id(welcome.envelope.welcome().worker_id());
    sendMessage(socket, nullptr, pull);
    return welcome.envelope.welcome();
}

// Joins, then: Params in, the same gradient straight back out, until stopped.
void simulatedWorker(zmq::context_t& context, const std::string& address, const EndpointSecurity& security,
                     const SharedFloats& gradient, Counters& counters) {
    pthread_setname_np(pthread_self(), "sim-worker");
    zmq::socket_t socket = dial(context, address, security);
    const wire::Welcome welcome = join(socket, wire::Envelope{}, gradient->size());
    const uint32_t id = welcome.worker_id();
    for (bool started = false;;) {
        InboundMessage reply = awaitReply(socket, gradient->size());
        SS_CHECK(reply.envelope.has_params(), "only Params replies (simulated workers send no heartbeats)");
        const wire::Params& params = reply.envelope.params();
        if (!params.move_to().empty()) {
            socket = dial(context, params.move_to(), security);
            wire::Envelope again;
            again.mutable_register_()->set_worker_id(id);
            again.mutable_register_()->set_session_token(welcome.session_token());
            SS_CHECK(join(socket, again, gradient->size()).worker_id() == id, "the same session after a move");
            ++counters.moves;
            continue;
        }
        if (params.stop()) return;
        SS_CHECK(reply.tensor && reply.tensor->size() == gradient->size() * sizeof(float), "whole parameters");
        if (!started) ++counters.started;
        started = true;
        counters.parameterBytes += reply.tensor->size();
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

void sendStop(const std::string& controlAddress, const EndpointSecurity& security) {
    zmq::context_t context{1};
    zmq::socket_t control(context, zmq::socket_type::dealer);
    control.set(zmq::sockopt::linger, 0);
    applySecurity(control, security, false);
    control.connect(controlAddress);
    wire::Envelope request;
    request.mutable_control()->set_stop(true);
    sendMessage(control, nullptr, request);
    (void)awaitReply(control, 0);
}

/// One measurement; rates are per second of the window, CPU in CPU-seconds per second (cores busy).
struct ModeThroughput {
    std::string mode;
    unsigned aggregators = 0;  ///< A group aggregators between the workers and the coordinator
    double updatesPerSecond = 0, gradientsPerSecond = 0, parameterBytesPerSecond = 0;
    double loopRunning = 0, loopWaiting = 0;  ///< the coordinator's loop thread: on a CPU, and runnable waiting
    double coordinatorIo = 0;   ///< the coordinator's other threads (its ZeroMQ I/O threads, evaluator, reaper)
    double aggregatorRun = 0;   ///< the aggregators' own threads (Aggregator::run), summed
    double aggregatorIo = 0;    ///< their contexts' ZeroMQ threads, summed
    double workersIo = 0;       ///< the simulated workers' ZeroMQ context threads
    double workerThreads = 0;   ///< the simulated workers themselves (and the bench's probes)
    double tickBytes = 0, largestTick = 0, ticksPerSecond = 0;
    double snapshotBytes = 0, snapshotTicks = 0, snapshotGrowthPerMinute = 0, snapshotMs = 0;
    double snapshotBytesPerTick = 0;  ///< growth of the snapshot per tick it gained over the window
    std::string snapshotSeries;  ///< JSON [[run seconds, bytes, ticks, ms], ...] with --snapshot-every
    /// Over the whole run: gradients that reached the coordinator inside a GradientSum (of those the
    /// workers pushed); sums sent before every member arrived (of all sums); workers moved.
    double summedFraction = 0, partialSumFraction = 0, moves = 0;
};

struct Settings {
    unsigned workers = 32;
    double warmup = 1.0, seconds = 3.0;
    std::string data = defaultFashionMnistDir();
    double snapshotEvery = 0;  ///< seconds between snapshots inside the window (0: only at its ends)
    int workerIoThreads = 1;   ///< of the simulated workers' ZeroMQ context
    std::optional<Credentials> credentials;  ///< CURVE on every endpoint (--curve); none: --insecure
    unsigned groups = 0;       ///< grouped mode's G (0: A where there are aggregators, else the default)
    EndpointSecurity as(Role role) const {
        return credentials ? EndpointSecurity::client(&*credentials, role) : EndpointSecurity{};
    }
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
    options.maxSeconds = s.warmup + s.seconds + 600;  // stopped over the control channel long before
    options.evalIntervalSeconds = 1e9;     // no periodic evaluation: this measures the update path
    options.heartbeatTimeoutSeconds = 60;  // 32 busy threads on a few cores must not look lost
    options.credentials = s.credentials;
    return options;
}

// The coordinator is created, run and destroyed on a thread of its own, which owns its sockets.
void serveCoordinator(const CoordinatorOptions& options, std::promise<CoordinatorEndpoints>& bound,
                      std::atomic<pid_t>& tid) {
    tid = gettid();
    pthread_setname_np(pthread_self(), "coordinator");  // tells it apart in top and perf
    auto coordinator = Coordinator::create(options);
    const Status ready = coordinator ? (*coordinator)->bind() : coordinator.status();
    if (!ready) {
        std::fprintf(stderr, "bench_coordinator: %s\n", ready.message().c_str());
        std::exit(2);
    }
    bound.set_value((*coordinator)->endpoints());
    (void)(*coordinator)->run();
}

// Group aggregators as `syncscope-engine aggregate` runs them, but in-process: each is created,
// started, run and destroyed on a thread of its own named "aggregator" (its sockets never leave it).
// They start one after another, so each one's ZeroMQ threads are told apart from its neighbours' and
// they register in order (in grouped mode aggregator k serves group k mod A).
class AggregatorThreads {
public:
    AggregatorThreads(unsigned count, const std::string& coordinatorData, const std::optional<Credentials>& credentials) {
        for (unsigned k = 0; k < count; ++k) {
            const std::vector<pid_t> before = processThreads();
            AggregatorOptions options;
            options.connect = coordinatorData;
            options.bindHost = "127.0.0.1";
            options.credentials = credentials;
            auto slot = std::make_unique<Slot>();
            std::promise<std::pair<std::string, pid_t>> started;
            slot->thread = std::thread(serve, std::move(options), std::ref(started), std::ref(slot->stats));
            const auto [endpoint, tid] = started.get_future().get();
            m_endpoints.push_back(endpoint);
            m_runThreads.push_back(tid);
            for (pid_t t : threadsStartedBetween(before, processThreads()))
                if (t != tid) {
                    prefixThreadName(t, "a-");
                    m_ioThreads.push_back(t);
                }
            m_slots.push_back(std::move(slot));
        }
    }
    ~AggregatorThreads() { join(); }
    AggregatorThreads(const AggregatorThreads&) = delete;
    AggregatorThreads& operator=(const AggregatorThreads&) = delete;

    const std::vector<std::string>& endpoints() const { return m_endpoints; }
    const std::vector<pid_t>& runThreads() const { return m_runThreads; }
    const std::vector<pid_t>& ioThreads() const { return m_ioThreads; }
    /// Waits for every aggregator to end (the coordinator stops them when its run ends); their stats summed.
    AggregatorStats join() {
        AggregatorStats total;
        for (auto& slot : m_slots) {
            if (slot->thread.joinable()) slot->thread.join();
            total.relayed += slot->stats.relayed;
            total.summed += slot->stats.summed;
            total.sums += slot->stats.sums;
            total.partialSums += slot->stats.partialSums;
            total.fanouts += slot->stats.fanouts;
            total.fannedOut += slot->stats.fannedOut;
        }
        return total;
    }

private:
    struct Slot {
        std::thread thread;
        AggregatorStats stats;  ///< written by the thread as it ends, read after join
    };
    static void serve(AggregatorOptions options, std::promise<std::pair<std::string, pid_t>>& started,
                      AggregatorStats& stats) {
        pthread_setname_np(pthread_self(), "aggregator");
        Aggregator aggregator(std::move(options));
        if (const Status s = aggregator.start(); !s) {
            std::fprintf(stderr, "bench_coordinator: an aggregator did not start: %s\n", s.message().c_str());
            std::exit(2);
        }
        started.set_value({aggregator.endpoint(), gettid()});
        if (const Status s = aggregator.run(); !s)
            std::fprintf(stderr, "bench_coordinator: an aggregator ended early: %s\n", s.message().c_str());
        stats = aggregator.stats();
    }

    std::vector<std::unique_ptr<Slot>> m_slots;
    std::vector<std::string> m_endpoints;
    std::vector<pid_t> m_runThreads, m_ioThreads;
};

// CPU-seconds used so far by each group of the process's threads.
struct CpuReading {
    ThreadTimes loop;
    double coordinator = 0, aggregatorRun = 0, aggregatorIo = 0, workersIo = 0, process = 0;
};

struct ThreadGroups {
    pid_t loop = 0;
    std::vector<pid_t> coordinator, aggregatorRun, aggregatorIo, workersIo;
    CpuReading read() const {
        return {threadTimes(loop),           runningSeconds(coordinator), runningSeconds(aggregatorRun),
                runningSeconds(aggregatorIo), runningSeconds(workersIo),   processCpuSeconds()};
    }
};

void setCpu(ModeThroughput& r, const CpuReading& a, const CpuReading& b, double elapsed) {
    r.loopRunning = (b.loop.running - a.loop.running) / elapsed;
    r.loopWaiting = (b.loop.waiting - a.loop.waiting) / elapsed;
    r.coordinatorIo = (b.coordinator - a.coordinator) / elapsed - r.loopRunning;
    r.aggregatorRun = (b.aggregatorRun - a.aggregatorRun) / elapsed;
    r.aggregatorIo = (b.aggregatorIo - a.aggregatorIo) / elapsed;
    r.workersIo = (b.workersIo - a.workersIo) / elapsed;
    r.workerThreads = (b.process - a.process) / elapsed - r.loopRunning - r.coordinatorIo - r.aggregatorRun -
                      r.aggregatorIo - r.workersIo;
}

// The window: sleeps, or takes a snapshot every s.snapshotEvery seconds (which costs the loop time).
std::string sleepThroughWindow(zmq::context_t& context, const CoordinatorEndpoints& endpoints, const Settings& s,
                               Clock::time_point born) {
    if (s.snapshotEvery <= 0) {
        std::this_thread::sleep_for(Seconds(s.seconds));
        return "[]";
    }
    const auto end = Clock::now() + Seconds(s.seconds);
    std::string series = "[";
    for (auto next = Clock::now() + Seconds(s.snapshotEvery); next <= end; next += Seconds(s.snapshotEvery)) {
        std::this_thread::sleep_until(next);
        const SnapshotSize snap = takeSnapshot(context, endpoints.control, s.as(Role::Steer));
        const double at = Seconds(Clock::now() - born).count();
        std::fprintf(stderr, "  snapshot at %.0f s: %.3f MB, %.0f ticks, %.0f events, %.1f ms\n", at, snap.bytes / 1e6,
                     snap.ticks, snap.events, snap.roundTripMs);
        char row[128];
        std::snprintf(row, sizeof row, "%s[%.1f,%.0f,%.0f,%.1f]", series.size() > 1 ? "," : "", at, snap.bytes,
                      snap.ticks, snap.roundTripMs);
        series += row;
    }
    std::this_thread::sleep_until(end);
    return series + "]";
}

ModeThroughput measure(const std::string& label, const wire::ModeSettings& mode, unsigned aggregatorCount,
                       const Settings& s) {
    const CoordinatorOptions options = coordinatorOptions(mode, s);
    std::promise<CoordinatorEndpoints> bound;
    std::atomic<pid_t> coordinatorTid{0};
    ThreadGroups threads;
    const std::vector<pid_t> beforeCoordinator = processThreads();
    std::thread server(serveCoordinator, std::cref(options), std::ref(bound), std::ref(coordinatorTid));
    const CoordinatorEndpoints endpoints = bound.get_future().get();
    const auto born = Clock::now();
    const std::vector<pid_t> afterCoordinator = processThreads();
    threads.loop = coordinatorTid;
    threads.coordinator = threadsStartedBetween(beforeCoordinator, afterCoordinator);
    for (pid_t tid : threads.coordinator)
        if (tid != threads.loop) prefixThreadName(tid, "c-");
    AggregatorThreads aggregators(aggregatorCount, endpoints.data, s.credentials);
    threads.aggregatorRun = aggregators.runThreads();
    threads.aggregatorIo = aggregators.ioThreads();
    const std::vector<pid_t> afterAggregators = processThreads();
    const SharedFloats gradient = std::make_shared<const std::vector<float>>(kMlpFloats, 1e-3f);
    Counters counters;
    zmq::context_t context{s.workerIoThreads};
    { zmq::socket_t starter(context, zmq::socket_type::pair); }  // starts the context's threads now
    threads.workersIo = threadsStartedBetween(afterAggregators, processThreads());
    for (pid_t tid : threads.workersIo) prefixThreadName(tid, "w-");
    std::vector<std::thread> workers;
    for (unsigned i = 0; i < s.workers; ++i) {  // round-robin over the aggregators, if any
        const std::string& dial = aggregatorCount ? aggregators.endpoints()[i % aggregatorCount] : endpoints.data;
        workers.emplace_back(simulatedWorker, std::ref(context), dial, s.as(Role::Worker), std::cref(gradient),
                             std::ref(counters));
    }
    TickCounter ticks(context, endpoints.telemetry, s.as(Role::View));
    while (counters.started < s.workers) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(Seconds(s.warmup));

    const SnapshotSize snap0 = takeSnapshot(context, endpoints.control, s.as(Role::Steer));
    const auto snap0At = Clock::now();
    const auto start = Clock::now();
    const uint64_t gradients0 = counters.gradients, version0 = counters.maxVersion, bytes0 = counters.parameterBytes;
    const CpuReading cpu0 = threads.read();
    ticks.startCounting();
    ModeThroughput r;
    r.mode = label;
    r.aggregators = aggregatorCount;
    r.snapshotSeries = sleepThroughWindow(context, endpoints, s, born);
    const double elapsed = Seconds(Clock::now() - start).count();
    const CpuReading cpu1 = threads.read();
    ticks.stopCounting();
    r.updatesPerSecond = (counters.maxVersion - version0) / elapsed;
    r.gradientsPerSecond = (counters.gradients - gradients0) / elapsed;
    r.parameterBytesPerSecond = static_cast<double>(counters.parameterBytes - bytes0) / elapsed;
    setCpu(r, cpu0, cpu1, elapsed);
    r.ticksPerSecond = ticks.ticks() / elapsed;
    r.tickBytes = ticks.ticks() ? static_cast<double>(ticks.bytes()) / ticks.ticks() : 0;
    r.largestTick = static_cast<double>(ticks.largest());
    const SnapshotSize snap1 = takeSnapshot(context, endpoints.control, s.as(Role::Steer));
    r.snapshotBytes = snap1.bytes;
    r.snapshotTicks = snap1.ticks;
    r.snapshotMs = snap1.roundTripMs;
    r.snapshotGrowthPerMinute = (snap1.bytes - snap0.bytes) / Seconds(Clock::now() - snap0At).count() * 60;
    if (snap1.ticks > snap0.ticks) r.snapshotBytesPerTick = (snap1.bytes - snap0.bytes) / (snap1.ticks - snap0.ticks);

    sendStop(endpoints.control, s.as(Role::Steer));
    for (auto& w : workers) w.join();
    server.join();
    const AggregatorStats stats = aggregators.join();
    if (counters.gradients) r.summedFraction = static_cast<double>(stats.summed) / counters.gradients;
    if (stats.sums) r.partialSumFraction = static_cast<double>(stats.partialSums) / stats.sums;
    r.moves = counters.moves;
    std::fprintf(stderr,
                 "%s A=%u: %.1f updates/s, %.1f gradients/s; cores busy: loop %.2f (+%.2f waiting), coordinator I/O "
                 "%.2f, aggregators %.2f + I/O %.2f, workers' I/O %.2f, worker threads %.2f; summed %.1f%% (%llu sums, "
                 "%llu partial, %u moves); tick %.0f B; snapshot %.2f MB (+%.2f MB/min)\n",
                 label.c_str(), aggregatorCount, r.updatesPerSecond, r.gradientsPerSecond, r.loopRunning,
                 r.loopWaiting, r.coordinatorIo, r.aggregatorRun, r.aggregatorIo, r.workersIo, r.workerThreads,
                 100 * r.summedFraction, static_cast<unsigned long long>(stats.sums),
                 static_cast<unsigned long long>(stats.partialSums), counters.moves.load(), r.tickBytes,
                 r.snapshotBytes / 1e6, r.snapshotGrowthPerMinute / 1e6);
    return r;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Each figure is the median of its repetitions, taken on its own; the snapshot series is the last run's.
ModeThroughput medianOf(const std::vector<ModeThroughput>& runs) {
    auto of = [&](double ModeThroughput::*field) {
        std::vector<double> values;
        for (const ModeThroughput& r : runs) values.push_back(r.*field);
        return median(values);
    };
    ModeThroughput m;
    m.mode = runs[0].mode;
    m.aggregators = runs[0].aggregators;
    for (auto field : {&ModeThroughput::updatesPerSecond, &ModeThroughput::gradientsPerSecond,
                       &ModeThroughput::parameterBytesPerSecond, &ModeThroughput::loopRunning,
                       &ModeThroughput::loopWaiting, &ModeThroughput::coordinatorIo, &ModeThroughput::aggregatorRun,
                       &ModeThroughput::aggregatorIo, &ModeThroughput::summedFraction,
                       &ModeThroughput::partialSumFraction, &ModeThroughput::moves, &ModeThroughput::workersIo,
                       &ModeThroughput::workerThreads, &ModeThroughput::tickBytes, &ModeThroughput::largestTick,
                       &ModeThroughput::ticksPerSecond, &ModeThroughput::snapshotBytes, &ModeThroughput::snapshotTicks,
                       &ModeThroughput::snapshotGrowthPerMinute, &ModeThroughput::snapshotMs,
                       &ModeThroughput::snapshotBytesPerTick})
        m.*field = of(field);
    m.snapshotSeries = runs.back().snapshotSeries;
    return m;
}

std::string runsJson(const std::vector<ModeThroughput>& runs, double ModeThroughput::*field) {
    std::string out = "[";
    for (size_t i = 0; i < runs.size(); ++i) out += (i ? "," : "") + std::to_string(runs[i].*field);
    return out + "]";
}

std::string rowJson(const ModeThroughput& r, const std::vector<ModeThroughput>& runs, unsigned workers) {
    char row[2048];
    std::snprintf(row, sizeof row,
                  "{\"mode\":\"%s\",\"workers\":%u,\"aggregators\":%u,\"updates_per_s\":%.2f,\"gradients_per_s\":%.2f,"
                  "\"gradient_in_mb_per_s\":%.1f,\"params_out_mb_per_s\":%.1f,\"loop_cpu\":%.3f,"
                  "\"loop_waiting\":%.3f,\"coordinator_io_cpu\":%.3f,\"coordinator_cpu\":%.3f,"
                  "\"aggregator_cpu\":%.3f,\"aggregator_io_cpu\":%.3f,\"summed_fraction\":%.4f,"
                  "\"partial_sum_fraction\":%.4f,\"moves\":%.0f,"
                  "\"workers_io_cpu\":%.3f,\"worker_threads_cpu\":%.3f,\"tick_bytes\":%.0f,\"largest_tick\":%.0f,"
                  "\"ticks_per_s\":%.2f,\"snapshot_bytes\":%.0f,\"snapshot_ticks\":%.0f,"
                  "\"snapshot_growth_bytes_per_min\":%.0f,\"snapshot_bytes_per_kept_tick\":%.0f,\"snapshot_ms\":%.1f,",
                  r.mode.c_str(), workers, r.aggregators, r.updatesPerSecond, r.gradientsPerSecond,
                  r.gradientsPerSecond * kGradientBytes / 1e6, r.parameterBytesPerSecond / 1e6, r.loopRunning,
                  r.loopWaiting, r.coordinatorIo, r.loopRunning + r.coordinatorIo, r.aggregatorRun, r.aggregatorIo,
                  r.summedFraction, r.partialSumFraction, r.moves, r.workersIo, r.workerThreads, r.tickBytes,
                  r.largestTick, r.ticksPerSecond, r.snapshotBytes, r.snapshotTicks, r.snapshotGrowthPerMinute,
                  r.snapshotBytesPerTick, r.snapshotMs);
    return row + std::string("\"updates_per_s_runs\":") + runsJson(runs, &ModeThroughput::updatesPerSecond) +
           ",\"loop_cpu_runs\":" + runsJson(runs, &ModeThroughput::loopRunning) +
           ",\"snapshot_series\":" + r.snapshotSeries + "}";
}

void printReport(const std::vector<std::vector<ModeThroughput>>& runs, const Settings& s) {
    // bsp applies one update per round: its updates/s are rounds/s. CPU columns are cores busy; "agg"
    // is the aggregators' own threads, "agg I/O" their ZeroMQ threads, "summed" the gradients that
    // reached the coordinator inside an aggregator's sum, "partial" the sums sent before every member
    // arrived (Aggregator::kPartialSumAfter).
    std::printf("%-17s %7s %3s | %9s %11s %9s %9s | %5s %5s %7s %7s %5s %7s %7s %7s | %6s %7s\n", "mode", "workers",
                "A", "updates/s", "gradients/s", "grad MB/s", "param MB/s", "loop", "wait", "crd I/O", "crd all",
                "agg", "agg I/O", "wkr I/O", "wkr thr", "summed", "partial");
    std::printf("%s\n", std::string(153, '-').c_str());
    std::vector<ModeThroughput> medians;
    for (const auto& modeRuns : runs) medians.push_back(medianOf(modeRuns));
    for (const ModeThroughput& r : medians)
        std::printf("%-17s %7u %3u | %9.1f %11.1f %9.1f %9.1f | %5.2f %5.2f %7.2f %7.2f %5.2f %7.2f %7.2f %7.2f | "
                    "%5.1f%% %6.1f%%\n",
                    r.mode.c_str(), s.workers, r.aggregators, r.updatesPerSecond, r.gradientsPerSecond,
                    r.gradientsPerSecond * kGradientBytes / 1e6, r.parameterBytesPerSecond / 1e6, r.loopRunning,
                    r.loopWaiting, r.coordinatorIo, r.loopRunning + r.coordinatorIo, r.aggregatorRun, r.aggregatorIo,
                    r.workersIo, r.workerThreads, 100 * r.summedFraction, 100 * r.partialSumFraction);
    std::printf("\n%-17s %7s %3s | %10s %10s %8s | %12s %9s %14s %11s %12s\n", "mode", "workers", "A", "tick bytes",
                "largest", "ticks/s", "snapshot MB", "its ticks", "growth MB/min", "B/kept tick", "snapshot ms");
    std::printf("%s\n", std::string(127, '-').c_str());
    for (const ModeThroughput& r : medians)
        std::printf("%-17s %7u %3u | %10.0f %10.0f %8.1f | %12.3f %9.0f %14.3f %11.0f %12.1f\n", r.mode.c_str(),
                    s.workers, r.aggregators, r.tickBytes, r.largestTick, r.ticksPerSecond, r.snapshotBytes / 1e6,
                    r.snapshotTicks, r.snapshotGrowthPerMinute / 1e6, r.snapshotBytesPerTick, r.snapshotMs);
    std::string json;
    for (size_t i = 0; i < medians.size(); ++i) json += (i ? "," : "") + rowJson(medians[i], runs[i], s.workers);
    std::printf("BENCH_SUMMARY {\"benchmark\":\"coordinator\",\"model\":\"mlp\",\"floats\":%zu,\"workers\":%u,"
                "\"seconds\":%g,\"warmup\":%g,\"repeats\":%zu,\"worker_io_threads\":%d,\"curve\":%s,\"rows\":[%s]}\n",
                kMlpFloats, s.workers, s.seconds, s.warmup, runs.empty() ? 0 : runs[0].size(), s.workerIoThreads,
                s.credentials ? "true" : "false",
                json.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    std::vector<std::string> modes{"asp", "bsp", "ssp"};
    std::vector<unsigned> aggregatorCounts{0};
    unsigned staleness = 3;
    int repeats = 3;
    CLI::App app{"Coordinator throughput with simulated (compute-free) workers on the mlp buffer"};
    app.add_option("--workers", s.workers, "Simulated workers")->check(CLI::Range(1, 1024));
    app.add_option("--seconds", s.seconds, "Measurement window per mode")->check(CLI::Range(0.1, 3600.0));
    app.add_option("--warmup", s.warmup, "Seconds run before the window opens")->check(CLI::Range(0.0, 600.0));
    app.add_option("--modes", modes, "Sync modes to measure")
        ->check(CLI::IsMember({"asp", "bsp", "ssp", "grouped"}))
        ->delimiter(',');
    app.add_option("--aggregators", aggregatorCounts,
                   "Group aggregators in-process between workers and coordinator, one row per count (0: none); "
                   "workers connect to them round-robin")
        ->check(CLI::Range(0, 256))
        ->delimiter(',');
    app.add_option("--groups", s.groups, "Grouped mode's G (default: the aggregator count, or the mode's default)")
        ->check(CLI::Range(0, 1024));
    app.add_option("--repeats", repeats, "Measurements per mode and aggregator count, taking turns (median reported)")
        ->check(CLI::Range(1, 100));
    app.add_option("--staleness", staleness, "SSP bound s")->check(CLI::Range(0, 1000));
    app.add_option("--snapshot-every", s.snapshotEvery,
                   "Also take a snapshot every this many seconds inside the window (each costs the coordinator's loop)")
        ->check(CLI::Range(0.0, 3600.0));
    app.add_option("--worker-io-threads", s.workerIoThreads, "ZeroMQ I/O threads of the simulated workers' context")
        ->check(CLI::Range(1, 16));
    bool curve = false;
    app.add_flag("--curve", curve, "CURVE on every endpoint, as serve's default (the data plane encrypted)");
    app.add_option("--data", s.data, "Fashion-MNIST folder (the coordinator loads the test set)");
    CLI11_PARSE(app, argc, argv);
    if (curve) s.credentials = Credentials::generate();

    struct Row {
        std::string label;
        wire::ModeSettings mode;
        unsigned aggregators;
    };
    std::vector<Row> rows;
    for (const std::string& name : modes)
        for (unsigned a : aggregatorCounts) {
            Row row{name, {}, a};
            row.mode.set_mode(*parseSyncMode(name));
            row.mode.set_staleness_bound(staleness);
            if (name == "ssp") row.label = "ssp s=" + std::to_string(staleness);
            if (name == "grouped") {
                row.mode.set_group_count(s.groups ? s.groups : a ? a : groupCount(row.mode));
                row.label = "grouped G=" + std::to_string(row.mode.group_count());
            }
            if (curve) row.label += " curve";
            rows.push_back(row);
        }
    std::vector<std::vector<ModeThroughput>> runs(rows.size());
    for (int rep = 0; rep < repeats; ++rep)
        for (size_t i = 0; i < rows.size(); ++i) runs[i].push_back(measure(rows[i].label, rows[i].mode, rows[i].aggregators, s));
    printReport(runs, s);
    return 0;
}
