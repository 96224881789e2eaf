// bench_coordinator: updates/s of a real in-process Coordinator fed by simulated workers (threads
// speaking the worker protocol, pushing a constant mlp-sized gradient the moment parameters arrive,
// no compute; simulated_cluster.h), per sync mode, directly, through A in-process group aggregators,
// or with the model on S in-process parameter shards; beside it the workers' round trip, the CPU of
// the coordinator's, the relays' and the workers' threads, the bytes of each telemetry tick and the
// snapshot a console would get. Prints two tables and `BENCH_SUMMARY {json}`.
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
#include "engine/coordinator/coordinator.h"
#include "engine/plan/mode_catalog.h"
#include "tests/bench/coordinator_probes.h"
#include "tests/bench/simulated_cluster.h"

using namespace syncscope::engine;
namespace wire = syncscope::wire;
using Seconds = std::chrono::duration<double>;
using namespace syncscope::bench;

namespace {

constexpr double kGradientBytes = kMlpFloats * sizeof(float);

void sendStop(const std::string& controlAddress, const EndpointSecurity& security) {
    zmq::context_t context{1};
    zmq::socket_t control(context, zmq::socket_type::dealer);
    control.set(zmq::sockopt::linger, 0);
    applySecurity(control, security, false);
    control.connect(controlAddress);
    wire::Envelope request;
    request.mutable_control()->set_stop(true);
    sendMessage(control, nullptr, request);
    zmq::pollitem_t item{control.handle(), 0, ZMQ_POLLIN, 0};
    zmq::poll(&item, 1, std::chrono::seconds(30));  // its reply: the run is stopping
}

/// One measurement; rates are per second of the window, CPU in CPU-seconds per second (cores busy).
struct ModeThroughput {
    std::string mode;
    unsigned aggregators = 0;  ///< A group aggregators between the workers and the coordinator
    unsigned shards = 0;       ///< S parameter shards holding the model
    double updatesPerSecond = 0, gradientsPerSecond = 0, parameterBytesPerSecond = 0;
    double loopRunning = 0, loopWaiting = 0;  ///< the coordinator's loop thread: on a CPU, and runnable waiting
    double coordinatorIo = 0;   ///< the coordinator's other threads (its ZeroMQ I/O threads, evaluator, reaper)
    double relayRun = 0;        ///< the aggregators' or shards' own threads (their run()), summed
    double relayIo = 0;         ///< their contexts' ZeroMQ threads, summed
    double workersIo = 0;       ///< the simulated workers' ZeroMQ context threads
    double workerThreads = 0;   ///< the simulated workers themselves (and the bench's probes)
    double tickBytes = 0, largestTick = 0, ticksPerSecond = 0;
    double snapshotBytes = 0, snapshotTicks = 0, snapshotGrowthPerMinute = 0, snapshotMs = 0;
    double snapshotBytesPerTick = 0;  ///< growth of the snapshot per tick it gained over the window
    std::string snapshotSeries;  ///< JSON [[run seconds, bytes, ticks, ms], ...] with --snapshot-every
    /// Over the whole run: gradients that reached the coordinator inside a GradientSum (of those the
    /// workers pushed); sums sent before every member arrived (of all sums); workers moved.
    double summedFraction = 0, partialSumFraction = 0, moves = 0;
    /// A worker's push (or first pull) to the whole parameters in, over the window (median, p95).
    double roundTripMs = 0, roundTripP95Ms = 0;
    /// Of the shards' pulls: those that came before their version and waited, and those answered
    /// with another version (it was no longer kept).
    double pullsWaitedFraction = 0, pullsOtherFraction = 0;
};

struct Settings {
    unsigned workers = 32;
    double warmup = 1.0, seconds = 3.0;
    std::string data = defaultFashionMnistDir();
    double snapshotEvery = 0;  ///< seconds between snapshots inside the window (0: only at its ends)
    int workerIoThreads = 1;   ///< of the simulated workers' ZeroMQ context
    std::optional<Credentials> credentials;  ///< serve's default security (--secure); none: --insecure
    unsigned groups = 0;       ///< grouped mode's G (0: A where there are aggregators, else the default)
    EndpointSecurity as(Role role) const {
        // As serve's default: control and telemetry on CURVE, the data plane sealed (encrypted).
        if (!credentials) return EndpointSecurity{};
        return EndpointSecurity::client(&*credentials, role, role == Role::Worker ? Protection::Sealed : Protection::Curve);
    }
};

CoordinatorOptions coordinatorOptions(const wire::ModeSettings& mode, const Settings& s) {
    CoordinatorOptions options;
    wire::RunPlan& plan = options.plan;  // the engine's defaults: mlp, batch 64, lr 0.05, momentum 0.9
    plan.mutable_layout()->set_workers(s.workers);
    plan.mutable_spec()->set_data_dir(s.data);
    plan.mutable_spec()->set_shard_count(s.workers);
    *plan.mutable_mode() = mode;
    plan.mutable_stop()->set_max_seconds(s.warmup + s.seconds + 600);  // stopped over the control channel long before
    plan.mutable_spec()->set_eval_interval_seconds(1e9);  // no periodic evaluation: this measures the update path
    plan.set_heartbeat_timeout_seconds(60);  // 32 busy threads on a few cores must not look lost
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

// CPU-seconds used so far by each group of the process's threads.
struct CpuReading {
    ThreadTimes loop;
    double coordinator = 0, relayRun = 0, relayIo = 0, workersIo = 0, process = 0;
};

struct ThreadGroups {
    pid_t loop = 0;
    std::vector<pid_t> coordinator, relayRun, relayIo, workersIo;
    CpuReading read() const {
        return {threadTimes(loop),           runningSeconds(coordinator), runningSeconds(relayRun),
                runningSeconds(relayIo), runningSeconds(workersIo),   processCpuSeconds()};
    }
};

void setCpu(ModeThroughput& r, const CpuReading& a, const CpuReading& b, double elapsed) {
    r.loopRunning = (b.loop.running - a.loop.running) / elapsed;
    r.loopWaiting = (b.loop.waiting - a.loop.waiting) / elapsed;
    r.coordinatorIo = (b.coordinator - a.coordinator) / elapsed - r.loopRunning;
    r.relayRun = (b.relayRun - a.relayRun) / elapsed;
    r.relayIo = (b.relayIo - a.relayIo) / elapsed;
    r.workersIo = (b.workersIo - a.workersIo) / elapsed;
    r.workerThreads = (b.process - a.process) / elapsed - r.loopRunning - r.coordinatorIo - r.relayRun -
                      r.relayIo - r.workersIo;
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

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())))];
}

ModeThroughput measure(const std::string& label, const wire::ModeSettings& mode, unsigned aggregatorCount,
                       unsigned shardCount, const Settings& s) {
    CoordinatorOptions options = coordinatorOptions(mode, s);
    options.plan.mutable_layout()->set_shards(shardCount);
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
    RelayThreads relays(shardCount ? RelayThreads::Kind::Shard : RelayThreads::Kind::Aggregator,
                        shardCount ? shardCount : aggregatorCount, endpoints.data, s.credentials);
    threads.relayRun = relays.runThreads();
    threads.relayIo = relays.ioThreads();
    const std::vector<pid_t> afterAggregators = processThreads();
    const SharedFloats gradient = std::make_shared<const std::vector<float>>(kMlpFloats, 1e-3f);
    WorkerCounters counters;
    zmq::context_t context{s.workerIoThreads};
    // Every simulated worker has a socket for the coordinator and one per shard, and a moving worker
    // opens its new socket before the old one is reaped: past ZeroMQ's default of 1,023 sockets per
    // context at 256 workers and 4 shards.
    context.set(zmq::ctxopt::max_sockets, std::max(1023, static_cast<int>(s.workers * (shardCount + 2) + 64)));
    { zmq::socket_t starter(context, zmq::socket_type::pair); }  // starts the context's threads now
    threads.workersIo = threadsStartedBetween(afterAggregators, processThreads());
    for (pid_t tid : threads.workersIo) prefixThreadName(tid, "w-");
    std::vector<std::thread> workers;
    for (unsigned i = 0; i < s.workers; ++i) {  // round-robin over the aggregators, if any
        const std::string& dial = aggregatorCount ? relays.endpoints()[i % aggregatorCount] : endpoints.data;
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
    counters.timing = true;
    ModeThroughput r;
    r.mode = label;
    r.aggregators = aggregatorCount;
    r.shards = shardCount;
    r.snapshotSeries = sleepThroughWindow(context, endpoints, s, born);
    const double elapsed = Seconds(Clock::now() - start).count();
    const CpuReading cpu1 = threads.read();
    counters.timing = false;
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
    const RelayTotals totals = relays.join();
    const AggregatorStats& stats = totals.aggregators;
    if (counters.gradients) r.summedFraction = static_cast<double>(stats.summed) / counters.gradients;
    if (stats.sums) r.partialSumFraction = static_cast<double>(stats.partialSums) / stats.sums;
    r.moves = counters.moves;
    r.roundTripMs = percentile(counters.roundTripsMs, 0.5);
    r.roundTripP95Ms = percentile(counters.roundTripsMs, 0.95);
    const ShardStats& shards = totals.shards;
    if (const double pulls = static_cast<double>(shards.pullsExact + shards.pullsOther)) {
        r.pullsWaitedFraction = shards.pullsWaited / pulls;
        r.pullsOtherFraction = shards.pullsOther / pulls;
    }
    std::fprintf(stderr,
                 "%s A=%u S=%u: %.1f updates/s, %.1f gradients/s, round trip %.2f ms (p95 %.2f); cores busy: loop %.2f "
                 "(+%.2f waiting), coordinator I/O %.2f, relays %.2f + I/O %.2f, workers' I/O %.2f, worker threads "
                 "%.2f; summed %.1f%% (%llu sums, %llu partial, %u moves); pulls waited %.1f%%, other version %.2f%%; "
                 "tick %.0f B; snapshot %.2f MB (+%.2f MB/min)\n",
                 label.c_str(), aggregatorCount, shardCount, r.updatesPerSecond, r.gradientsPerSecond, r.roundTripMs,
                 r.roundTripP95Ms, r.loopRunning, r.loopWaiting, r.coordinatorIo, r.relayRun, r.relayIo, r.workersIo,
                 r.workerThreads, 100 * r.summedFraction, static_cast<unsigned long long>(stats.sums),
                 static_cast<unsigned long long>(stats.partialSums), counters.moves.load(), 100 * r.pullsWaitedFraction,
                 100 * r.pullsOtherFraction, r.tickBytes, r.snapshotBytes / 1e6, r.snapshotGrowthPerMinute / 1e6);
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
    m.shards = runs[0].shards;
    for (auto field : {&ModeThroughput::updatesPerSecond, &ModeThroughput::gradientsPerSecond,
                       &ModeThroughput::parameterBytesPerSecond, &ModeThroughput::loopRunning,
                       &ModeThroughput::loopWaiting, &ModeThroughput::coordinatorIo, &ModeThroughput::relayRun,
                       &ModeThroughput::relayIo, &ModeThroughput::summedFraction,
                       &ModeThroughput::partialSumFraction, &ModeThroughput::moves, &ModeThroughput::workersIo,
                       &ModeThroughput::workerThreads, &ModeThroughput::tickBytes, &ModeThroughput::largestTick,
                       &ModeThroughput::ticksPerSecond, &ModeThroughput::snapshotBytes, &ModeThroughput::snapshotTicks,
                       &ModeThroughput::snapshotGrowthPerMinute, &ModeThroughput::snapshotMs,
                       &ModeThroughput::snapshotBytesPerTick, &ModeThroughput::roundTripMs,
                       &ModeThroughput::roundTripP95Ms, &ModeThroughput::pullsWaitedFraction,
                       &ModeThroughput::pullsOtherFraction})
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
                  "{\"mode\":\"%s\",\"workers\":%u,\"aggregators\":%u,\"shards\":%u,\"updates_per_s\":%.2f,\"gradients_per_s\":%.2f,"
                  "\"round_trip_ms\":%.3f,\"round_trip_p95_ms\":%.3f,\"pulls_waited_fraction\":%.4f,"
                  "\"pulls_other_fraction\":%.5f,"
                  "\"gradient_in_mb_per_s\":%.1f,\"params_out_mb_per_s\":%.1f,\"loop_cpu\":%.3f,"
                  "\"loop_waiting\":%.3f,\"coordinator_io_cpu\":%.3f,\"coordinator_cpu\":%.3f,"
                  "\"relay_cpu\":%.3f,\"relay_io_cpu\":%.3f,\"summed_fraction\":%.4f,"
                  "\"partial_sum_fraction\":%.4f,\"moves\":%.0f,"
                  "\"workers_io_cpu\":%.3f,\"worker_threads_cpu\":%.3f,\"tick_bytes\":%.0f,\"largest_tick\":%.0f,"
                  "\"ticks_per_s\":%.2f,\"snapshot_bytes\":%.0f,\"snapshot_ticks\":%.0f,"
                  "\"snapshot_growth_bytes_per_min\":%.0f,\"snapshot_bytes_per_kept_tick\":%.0f,\"snapshot_ms\":%.1f,",
                  r.mode.c_str(), workers, r.aggregators, r.shards, r.updatesPerSecond, r.gradientsPerSecond,
                  r.roundTripMs, r.roundTripP95Ms, r.pullsWaitedFraction, r.pullsOtherFraction,
                  r.gradientsPerSecond * kGradientBytes / 1e6, r.parameterBytesPerSecond / 1e6, r.loopRunning,
                  r.loopWaiting, r.coordinatorIo, r.loopRunning + r.coordinatorIo, r.relayRun, r.relayIo,
                  r.summedFraction, r.partialSumFraction, r.moves, r.workersIo, r.workerThreads, r.tickBytes,
                  r.largestTick, r.ticksPerSecond, r.snapshotBytes, r.snapshotTicks, r.snapshotGrowthPerMinute,
                  r.snapshotBytesPerTick, r.snapshotMs);
    return row + std::string("\"updates_per_s_runs\":") + runsJson(runs, &ModeThroughput::updatesPerSecond) +
           ",\"loop_cpu_runs\":" + runsJson(runs, &ModeThroughput::loopRunning) +
           ",\"snapshot_series\":" + r.snapshotSeries + "}";
}

/// "A4" (4 aggregators), "S2" (2 shards) or "-" (the coordinator alone).
std::string relaysLabel(const ModeThroughput& r) {
    if (r.shards) return "S" + std::to_string(r.shards);
    return r.aggregators ? "A" + std::to_string(r.aggregators) : "-";
}

void printReport(const std::vector<std::vector<ModeThroughput>>& runs, const Settings& s) {
    // bsp applies one update per round: its updates/s are rounds/s. "via": A group aggregators or S
    // parameter shards. "rt ms": a worker's round trip (push out, whole parameters in), median and
    // p95. CPU columns are cores busy; "relay" is the aggregators' or shards' own threads, "rly I/O"
    // their ZeroMQ threads; "summed" the gradients that reached the coordinator inside an
    // aggregator's sum, "partial" the sums sent before every member arrived.
    std::printf("%-17s %7s %4s | %9s %11s %9s %7s %7s | %5s %5s %7s %7s %5s %7s %7s %7s | %6s %7s\n", "mode",
                "workers", "via", "updates/s", "gradients/s", "grad MB/s", "rt ms", "rt p95", "loop", "wait",
                "crd I/O", "crd all", "relay", "rly I/O", "wkr I/O", "wkr thr", "summed", "partial");
    std::printf("%s\n", std::string(157, '-').c_str());
    std::vector<ModeThroughput> medians;
    for (const auto& modeRuns : runs) medians.push_back(medianOf(modeRuns));
    for (const ModeThroughput& r : medians)
        std::printf("%-17s %7u %4s | %9.1f %11.1f %9.1f %7.2f %7.2f | %5.2f %5.2f %7.2f %7.2f %5.2f %7.2f %7.2f %7.2f | "
                    "%5.1f%% %6.1f%%\n",
                    r.mode.c_str(), s.workers, relaysLabel(r).c_str(), r.updatesPerSecond, r.gradientsPerSecond,
                    r.gradientsPerSecond * kGradientBytes / 1e6, r.roundTripMs, r.roundTripP95Ms, r.loopRunning,
                    r.loopWaiting, r.coordinatorIo, r.loopRunning + r.coordinatorIo, r.relayRun, r.relayIo,
                    r.workersIo, r.workerThreads, 100 * r.summedFraction, 100 * r.partialSumFraction);
    std::printf("\n%-17s %7s %4s | %10s %10s %8s | %12s %9s %14s %11s %12s\n", "mode", "workers", "via", "tick bytes",
                "largest", "ticks/s", "snapshot MB", "its ticks", "growth MB/min", "B/kept tick", "snapshot ms");
    std::printf("%s\n", std::string(128, '-').c_str());
    for (const ModeThroughput& r : medians)
        std::printf("%-17s %7u %4s | %10.0f %10.0f %8.1f | %12.3f %9.0f %14.3f %11.0f %12.1f\n", r.mode.c_str(),
                    s.workers, relaysLabel(r).c_str(), r.tickBytes, r.largestTick, r.ticksPerSecond,
                    r.snapshotBytes / 1e6, r.snapshotTicks, r.snapshotGrowthPerMinute / 1e6, r.snapshotBytesPerTick,
                    r.snapshotMs);
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
    std::vector<unsigned> aggregatorCounts{0}, shardCounts{0};
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
    app.add_option("--shards", shardCounts,
                   "Parameter shards in-process holding the model, one row per count (0: the coordinator holds it); "
                   "modes asp, bsp and ssp, not with aggregators")
        ->check(CLI::Range(0u, ShardLinks::kMaxShards))
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
    app.add_flag("--secure,--curve", curve,
                 "serve's default security: control and telemetry on CURVE, the data plane encrypted (sealed frames)");
    app.add_option("--data", s.data, "Fashion-MNIST folder (the coordinator loads the test set)");
    CLI11_PARSE(app, argc, argv);
    if (curve) s.credentials = Credentials::generate();

    struct Row {
        std::string label;
        wire::ModeSettings mode;
        unsigned aggregators, shards;
    };
    std::vector<Row> rows;
    for (const std::string& name : modes)
        for (unsigned a : aggregatorCounts)
            for (unsigned shards : shardCounts) {
            if (a && shards) continue;  // they do not combine
            if (shards && name == "grouped") continue;  // grouped pins older versions, which shards do not keep
            Row row{name, {}, a, shards};
            row.mode.set_mode(*parseSyncMode(name));
            row.mode.set_staleness_bound(staleness);
            if (name == "ssp") row.label = "ssp s=" + std::to_string(staleness);
            if (name == "grouped") {
                row.mode.set_group_count(s.groups ? s.groups : a ? a : groupCount(row.mode));
                row.label = "grouped G=" + std::to_string(row.mode.group_count());
            }
            if (curve) row.label += " secure";
            rows.push_back(row);
            }
    std::vector<std::vector<ModeThroughput>> runs(rows.size());
    for (int rep = 0; rep < repeats; ++rep)
        for (size_t i = 0; i < rows.size(); ++i) runs[i].push_back(measure(rows[i].label, rows[i].mode, rows[i].aggregators, rows[i].shards, s));
    printReport(runs, s);
    return 0;
}
