// Failures with real processes: a SIGKILLed worker is noticed by its missing heartbeats, bsp goes
// on with the others and a new worker joins; a SIGKILLed group aggregator is given up, and its
// workers exit or (dealt to it by the coordinator) come back through another; when the
// coordinator dies, workers say so and exit, or with --retry wait for a coordinator on the same
// port and train for it, and its relays (an aggregator, a shard) end saying why.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <set>
#include <string>

#include "tests/integration/engine_cluster.h"

using namespace syncscope::testing;
namespace wire = syncscope::wire;

namespace {

const Args kRun{"--model", "mlp", "--batch", "64", "--eval-interval", "5"};

const wire::WorkerStats* statsOf(const wire::Tick& tick, uint32_t id) {
    for (const auto& w : tick.workers())
        if (w.worker_id() == id) return &w;
    return nullptr;
}

/// The id the coordinator gave the worker process `pid` (from its worker_joined event), or -1.
int workerIdOf(TelemetryProbe& telemetry, pid_t pid, int timeoutMs) {
    const std::string tag = "(pid " + std::to_string(pid) + "@";
    auto joined = telemetry.waitForEvent(
        [&](const wire::Event& e) { return e.kind() == wire::EVENT_WORKER_JOINED && e.detail().find(tag) != std::string::npos; },
        timeoutMs);
    return joined ? static_cast<int>(joined->worker_id()) : -1;
}

/// True if the model version goes up in each of `seconds` consecutive one-second windows.
bool keepsTraining(TelemetryProbe& telemetry, int seconds, std::string* why) {
    auto last = telemetry.latest();
    for (int i = 0; last && i < seconds; ++i) {
        const double until = last->time_s() + 1.0;
        auto next = telemetry.waitForTick([&](const wire::Tick& t) { return t.time_s() >= until; }, 3000);
        if (!next) {
            *why = "no tick for 3 s";
            return false;
        }
        if (next->version() <= last->version()) {
            *why = "model version stuck at " + std::to_string(last->version()) + " from " + std::to_string(last->time_s()) +
                   " s to " + std::to_string(next->time_s()) + " s";
            return false;
        }
        last = next;
    }
    if (!last) *why = "no ticks";
    return last.has_value();
}

}  // namespace

// bsp, 3 workers: one is SIGKILLed mid-run; it is marked lost within 3 s, the barrier moves on
// with the other two, and a replacement process joins and contributes.
TEST(TestFailures, bspLostWorkerIsNoticedAndReplaced) {
    EngineCluster cluster;
    const auto started =
        cluster.startCoordinator(Args{"--workers", "3", "--mode", "bsp", "--max-seconds", "60"} + kRun);
    ASSERT_TRUE(started) << started.message().c_str();
    for (int i = 0; i < 3; ++i) cluster.startWorker();
    TelemetryProbe& telemetry = cluster.telemetry();
    auto running = telemetry.waitForTick(
        [](const wire::Tick& t) {
            return t.state() == wire::RUN_RUNNING && t.version() >= 20 && t.workers_size() == 3 &&
                   std::all_of(t.workers().begin(), t.workers().end(),
                               [](const auto& w) { return w.pushed() > 0; });
        },
        20'000);
    ASSERT_TRUE(running) << "training did not start with 3 workers\n" + cluster.logs();

    EngineChild& victim = cluster.worker(1);
    const int victimId = workerIdOf(telemetry, victim.pid(), 1000);
    ASSERT_TRUE(victimId >= 0) << "no worker_joined event names the victim's pid";
    Stopwatch sinceKill;
    victim.kill();
    auto lost = telemetry.waitForTick(
        [&](const wire::Tick& t) {
            const wire::WorkerStats* s = statsOf(t, victimId);
            const bool event = std::any_of(t.events().begin(), t.events().end(), [&](const wire::Event& e) {
                return e.kind() == wire::EVENT_WORKER_LOST && e.worker_id() == static_cast<uint32_t>(victimId);
            });
            return event || (s && s->state() == wire::WORKER_LOST);
        },
        10'000);
    const long long noticedMs = sinceKill.elapsedMs();
    ASSERT_TRUE(lost) << "the killed worker was never marked lost\n" + cluster.logs();
    testLog("killed worker %d noticed as lost after %lld ms", victimId, static_cast<long long>(noticedMs));
    ASSERT_TRUE(noticedMs <= 3000) << "noticed after " << noticedMs << " ms";

    std::string why;
    ASSERT_TRUE(keepsTraining(telemetry, 3, &why)) << "bsp stalled without the lost worker: " + why;
    const auto afterLoss = telemetry.latest();
    ASSERT_EQ(statsOf(*afterLoss, victimId)->state(), wire::WORKER_LOST);

    EngineChild& replacement = cluster.startWorker();
    const int newId = workerIdOf(telemetry, replacement.pid(), 15'000);
    ASSERT_TRUE(newId >= 0) << "the new worker never joined\n" + cluster.logs();
    ASSERT_TRUE(newId != victimId);
    auto contributing = telemetry.waitForTick(
        [&](const wire::Tick& t) {
            const wire::WorkerStats* s = statsOf(t, newId);
            return s && s->pushed() >= 5;
        },
        15'000);
    ASSERT_TRUE(contributing) << "the new worker pushed no gradients\n" + cluster.logs();
    ASSERT_TRUE(keepsTraining(telemetry, 2, &why)) << "bsp stalled after the new worker joined: " + why;

    wire::ControlRequest stop;
    stop.set_stop(true);
    const auto reply = cluster.control().request(stop);
    ASSERT_TRUE(reply && reply->ok()) << (reply ? reply->error().c_str() : reply.status().message().c_str());
    ASSERT_TRUE(cluster.coordinator().waitForExit(10'000)) << "the coordinator did not exit after stop";
    ASSERT_EQ(cluster.coordinator().exitCode(), 0);
}

// bsp, 4 workers and 2 group aggregators: one aggregator is SIGKILLed mid-run. Workers that
// connected to it directly lose the coordinator (their heartbeats went through it) and exit
// saying so. Workers that connected to the coordinator, which dealt them to the aggregators,
// notice their unanswered push, register again and are dealt to the live aggregator. Either
// way the coordinator drops the dead aggregator, bsp trains on, and every gradient pushed is
// applied or dropped.
static void aggregatorCrash(bool dealt) {
    EngineCluster cluster;
    const auto started = cluster.startCoordinator(
        Args{"--workers", "4", "--mode", "bsp", "--max-seconds", "60", "--heartbeat-timeout", "2"} + kRun);
    ASSERT_TRUE(started) << started.message().c_str();
    const std::string first = cluster.startAggregator(), second = cluster.startAggregator();
    ASSERT_TRUE(!first.empty() && !second.empty()) << cluster.logs();
    for (int i = 0; i < 4; ++i) dealt ? cluster.startWorker() : cluster.startWorkerAt(i % 2 ? second : first);
    TelemetryProbe& telemetry = cluster.telemetry();
    ASSERT_TRUE(telemetry.waitForTick([](const wire::Tick& t) { return t.state() == wire::RUN_RUNNING && t.version() >= 30; },
                                   30'000)) << "training did not start\n" + cluster.logs();
    cluster.aggregator(1).kill();
    std::set<uint32_t> lost;
    bool aggregatorGone = false;
    auto gone = telemetry.waitForTick(
        [&](const wire::Tick& t) {
            for (const wire::Event& e : t.events()) {
                if (e.kind() == wire::EVENT_WORKER_LOST) lost.insert(e.worker_id());
                aggregatorGone |= e.detail().find("group aggregator 1") != std::string::npos &&
                                  e.detail().find("gone") != std::string::npos;
            }
            return lost.size() >= 2 && aggregatorGone;
        },
        15'000);
    ASSERT_TRUE(gone) << "the dead aggregator or its workers were not given up\n" + cluster.logs();
    ASSERT_EQ(lost.size(), size_t(2));  // only its own
    std::string why;
    ASSERT_TRUE(keepsTraining(telemetry, 3, &why)) << "bsp stalled after the aggregator died: " + why;
    if (dealt) {  // its workers are back, through the live aggregator: 4 train again
        auto back = telemetry.waitForTick(
            [](const wire::Tick& t) {
                return std::count_if(t.workers().begin(), t.workers().end(), [](const wire::WorkerStats& w) {
                           return w.state() == wire::WORKER_COMPUTING || w.state() == wire::WORKER_WAITING;
                       }) == 4;
            },
            20'000);
        ASSERT_TRUE(back) << "the dead aggregator's workers did not come back\n" + cluster.logs();
        for (size_t i = 0; i < 4; ++i) ASSERT_TRUE(cluster.worker(i).running()) << "a worker exited";
    } else {
        for (size_t i : {size_t(1), size_t(3)}) {  // the workers behind the dead one
            ASSERT_TRUE(cluster.worker(i).waitForExit(10'000)) << "a worker behind the dead aggregator kept running";
            ASSERT_EQ(cluster.worker(i).exitCode(), 3);
            ASSERT_TRUE(contains(cluster.worker(i).stderrText(), "stopped answering")) << cluster.worker(i).stderrText();
        }
    }
    wire::ControlRequest stop;
    stop.set_stop(true);
    ASSERT_TRUE(cluster.control().request(stop));
    auto last = telemetry.waitForTick([](const wire::Tick& t) { return t.state() == wire::RUN_STOPPED; }, 10'000);
    ASSERT_TRUE(last);
    ASSERT_TRUE(cluster.coordinator().waitForExit(15'000)) << "the coordinator did not exit after stop";
    ASSERT_EQ(cluster.coordinator().exitCode(), 0);
    ASSERT_TRUE(cluster.aggregator(0).waitForExit(10'000)) << "the live aggregator did not end with the run";
    ASSERT_EQ(cluster.aggregator(0).exitCode(), 0);
    const auto final = telemetry.latest();
    ASSERT_EQ(final->pushed(), final->applied() + final->dropped());
}

TEST(TestFailures, aggregatorCrash) {
    for (const auto& [row, dealt] : {std::pair{"workers connected to it", false}, std::pair{"workers dealt to it", true}}) {
        SCOPED_TRACE(row);
        aggregatorCrash(dealt);
    }
}

// An aggregator that tells the coordinator an address its workers cannot reach (a wrong
// --advertise): the workers dealt to it come back, the coordinator says which aggregator and
// why, sends no one there again, and bsp trains on with the workers connected directly.
TEST(TestFailures, aggregatorAtAWrongAddress) {
    EngineCluster cluster;
    const auto started = cluster.startCoordinator(Args{"--workers", "2", "--mode", "bsp", "--max-seconds", "60"} + kRun);
    ASSERT_TRUE(started) << started.message().c_str();
    ASSERT_TRUE(!cluster.startAggregator({"--advertise", "tcp://127.0.0.1:1"}).empty()) << cluster.logs();
    cluster.startWorker();
    cluster.startWorker();
    TelemetryProbe& telemetry = cluster.telemetry();
    auto said = telemetry.waitForEvent(
        [](const wire::Event& e) {
            return e.kind() == wire::EVENT_ERROR && e.detail().find("could not reach group aggregator 0") != std::string::npos;
        },
        30'000);
    ASSERT_TRUE(said) << "no event named the unreachable aggregator\n" + cluster.logs();
    ASSERT_TRUE(said->detail().find("--advertise") != std::string::npos) << said->detail().c_str();
    std::string why;
    ASSERT_TRUE(keepsTraining(telemetry, 3, &why)) << "bsp did not train on: " + why + "\n" + cluster.logs();
    ASSERT_TRUE(cluster.worker(0).running() && cluster.worker(1).running());
}

// A worker frozen (SIGSTOP) while it waits at the bsp barrier is marked lost; once thawed, its
// heartbeats reach the coordinator again and it must be let back into training.
TEST(TestFailures, frozenWorkerTrainsAgainAfterThaw) {
    EngineCluster cluster;
    // Worker 0 takes 3 s per iteration, so worker 1 spends nearly all its time at the barrier;
    // with a 1 s heartbeat timeout it is lost long before worker 0 completes the round.
    const auto started =
        cluster.startCoordinator(Args{"--workers", "2", "--mode", "bsp", "--max-seconds", "60", "--slowdown",
                                             "0:1:3000", "--heartbeat-timeout", "1"} +
                                 kRun);
    ASSERT_TRUE(started) << started.message().c_str();
    cluster.startWorker();
    cluster.startWorker();
    TelemetryProbe& telemetry = cluster.telemetry();
    const auto round = telemetry.waitForTick([](const wire::Tick& t) { return t.version() >= 1; }, 20'000);
    ASSERT_TRUE(round) << "no bsp round completed\n" + cluster.logs();
    sleepMs(300);  // worker 1 has pushed and waits for worker 0
    const uint32_t id = 1;
    EngineChild& frozen = cluster.worker(workerIdOf(telemetry, cluster.worker(0).pid(), 1000) == int(id) ? 0 : 1);
    ::kill(static_cast<pid_t>(frozen.pid()), SIGSTOP);
    const auto lost = telemetry.waitForEvent(
        [&](const wire::Event& e) { return e.kind() == wire::EVENT_WORKER_LOST && e.worker_id() == id; }, 5000);
    ::kill(static_cast<pid_t>(frozen.pid()), SIGCONT);
    ASSERT_TRUE(lost) << "the frozen worker was not marked lost";
    const uint64_t pushedAtLoss = statsOf(*telemetry.latest(), id)->pushed();
    const auto back = telemetry.waitForTick(
        [&](const wire::Tick& t) {
            const wire::WorkerStats* s = statsOf(t, id);
            return s && s->state() != wire::WORKER_LOST && s->pushed() > pushedAtLoss;
        },
        8000);
    ASSERT_TRUE(back) << "8 s after the thaw worker " << id
                      << " is still lost and has pushed nothing; it is alive and heartbeating but was never sent "
                         "parameters again\n"
                      << cluster.logs();
}

// The coordinator is SIGKILLed: each worker notices the silence, says so and exits non-zero.
TEST(TestFailures, coordinatorDeathStopsWorkers) {
    EngineCluster cluster;
    const auto started = cluster.startCoordinator(Args{"--workers", "2", "--max-seconds", "60"} + kRun);
    ASSERT_TRUE(started) << started.message().c_str();
    cluster.startWorker();
    cluster.startWorker();
    auto running = cluster.telemetry().waitForTick(
        [](const wire::Tick& t) {
            return t.workers_size() == 2 && std::all_of(t.workers().begin(), t.workers().end(),
                                                        [](const auto& w) { return w.pushed() > 0; });
        },
        20'000);
    ASSERT_TRUE(running) << "training did not start\n" + cluster.logs();

    Stopwatch sinceKill;
    cluster.coordinator().kill();
    for (size_t i = 0; i < 2; ++i) {
        EngineChild& worker = cluster.worker(i);
        const bool exited = worker.waitForExit(std::max<int>(0, 8000 - static_cast<int>(sinceKill.elapsedMs())));
        const long long exitMs = sinceKill.elapsedMs();
        ASSERT_TRUE(exited) << "worker " << i << " still running 8 s after the coordinator died";
        testLog("worker %zu exited %lld ms after the coordinator was killed", i, static_cast<long long>(exitMs));
        ASSERT_TRUE(exitMs <= 6000) << "worker " << i << " took " << exitMs << " ms to exit";
        ASSERT_TRUE(worker.exitCode() > 0) << "exit code " << worker.exitCode();
        ASSERT_TRUE(contains(worker.stderrText(), "stopped answering")) << worker.stderrText();
        ASSERT_TRUE(!contains(worker.stderrText(), "terminate called")) << worker.stderrText();
    }
}

// Relays outlive no coordinator: a SIGKILLed coordinator's group aggregator and parameter shard
// hear nothing (it answered their heartbeats), and end with an error naming it and what to do, in
// --coordinator-timeout, instead of waiting for ever (a Slurm step whose coordinator died ends).
TEST(TestFailures, relaysGiveUpADeadCoordinator) {
    for (const char* relay : {"aggregate", "shard"}) {
        SCOPED_TRACE(relay);
        const bool shard = std::string(relay) == "shard";
        EngineCluster cluster;
        Args serve = Args{"--workers", "2", "--max-seconds", "60"} + kRun;
        if (shard) serve << "--shards" << "1";
        const auto started = cluster.startCoordinator(serve);
        ASSERT_TRUE(started) << started.message().c_str();
        const Args patient{"--coordinator-timeout", "2"};
        const std::string at = shard ? cluster.startShard(patient) : cluster.startAggregator(patient);
        ASSERT_TRUE(!at.empty()) << cluster.logs();
        for (int i = 0; i < 2; ++i) shard ? cluster.startWorker() : cluster.startWorkerAt(at);
        ASSERT_TRUE(cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 20; }, 20'000))
            << "training did not start\n" + cluster.logs();
        sleepMs(3000);  // longer than the timeout: the heartbeat replies keep a live coordinator's relay
        EngineChild& child = shard ? cluster.shard(0) : cluster.aggregator(0);
        ASSERT_TRUE(!child.waitForExit(0)) << "the relay ended while its coordinator was alive\n" + cluster.logs();
        Stopwatch sinceKill;
        cluster.coordinator().kill();
        ASSERT_TRUE(child.waitForExit(10'000)) << "the relay still runs 10 s after its coordinator died";
        testLog("%s exited %lld ms after the coordinator was killed", relay, static_cast<long long>(sinceKill.elapsedMs()));
        ASSERT_TRUE(child.exitCode() > 0) << "exit code " << child.exitCode();
        ASSERT_TRUE(contains(child.stderrText(), "sent nothing for")) << child.stderrText();
        ASSERT_TRUE(contains(child.stderrText(), "serve --resume")) << child.stderrText();
    }
}

// --retry: the worker outlives its coordinator and trains for a new one on the same data port.
TEST(TestFailures, retryingWorkerRejoinsNewCoordinator) {
    const int port = pickFreePort();
    ASSERT_TRUE(port > 0);
    const Args serveArgs =
        Args{"--workers", "1", "--max-seconds", "60", "--data-port", std::to_string(port)} + kRun;
    EngineCluster cluster;
    auto started = cluster.startCoordinator(serveArgs);
    ASSERT_TRUE(started) << started.message().c_str();
    EngineChild& worker = cluster.startWorker({"--retry", "--coordinator-timeout", "1"});
    auto running = cluster.telemetry().waitForTick(
        [](const wire::Tick& t) { return t.workers_size() == 1 && t.workers(0).pushed() > 0; }, 20'000);
    ASSERT_TRUE(running) << "training did not start\n" + cluster.logs();

    cluster.coordinator().kill();
    Deadline retryDeadline(6000);
    while (!contains(worker.stderrText(), "retrying") && worker.running() && !retryDeadline.expired())
        sleepMs(50);
    ASSERT_TRUE(contains(worker.stderrText(), "retrying")) << worker.stderrText();
    ASSERT_TRUE(!worker.waitForExit(2000)) << "the --retry worker exited:\n" + worker.stderrText();

    started = cluster.startCoordinator(serveArgs);
    ASSERT_TRUE(started) << started.message().c_str();
    ASSERT_TRUE(workerIdOf(cluster.telemetry(), worker.pid(), 15'000) >= 0) << "the worker did not register with the new coordinator\n" + cluster.logs();
    auto trained = cluster.telemetry().waitForTick(
        [](const wire::Tick& t) { return t.workers_size() == 1 && t.workers(0).pushed() > 0 && t.version() > 0; },
        15'000);
    ASSERT_TRUE(trained) << "the worker did not train for the new coordinator\n" + cluster.logs();
    ASSERT_TRUE(worker.running());
}
