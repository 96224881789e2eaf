// Worker selection for line charts: up to kLinesUpToWorkers every worker is a line; beyond, the
// slowest kSlowestShown (slowest first) and a chosen one. (The mean over workers is the store's:
// test_telemetry_store.)
#include <QTest>

#include "ui/model/worker_selection.h"

using namespace syncscope::ui;

namespace {

// `workers` at 10 Hz for 40 s; worker i runs at 1000 + 10 i samples/s, except 7, 3, 11 and 250
// (where present), which run at 100, 200, 300 and 400.
TelemetryFrame frameOf(uint32_t workers) {
    TelemetryFrame frame;
    for (uint32_t id = 0; id < workers; ++id)
        for (int t = 0; t < 400; ++t) {
            double v = 1000 + 10.0 * id;
            if (id == 7) v = 100;
            if (id == 3) v = 200;
            if (id == 11) v = 300;
            if (id == 250) v = 400;
            frame.workers[id].samplesPerSecond.append({t / 10.0, v});
            frame.workers[id].stalenessMean.append({t / 10.0, double(id % 2)});
        }
    return frame;
}

}  // namespace

class TestWorkerSelection : public QObject {
    Q_OBJECT
private slots:
    void fewWorkersAreAllLines() {
        const TelemetryFrame frame = frameOf(kLinesUpToWorkers);
        QCOMPARE(lineWorkers(frame).size(), kLinesUpToWorkers);
    }

    void manyWorkersShowTheSlowestAndTheChosen() {
        const TelemetryFrame frame = frameOf(256);
        QCOMPARE(slowestWorkers(frame, kSlowestShown), (std::vector<uint32_t>{7, 3, 11, 250}));
        QCOMPARE(lineWorkers(frame, 128), (std::vector<uint32_t>{3, 7, 11, 128, 250}));  // in id order
        QCOMPARE(lineWorkers(frame, 7).size(), kSlowestShown);  // chosen among the slowest
        QCOMPARE(lineWorkers(frame, 9999).size(), kSlowestShown);  // no such worker
    }

    void aShownWorkerKeepsItsLineWhileItIsAmongTheSlowest() {
        TelemetryFrame frame = frameOf(256);
        // Worker 20 was shown; it is now the 5th slowest (of 2 x 4 kept): it stays, in 250's place.
        for (QPointF& point : frame.workers[20].samplesPerSecond) point.setY(500);
        QCOMPARE(slowestWorkers(frame, kSlowestShown, {7, 3, 11, 20}), (std::vector<uint32_t>{7, 3, 11, 20}));
        QCOMPARE(slowestWorkers(frame, kSlowestShown), (std::vector<uint32_t>{7, 3, 11, 250}));
        // Beyond the slowest 8 it gives its place to the slowest of the others.
        for (QPointF& point : frame.workers[20].samplesPerSecond) point.setY(2000);
        QCOMPARE(slowestWorkers(frame, kSlowestShown, {7, 3, 11, 20}), (std::vector<uint32_t>{7, 3, 11, 250}));
    }
};

QTEST_GUILESS_MAIN(TestWorkerSelection)
#include "test_worker_selection.moc"
