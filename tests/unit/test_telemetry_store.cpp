// TelemetryStore: ticks become series, accuracy only on a new evaluation, a snapshot replaces
// everything, the cap reduces evenly over the whole run, frames are cached, and a network thread
// may ingest while the GUI thread reads.
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <thread>

#include "ui/model/lag_classifier.h"
#include "ui/model/telemetry_store.h"

using namespace syncscope::ui;
namespace wire = syncscope::wire;

namespace {

// Tick i at time i/10 s with `workers` workers; evaluations every 10 ticks from tick 5 on.
wire::Tick makeTick(int i, int workers = 2) {
    wire::Tick tick;
    tick.set_time_s(0.1 * i);
    tick.set_version(static_cast<uint64_t>(3 * i));
    tick.set_train_loss(2.0 / (1 + i));
    tick.set_updates_per_s(30.0 + i);
    const int evaluated = (i - 5) / 10 * 10 + 5;  // the last tick with an evaluation
    tick.set_test_accuracy(i < 5 ? -1.0 : 0.001 * evaluated);
    tick.set_test_version(i < 5 ? 0 : static_cast<uint64_t>(3 * evaluated));
    for (int w = 0; w < workers; ++w) {
        wire::WorkerStats* stats = tick.add_workers();
        stats->set_worker_id(static_cast<uint32_t>(w));
        stats->set_samples_per_s(100.0 * (w + 1) + i);
        stats->set_staleness_mean(0.5 * w);
        stats->set_compute_ms(10.0 + w);
        stats->set_comm_ms(2.0);
        stats->set_wait_ms(1.0 * i);
        stats->set_batch_size(64);
    }
    return tick;
}

wire::Event makeEvent(double time, wire::EventKind kind) {
    wire::Event event;
    event.set_time_s(time);
    event.set_kind(kind);
    return event;
}

}  // namespace

class TestTelemetryStore : public QObject {
    Q_OBJECT

private slots:
    // A control reply's event shows at once; the tick that carries it later does not add it again.
    void replyEventFirstThenTickOnce() {
        TelemetryStore store;
        store.ingestTick(makeTick(0));
        wire::Event event = makeEvent(0.15, wire::EVENT_SLOWDOWN);
        event.set_unix_ms(1234);
        event.set_detail("worker 1: x2 compute");
        QSignalSpy changed(&store, &TelemetryStore::changed);
        store.ingestEvent(event);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(store.frame()->events.size(), 1);
        wire::Tick tick = makeTick(2);
        *tick.add_events() = event;
        wire::Event other = makeEvent(0.18, wire::EVENT_LEARNING_RATE);
        other.set_unix_ms(1260);
        *tick.add_events() = other;
        store.ingestTick(tick);
        QCOMPARE(store.frame()->events.size(), 2);  // the slowdown once, the learning rate new
        QCOMPARE(store.frame()->events.back().kind(), wire::EVENT_LEARNING_RATE);
    }
    void ticksBecomeSeries() {
        TelemetryStore store;
        for (int i = 0; i < 3; ++i) store.ingestTick(makeTick(i));
        const auto frame = store.frame();
        QCOMPARE(frame->trainLoss, (QVector<QPointF>{{0.0, 2.0}, {0.1, 1.0}, {0.2, 2.0 / 3}}));
        QCOMPARE(frame->version, (QVector<QPointF>{{0.0, 0.0}, {0.1, 3.0}, {0.2, 6.0}}));
        QCOMPARE(frame->updatesPerSecond.last(), QPointF(0.2, 32.0));
        QCOMPARE(static_cast<int>(frame->workers.size()), 2);
        const WorkerSeries& second = frame->workers.at(1);
        QCOMPARE(second.id, 1u);
        QCOMPARE(second.samplesPerSecond, (QVector<QPointF>{{0.0, 200.0}, {0.1, 201.0}, {0.2, 202.0}}));
        QCOMPARE(second.stalenessMean.last(), QPointF(0.2, 0.5));
        QCOMPARE(second.computeMs.last(), QPointF(0.2, 11.0));
        QCOMPARE(second.commMs.last(), QPointF(0.2, 2.0));
        QCOMPARE(second.waitMs.last(), QPointF(0.2, 2.0));
        QCOMPARE(second.batchSize.last(), QPointF(0.2, 64.0));
        QCOMPARE(second.latest.samples_per_s(), 202.0);
        QVERIFY(frame->latest.has_value());
        QCOMPARE(frame->latest->version(), 6u);
        // The mean over the tick's workers (100 + i and 200 + i), one point per tick.
        QCOMPARE(frame->meanSamplesPerSecond, (QVector<QPointF>{{0.0, 150.0}, {0.1, 151.0}, {0.2, 152.0}}));
        QVERIFY(!frame->lag);  // a few workers: every one is a line, no lag column
    }

    void accuracyOnlyOnANewTestVersion() {
        TelemetryStore store;
        for (int i = 0; i < 30; ++i) store.ingestTick(makeTick(i));  // evaluations at ticks 5, 15, 25
        QCOMPARE(store.frame()->testAccuracy, (QVector<QPointF>{{0.5, 0.5}, {1.5, 1.5}, {2.5, 2.5}}));
    }

    void eventsFromTicksAreKept() {
        TelemetryStore store;
        wire::Tick tick = makeTick(0);
        *tick.add_events() = makeEvent(0.0, wire::EVENT_START);
        *tick.add_events() = makeEvent(0.05, wire::EVENT_MODE);
        store.ingestTick(tick);
        store.ingestTick(makeTick(1));
        const auto frame = store.frame();
        QCOMPARE(frame->events.size(), 2);
        QCOMPARE(frame->events[1].kind(), wire::EVENT_MODE);
    }

    void snapshotReplacesHistory() {
        TelemetryStore store;
        for (int i = 0; i < 50; ++i) store.ingestTick(makeTick(i, 3));
        const quint64 before = store.frame()->revision;

        wire::Snapshot snapshot;
        snapshot.mutable_header()->set_expected_workers(1);
        for (int i = 45; i < 55; ++i) *snapshot.add_ticks() = makeTick(i, 1);  // all repeat the old run's last evaluation
        *snapshot.add_events() = makeEvent(4.5, wire::EVENT_START);
        store.ingestSnapshot(snapshot);

        const auto frame = store.frame();
        QVERIFY(frame->revision > before);
        QCOMPARE(frame->header.expected_workers(), 1u);
        QCOMPARE(frame->trainLoss.size(), 10);
        QCOMPARE(frame->trainLoss.first().x(), 4.5);
        QCOMPARE(static_cast<int>(frame->workers.size()), 1);
        QCOMPARE(frame->workers.at(0).samplesPerSecond.size(), 10);
        QCOMPARE(frame->testAccuracy.size(), 1);  // the old run had seen this test_version too
        QCOMPARE(frame->events.size(), 1);
        QCOMPARE(frame->latest->time_s(), 5.4);
    }

    void capReducesEvenlyOverTheWholeRun() {
        constexpr int kCap = 256;
        constexpr int kTicks = 10 * kCap;
        constexpr double kSpike = 1e6;
        TelemetryStore store(kCap);
        for (int i = 0; i < kTicks; ++i) {
            wire::Tick tick = makeTick(i);
            if (i == 77) tick.mutable_workers(0)->set_wait_ms(kSpike);  // a straggler's stall, early on
            store.ingestTick(tick);
        }
        const auto frame = store.frame();
        const double end = 0.1 * (kTicks - 1);
        const QVector<QPointF>& waitMs = frame->workers.at(0).waitMs;
        for (const QVector<QPointF>* series : {&frame->trainLoss, &frame->version, &waitMs}) {
            QVERIFY(series->size() <= kCap);
            QCOMPARE(series->first().x(), 0.0);
            QCOMPARE(series->last().x(), end);
            // Reduced, not cut: every tenth of the run still holds a fair share of the points.
            for (int tenth = 0; tenth < 10; ++tenth) {
                const auto inTenth = std::count_if(series->cbegin(), series->cend(), [&](const QPointF& p) {
                    return p.x() >= end * tenth / 10 && p.x() < end * (tenth + 1) / 10;
                });
                QVERIFY2(inTenth >= kCap / 32, qPrintable(QString("tenth %1 has %2 points").arg(tenth).arg(inTenth)));
            }
        }
        QVERIFY(waitMs.contains(QPointF(7.7, kSpike)));
    }

    void manyWorkersShareThePointBudget() {
        constexpr int kWorkers = 64;
        constexpr int kTicks = 3000;  // 5 minutes at 10 Hz
        TelemetryStore store;
        const int cap = store.workerSeriesCap(kWorkers);
        QVERIFY(cap < TelemetryStore::kDefaultMaxPointsPerSeries);
        QCOMPARE(store.workerSeriesCap(2), TelemetryStore::kDefaultMaxPointsPerSeries);  // a small cluster keeps it all
        for (int i = 0; i < kTicks; ++i) store.ingestTick(makeTick(i, kWorkers));
        const auto frame = store.frame();
        qsizetype workerPoints = 0;
        for (const auto& [id, worker] : frame->workers)
            for (const QVector<QPointF>* series : {&worker.samplesPerSecond, &worker.stalenessMean, &worker.computeMs,
                                                   &worker.commMs, &worker.waitMs, &worker.batchSize}) {
                QVERIFY(series->size() <= cap);
                QVERIFY(series->size() >= cap / 4);
                QCOMPARE(series->first().x(), 0.0);  // reduced, never cut: the start of the run stays
                QCOMPARE(series->last().x(), 0.1 * (kTicks - 1));
                workerPoints += series->size();
            }
        QVERIFY(workerPoints <= TelemetryStore::kWorkerPointBudget);
        QCOMPARE(frame->trainLoss.size(), kTicks);  // the run's own series are under their own cap
        QCOMPARE(frame->meanSamplesPerSecond.size(), kTicks);
        QCOMPARE(frame->meanSamplesPerSecond.last().y(), 100.0 * (kWorkers + 1) / 2 + (kTicks - 1));
        // Many workers: the frame carries each worker's lag, worked out once for every view of it.
        QVERIFY(frame->lag);
        QCOMPARE(frame->lag->size(), size_t(kWorkers));
        QCOMPARE(frame->lag->at(0).lag, Lag::Chronic);  // 100 samples/s against a median of ~3,300
        QCOMPARE(frame->lag->at(kWorkers - 1).lag, Lag::None);
    }

    void frameIsCachedUntilTheStoreChanges() {
        TelemetryStore store;
        store.ingestTick(makeTick(0));
        const auto first = store.frame();
        QVERIFY(store.frame() == first);
        store.ingestTick(makeTick(1));
        const auto second = store.frame();
        QVERIFY(second != first);
        QCOMPARE(first->trainLoss.size(), 1);  // an earlier frame never changes
        QCOMPARE(second->trainLoss.size(), 2);
        store.clear();
        QVERIFY(store.frame()->trainLoss.isEmpty());
        QVERIFY(store.frame()->revision > second->revision);
    }

    void changedOncePerIngest() {
        TelemetryStore store;
        QSignalSpy spy(&store, &TelemetryStore::changed);
        store.ingestTick(makeTick(0));
        QCOMPARE(spy.count(), 1);
        wire::Snapshot snapshot;
        for (int i = 0; i < 5; ++i) *snapshot.add_ticks() = makeTick(i);
        store.ingestSnapshot(snapshot);
        QCOMPARE(spy.count(), 2);
        store.setHeader(wire::RecordingHeader{});
        store.clear();
        QCOMPARE(spy.count(), 4);
        store.frame();
        QCOMPARE(spy.count(), 4);  // reading changes nothing
    }

    void ingestFromAnotherThreadWhileReading() {
        constexpr int kCap = 256;
        constexpr int kTicks = 5000;
        TelemetryStore store(kCap);
        std::atomic<bool> done{false};
        std::thread network([&] {
            for (int i = 0; i < kTicks; ++i) {
                store.ingestTick(makeTick(i, 8));
                if (i == kTicks / 2) store.setHeader(wire::RecordingHeader{});
            }
            done = true;
        });
        // A failed check must not return before the join, so the reader counts problems instead.
        quint64 lastRevision = 0;
        int frames = 0, problems = 0;
        while (!done) {
            const auto frame = store.frame();
            problems += frame->revision < lastRevision;
            lastRevision = frame->revision;
            problems += frame->trainLoss.size() > kCap || frame->version.size() != frame->trainLoss.size();
            for (const auto& [id, worker] : frame->workers) problems += worker.waitMs.size() > kCap;
            ++frames;
        }
        network.join();
        const auto last = store.frame();
        QCOMPARE(last->latest->time_s(), 0.1 * (kTicks - 1));
        QCOMPARE(static_cast<int>(last->workers.size()), 8);
        QCOMPARE(problems, 0);
        QVERIFY(frames > 0);
    }
};

QTEST_APPLESS_MAIN(TestTelemetryStore)
#include "test_telemetry_store.moc"
