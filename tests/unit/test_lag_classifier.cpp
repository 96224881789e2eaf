// classifyLag: a worker that is slow at every tick is chronic, one slow now and then transient, the
// others none; only the last kLagWindowSeconds count, and a lone worker lags no one.
#include <QTest>

#include <cmath>

#include "ui/model/lag_classifier.h"

using namespace syncscope::ui;

namespace {

// 8 workers at 10 Hz for `seconds`: worker 2 at a third of the speed throughout, worker 5 at a
// tenth one tick in ten, worker 6 slow only before the last 30 s.
TelemetryFrame frameOf(int seconds, unsigned workers = 8) {
    TelemetryFrame frame;
    for (uint32_t id = 0; id < workers; ++id)
        for (int t = 0; t < seconds * 10; ++t) {
            const double x = t / 10.0;
            double v = 900 + 10.0 * id;
            if (id == 2) v = 300;
            if (id == 5 && t % 10 == 0) v = 90;
            if (id == 6 && x < seconds - kLagWindowSeconds - 1) v = 100;
            frame.workers[id].samplesPerSecond.append({x, v});
        }
    return frame;
}

}  // namespace

class TestLagClassifier : public QObject {
    Q_OBJECT
private slots:
    void chronicTransientAndNone() {
        const auto lag = classifyLag(frameOf(90));
        QCOMPARE(lag.size(), size_t(8));
        QVERIFY(lag.at(2).lag == Lag::Chronic);
        QCOMPARE(lag.at(2).share, 1.0);
        QVERIFY(std::abs(lag.at(2).relativeSpeed - 300.0 / 930.0) < 0.02);
        QVERIFY(lag.at(5).lag == Lag::Transient);
        QVERIFY(std::abs(lag.at(5).share - 0.1) < 0.01);
        QVERIFY(lag.at(6).lag == Lag::None);  // its slow minutes are older than the window
        for (uint32_t id : {0u, 1u, 3u, 4u, 7u}) QVERIFY(lag.at(id).lag == Lag::None);
    }

    void aLoneWorkerLagsNoOne() {
        const auto lag = classifyLag(frameOf(40, 1));
        QCOMPARE(lag.size(), size_t(1));
        QVERIFY(lag.at(0).lag == Lag::None);
        QVERIFY(classifyLag(TelemetryFrame{}).empty());
    }
};

QTEST_GUILESS_MAIN(TestLagClassifier)
#include "test_lag_classifier.moc"
