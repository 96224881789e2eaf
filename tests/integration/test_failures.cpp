// Failures with real processes: a SIGKILLed worker is noticed by its missing heartbeats, bsp goes
// on with the others and a new worker joins; a SIGKILLed group aggregator is given up, and its
// workers exit or (dealt to it by the coordinator) come back through another; when the
// coordinator dies, workers say so and exit, or with --retry wait for a coordinator on the same
// port and train for it.
#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <set>

#include "cluster_fixture.h"

using namespace syncscope::testing;
namespace wire = syncscope::wire;

namespace {

const QStringList kRun{"--model", "mlp", "--batch", "64", "--eval-interval", "5"};

const wire::WorkerStats* statsOf(const wire::Tick& tick, uint32_t id) {
    for (const auto& w : tick.workers())
        if (w.worker_id() == id) return &w;
    return nullptr;
}

/// The id the coordinator gave the worker process `pid` (from its worker_joined event), or -1.
int workerIdOf(TelemetryProbe& telemetry, qint64 pid, int timeoutMs) {
    const std::string tag = "(pid " + std::to_string(pid) + "@";
    auto joined = telemetry.waitForEvent(
        [&](const wire::Event& e) { return e.kind() == wire::EVENT_WORKER_JOINED && e.detail().find(tag) != std::string::npos; },
        timeoutMs);
    return joined ? static_cast<int>(joined->worker_id()) : -1;
}

/// True if the model version goes up in each of `seconds` consecutive one-second windows.
bool keepsTraining(TelemetryProbe& telemetry, int seconds, QString* why) {
    auto last = telemetry.latest();
    for (int i = 0; last && i < seconds; ++i) {
        const double until = last->time_s() + 1.0;
        auto next = telemetry.waitForTick([&](const wire::Tick& t) { return t.time_s() >= until; }, 3000);
        if (!next) {
            *why = "no tick for 3 s";
            return false;
        }
        if (next->version() <= last->version()) {
            *why = QString("model version stuck at %1 from %2 s to %3 s")
                       .arg(last->version())
                       .arg(last->time_s())
                       .arg(next->time_s());
            return false;
        }
        last = next;
    }
    if (!last) *why = "no ticks";
    return last.has_value();
}

}  // namespace

class TestFailures : public QObject {
    Q_OBJECT
private slots:
    // bsp, 3 workers: one is SIGKILLed mid-run; it is marked lost within 3 s, the barrier moves on
    // with the other two, and a replacement process joins and contributes.
    void bspLostWorkerIsNoticedAndReplaced() {
        ClusterFixture cluster;
        const auto started =
            cluster.startCoordinator(QStringList{"--workers", "3", "--mode", "bsp", "--max-seconds", "60"} + kRun);
        QVERIFY2(started, started.message().c_str());
        for (int i = 0; i < 3; ++i) cluster.startWorker();
        TelemetryProbe& telemetry = cluster.telemetry();
        auto running = telemetry.waitForTick(
            [](const wire::Tick& t) {
                return t.state() == wire::RUN_RUNNING && t.version() >= 20 && t.workers_size() == 3 &&
                       std::all_of(t.workers().begin(), t.workers().end(),
                                   [](const auto& w) { return w.pushed() > 0; });
            },
            20'000);
        QVERIFY2(running, qPrintable("training did not start with 3 workers\n" + cluster.logs()));

        EngineChild& victim = cluster.worker(1);
        const int victimId = workerIdOf(telemetry, victim.pid(), 1000);
        QVERIFY2(victimId >= 0, "no worker_joined event names the victim's pid");
        QElapsedTimer sinceKill;
        sinceKill.start();
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
        const qint64 noticedMs = sinceKill.elapsed();
        QVERIFY2(lost, qPrintable("the killed worker was never marked lost\n" + cluster.logs()));
        qInfo("killed worker %d noticed as lost after %lld ms", victimId, static_cast<long long>(noticedMs));
        QVERIFY2(noticedMs <= 3000, qPrintable(QString("noticed after %1 ms").arg(noticedMs)));

        QString why;
        QVERIFY2(keepsTraining(telemetry, 3, &why), qPrintable("bsp stalled without the lost worker: " + why));
        const auto afterLoss = telemetry.latest();
        QCOMPARE(statsOf(*afterLoss, victimId)->state(), wire::WORKER_LOST);

        EngineChild& replacement = cluster.startWorker();
        const int newId = workerIdOf(telemetry, replacement.pid(), 15'000);
        QVERIFY2(newId >= 0, qPrintable("the new worker never joined\n" + cluster.logs()));
        QVERIFY(newId != victimId);
        auto contributing = telemetry.waitForTick(
            [&](const wire::Tick& t) {
                const wire::WorkerStats* s = statsOf(t, newId);
                return s && s->pushed() >= 5;
            },
            15'000);
        QVERIFY2(contributing, qPrintable("the new worker pushed no gradients\n" + cluster.logs()));
        QVERIFY2(keepsTraining(telemetry, 2, &why), qPrintable("bsp stalled after the new worker joined: " + why));

        wire::ControlRequest stop;
        stop.set_stop(true);
        const auto reply = cluster.control().request(stop);
        QVERIFY2(reply && reply->ok(), reply ? reply->error().c_str() : reply.status().message().c_str());
        QVERIFY2(cluster.coordinator().waitForExit(10'000), "the coordinator did not exit after stop");
        QCOMPARE(cluster.coordinator().exitCode(), 0);
    }

    // bsp, 4 workers and 2 group aggregators: one aggregator is SIGKILLed mid-run. Workers that
    // connected to it directly lose the coordinator (their heartbeats went through it) and exit
    // saying so. Workers that connected to the coordinator, which dealt them to the aggregators,
    // notice their unanswered push, register again and are dealt to the live aggregator. Either
    // way the coordinator drops the dead aggregator, bsp trains on, and every gradient pushed is
    // applied or dropped.
    void aggregatorCrash_data() {
        QTest::addColumn<bool>("dealt");
        QTest::newRow("workers connected to it") << false;
        QTest::newRow("workers dealt to it") << true;
    }
    void aggregatorCrash() {
        QFETCH(bool, dealt);
        ClusterFixture cluster;
        const auto started = cluster.startCoordinator(
            QStringList{"--workers", "4", "--mode", "bsp", "--max-seconds", "60", "--heartbeat-timeout", "2"} + kRun);
        QVERIFY2(started, started.message().c_str());
        const QString first = cluster.startAggregator(), second = cluster.startAggregator();
        QVERIFY2(!first.isEmpty() && !second.isEmpty(), qPrintable(cluster.logs()));
        for (int i = 0; i < 4; ++i) dealt ? cluster.startWorker() : cluster.startWorkerAt(i % 2 ? second : first);
        TelemetryProbe& telemetry = cluster.telemetry();
        QVERIFY2(telemetry.waitForTick([](const wire::Tick& t) { return t.state() == wire::RUN_RUNNING && t.version() >= 30; },
                                       30'000),
                 qPrintable("training did not start\n" + cluster.logs()));
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
        QVERIFY2(gone, qPrintable("the dead aggregator or its workers were not given up\n" + cluster.logs()));
        QCOMPARE(lost.size(), size_t(2));  // only its own
        QString why;
        QVERIFY2(keepsTraining(telemetry, 3, &why), qPrintable("bsp stalled after the aggregator died: " + why));
        if (dealt) {  // its workers are back, through the live aggregator: 4 train again
            auto back = telemetry.waitForTick(
                [](const wire::Tick& t) {
                    return std::count_if(t.workers().begin(), t.workers().end(), [](const wire::WorkerStats& w) {
                               return w.state() == wire::WORKER_COMPUTING || w.state() == wire::WORKER_WAITING;
                           }) == 4;
                },
                20'000);
            QVERIFY2(back, qPrintable("the dead aggregator's workers did not come back\n" + cluster.logs()));
            for (size_t i = 0; i < 4; ++i) QVERIFY2(cluster.worker(i).running(), "a worker exited");
        } else {
            for (size_t i : {size_t(1), size_t(3)}) {  // the workers behind the dead one
                QVERIFY2(cluster.worker(i).waitForExit(10'000), "a worker behind the dead aggregator kept running");
                QCOMPARE(cluster.worker(i).exitCode(), 3);
                QVERIFY2(cluster.worker(i).stderrText().contains("stopped answering"), qPrintable(cluster.worker(i).stderrText()));
            }
        }
        wire::ControlRequest stop;
        stop.set_stop(true);
        QVERIFY(cluster.control().request(stop));
        auto last = telemetry.waitForTick([](const wire::Tick& t) { return t.state() == wire::RUN_STOPPED; }, 10'000);
        QVERIFY(last);
        QVERIFY2(cluster.coordinator().waitForExit(15'000), "the coordinator did not exit after stop");
        QCOMPARE(cluster.coordinator().exitCode(), 0);
        QVERIFY2(cluster.aggregator(0).waitForExit(10'000), "the live aggregator did not end with the run");
        QCOMPARE(cluster.aggregator(0).exitCode(), 0);
        const auto final = telemetry.latest();
        QCOMPARE(final->pushed(), final->applied() + final->dropped());
    }

    // An aggregator that tells the coordinator an address its workers cannot reach (a wrong
    // --advertise): the workers dealt to it come back, the coordinator says which aggregator and
    // why, sends no one there again, and bsp trains on with the workers connected directly.
    void aggregatorAtAWrongAddress() {
        ClusterFixture cluster;
        const auto started = cluster.startCoordinator(QStringList{"--workers", "2", "--mode", "bsp", "--max-seconds", "60"} + kRun);
        QVERIFY2(started, started.message().c_str());
        QVERIFY2(!cluster.startAggregator({"--advertise", "tcp://127.0.0.1:1"}).isEmpty(), qPrintable(cluster.logs()));
        cluster.startWorker();
        cluster.startWorker();
        TelemetryProbe& telemetry = cluster.telemetry();
        auto said = telemetry.waitForEvent(
            [](const wire::Event& e) {
                return e.kind() == wire::EVENT_ERROR && e.detail().find("could not reach group aggregator 0") != std::string::npos;
            },
            30'000);
        QVERIFY2(said, qPrintable("no event named the unreachable aggregator\n" + cluster.logs()));
        QVERIFY2(said->detail().find("--advertise") != std::string::npos, said->detail().c_str());
        QString why;
        QVERIFY2(keepsTraining(telemetry, 3, &why), qPrintable("bsp did not train on: " + why + "\n" + cluster.logs()));
        QVERIFY(cluster.worker(0).running() && cluster.worker(1).running());
    }

    // A worker frozen (SIGSTOP) while it waits at the bsp barrier is marked lost; once thawed, its
    // heartbeats reach the coordinator again and it must be let back into training.
    void frozenWorkerTrainsAgainAfterThaw() {
        ClusterFixture cluster;
        // Worker 0 takes 3 s per iteration, so worker 1 spends nearly all its time at the barrier;
        // with a 1 s heartbeat timeout it is lost long before worker 0 completes the round.
        const auto started =
            cluster.startCoordinator(QStringList{"--workers", "2", "--mode", "bsp", "--max-seconds", "60", "--slowdown",
                                                 "0:1:3000", "--heartbeat-timeout", "1"} +
                                     kRun);
        QVERIFY2(started, started.message().c_str());
        cluster.startWorker();
        cluster.startWorker();
        TelemetryProbe& telemetry = cluster.telemetry();
        const auto round = telemetry.waitForTick([](const wire::Tick& t) { return t.version() >= 1; }, 20'000);
        QVERIFY2(round, qPrintable("no bsp round completed\n" + cluster.logs()));
        QThread::msleep(300);  // worker 1 has pushed and waits for worker 0
        const uint32_t id = 1;
        EngineChild& frozen = cluster.worker(workerIdOf(telemetry, cluster.worker(0).pid(), 1000) == int(id) ? 0 : 1);
        ::kill(static_cast<pid_t>(frozen.pid()), SIGSTOP);
        const auto lost = telemetry.waitForEvent(
            [&](const wire::Event& e) { return e.kind() == wire::EVENT_WORKER_LOST && e.worker_id() == id; }, 5000);
        ::kill(static_cast<pid_t>(frozen.pid()), SIGCONT);
        QVERIFY2(lost, "the frozen worker was not marked lost");
        const uint64_t pushedAtLoss = statsOf(*telemetry.latest(), id)->pushed();
        const auto back = telemetry.waitForTick(
            [&](const wire::Tick& t) {
                const wire::WorkerStats* s = statsOf(t, id);
                return s && s->state() != wire::WORKER_LOST && s->pushed() > pushedAtLoss;
            },
            8000);
        QVERIFY2(back, qPrintable(QString("8 s after the thaw worker %1 is still lost and has pushed nothing; it is "
                                          "alive and heartbeating but was never sent parameters again\n")
                                      .arg(id) +
                                  cluster.logs()));
    }

    // The coordinator is SIGKILLed: each worker notices the silence, says so and exits non-zero.
    void coordinatorDeathStopsWorkers() {
        ClusterFixture cluster;
        const auto started = cluster.startCoordinator(QStringList{"--workers", "2", "--max-seconds", "60"} + kRun);
        QVERIFY2(started, started.message().c_str());
        cluster.startWorker();
        cluster.startWorker();
        auto running = cluster.telemetry().waitForTick(
            [](const wire::Tick& t) {
                return t.workers_size() == 2 && std::all_of(t.workers().begin(), t.workers().end(),
                                                            [](const auto& w) { return w.pushed() > 0; });
            },
            20'000);
        QVERIFY2(running, qPrintable("training did not start\n" + cluster.logs()));

        QElapsedTimer sinceKill;
        sinceKill.start();
        cluster.coordinator().kill();
        for (size_t i = 0; i < 2; ++i) {
            EngineChild& worker = cluster.worker(i);
            const bool exited = worker.waitForExit(std::max<int>(0, 8000 - static_cast<int>(sinceKill.elapsed())));
            const qint64 exitMs = sinceKill.elapsed();
            QVERIFY2(exited, qPrintable(QString("worker %1 still running 8 s after the coordinator died").arg(i)));
            qInfo("worker %zu exited %lld ms after the coordinator was killed", i, static_cast<long long>(exitMs));
            QVERIFY2(exitMs <= 6000, qPrintable(QString("worker %1 took %2 ms to exit").arg(i).arg(exitMs)));
            QVERIFY2(worker.exitCode() > 0, qPrintable(QString("exit code %1").arg(worker.exitCode())));
            QVERIFY2(worker.stderrText().contains("stopped answering"), qPrintable(worker.stderrText()));
            QVERIFY2(!worker.stderrText().contains("terminate called"), qPrintable(worker.stderrText()));
        }
    }

    // --retry: the worker outlives its coordinator and trains for a new one on the same data port.
    void retryingWorkerRejoinsNewCoordinator() {
        const int port = pickFreePort();
        QVERIFY(port > 0);
        const QStringList serveArgs =
            QStringList{"--workers", "1", "--max-seconds", "60", "--data-port", QString::number(port)} + kRun;
        ClusterFixture cluster;
        auto started = cluster.startCoordinator(serveArgs);
        QVERIFY2(started, started.message().c_str());
        EngineChild& worker = cluster.startWorker({"--retry", "--coordinator-timeout", "1"});
        auto running = cluster.telemetry().waitForTick(
            [](const wire::Tick& t) { return t.workers_size() == 1 && t.workers(0).pushed() > 0; }, 20'000);
        QVERIFY2(running, qPrintable("training did not start\n" + cluster.logs()));

        cluster.coordinator().kill();
        QDeadlineTimer retryDeadline(6000);
        while (!worker.stderrText().contains("retrying") && worker.running() && !retryDeadline.hasExpired())
            QThread::msleep(50);
        QVERIFY2(worker.stderrText().contains("retrying"), qPrintable(worker.stderrText()));
        QVERIFY2(!worker.waitForExit(2000), qPrintable("the --retry worker exited:\n" + worker.stderrText()));

        started = cluster.startCoordinator(serveArgs);
        QVERIFY2(started, started.message().c_str());
        QVERIFY2(workerIdOf(cluster.telemetry(), worker.pid(), 15'000) >= 0,
                 qPrintable("the worker did not register with the new coordinator\n" + cluster.logs()));
        auto trained = cluster.telemetry().waitForTick(
            [](const wire::Tick& t) { return t.workers_size() == 1 && t.workers(0).pushed() > 0 && t.version() > 0; },
            15'000);
        QVERIFY2(trained, qPrintable("the worker did not train for the new coordinator\n" + cluster.logs()));
        QVERIFY(worker.running());
    }
};

QTEST_GUILESS_MAIN(TestFailures)
#include "test_failures.moc"
