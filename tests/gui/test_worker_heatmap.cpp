// WorkerHeatmap: at 256 workers a slow worker's row is the dark one in samples/s, its cells are the
// mean of the figures in each time slice, the wait share is wait over the whole iteration, a click
// on a row names that worker, and a frame without figures draws nothing.
#include <QSignalSpy>
#include <QTest>

#include <cstdlib>

#include "ui/widgets/worker_heatmap.h"

using namespace syncscope;
using syncscope::ui::HeatmapMetric;
using syncscope::ui::WorkerHeatmap;

namespace {

constexpr uint32_t kWorkers = 256, kSlow = 17;

ui::TelemetryFrame frameOf(uint32_t workers, int seconds) {
    ui::TelemetryFrame frame;
    for (uint32_t id = 0; id < workers; ++id) {
        ui::WorkerSeries& w = frame.workers[id];
        w.id = id;
        for (int t = 0; t <= seconds * 10; ++t) {
            const double x = t / 10.0;
            w.samplesPerSecond.append({x, id == kSlow ? 10.0 : 100.0});
            w.stalenessMean.append({x, id == kSlow ? 0.0 : 2.0});
            w.computeMs.append({x, 60});
            w.commMs.append({x, 10});
            w.waitMs.append({x, id == kSlow ? 0.0 : 30.0});
        }
    }
    return frame;
}

// Colours of the same value within rounding (a mean of many floats).
bool near(QRgb a, QRgb b) {
    return std::abs(qRed(a) - qRed(b)) <= 1 && std::abs(qGreen(a) - qGreen(b)) <= 1 && std::abs(qBlue(a) - qBlue(b)) <= 1;
}

}  // namespace

class TestWorkerHeatmap : public QObject {
    Q_OBJECT
private slots:
    void theSlowWorkersRowStandsOut() {
        WorkerHeatmap map(HeatmapMetric::SamplesPerSecond);
        map.showFrame(frameOf(kWorkers, 60));
        QCOMPARE(map.cells().height(), int(kWorkers));
        QCOMPARE(map.cells().width(), WorkerHeatmap::kColumns);
        QCOMPARE(map.high(), 100.0);
        const QRgb slow = WorkerHeatmap::colorAt(0.1), fast = WorkerHeatmap::colorAt(1.0);
        QVERIFY(slow != fast);
        for (int c = 0; c < map.cells().width(); c += 17) {
            QVERIFY(near(map.cells().pixel(c, int(kSlow)), slow));
            QVERIFY(near(map.cells().pixel(c, int(kSlow) + 1), fast));
        }
    }

    void waitShareIsWaitOverTheIteration() {
        WorkerHeatmap map(HeatmapMetric::WaitShare);
        map.showFrame(frameOf(kWorkers, 10));  // 101 ticks: 100 slices, none empty
        QCOMPARE(map.high(), 1.0);
        QCOMPARE(map.cells().width(), 100);
        for (int c = 0; c < map.cells().width(); ++c) QVERIFY(qAlpha(map.cells().pixel(c, 0)) == 255);
        QVERIFY(near(map.cells().pixel(5, 0), WorkerHeatmap::colorAt(0.3)));  // 30 / (60 + 10 + 30)
        QVERIFY(near(map.cells().pixel(5, int(kSlow)), WorkerHeatmap::colorAt(0.0)));  // it never waits
        QVERIFY(!near(WorkerHeatmap::colorAt(0.3), WorkerHeatmap::colorAt(0.0)));
    }

    void aClickOnARowNamesItsWorker() {
        WorkerHeatmap map(HeatmapMetric::Staleness);
        map.resize(600, 520);
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        map.showFrame(frameOf(kWorkers, 30));
        QSignalSpy spy(&map, &WorkerHeatmap::workerClicked);
        // The row of worker kSlow: find a point inside it through the widget's own mapping.
        QPoint inRow;
        for (int y = 0; y < map.height() && inRow.isNull(); ++y)
            if (map.workerAt({map.width() / 2, y}) == int(kSlow)) inRow = {map.width() / 2, y};
        QVERIFY2(!inRow.isNull(), "no row of the slow worker on screen");
        QTest::mouseClick(&map, Qt::LeftButton, {}, inRow);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toUInt(), kSlow);
        QCOMPARE(map.workerAt({2, 2}), -1);  // the title, not a row
    }

    void aLongRunShowsItsLastTwoMinutes() {
        WorkerHeatmap map(HeatmapMetric::SamplesPerSecond);
        map.showFrame(frameOf(64, 600));
        QCOMPARE(map.windowEnd(), 600.0);
        QVERIFY(std::abs(map.windowStart() - (600.0 - WorkerHeatmap::kWindowSeconds)) < 1e-9);
        QCOMPARE(map.cells().width(), WorkerHeatmap::kColumns);
    }

    void nothingToDrawWithoutFigures() {
        WorkerHeatmap map(HeatmapMetric::SamplesPerSecond);
        map.showFrame(ui::TelemetryFrame{});
        QVERIFY(map.cells().isNull());
        map.showFrame(frameOf(kWorkers, 60));
        QVERIFY(!map.cells().isNull());
        map.showFrame(ui::TelemetryFrame{});  // a new run: the old picture goes
        QVERIFY(map.cells().isNull());
    }

    void redrawnOnlyASliceOnAndAtMostFourTimesASecond() {
        WorkerHeatmap map(HeatmapMetric::SamplesPerSecond);
        map.showFrame(frameOf(16, 120));  // slices of 0.75 s
        QCOMPARE(map.windowEnd(), 120.0);
        map.showFrame(frameOf(16, 120));  // the same newest tick: nothing to work out
        QCOMPARE(map.windowEnd(), 120.0);
        // Ten seconds of run a moment later (a fast replay): drawn when a quarter second is up.
        map.showFrame(frameOf(16, 130));
        QCOMPARE(map.windowEnd(), 120.0);
        QTRY_COMPARE_WITH_TIMEOUT(map.windowEnd(), 130.0, 1000);
        // A newer frame while one waits takes its place.
        map.showFrame(frameOf(16, 140));
        map.showFrame(frameOf(16, 150));
        QTRY_COMPARE_WITH_TIMEOUT(map.windowEnd(), 150.0, 1000);
        QTest::qWait(300);
        QCOMPARE(map.windowEnd(), 150.0);
    }
};

QTEST_MAIN(TestWorkerHeatmap)
#include "test_worker_heatmap.moc"
