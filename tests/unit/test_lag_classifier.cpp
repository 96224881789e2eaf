// classifyLag: a worker that is slow all the time is chronic, one slow for seconds now and then
// transient, one whose single ticks are noisy (a rate from a whole number of iterations) none, and
// so are the others; only the last kLagWindowSeconds count, and a lone worker lags no one.
#include <QTest>

#include <cmath>

#include "ui/model/lag_classifier.h"

using namespace syncscope::ui;

namespace {

// 8 workers at 10 Hz for `seconds`: worker 2 at a third of the speed throughout, worker 5 at a
// tenth for 2 s in every 10, worker 6 slow only before the last 30 s, worker 7 at 0 or twice its
// speed on alternate ticks (one iteration every 2 ticks).
TelemetryFrame frameOf(int seconds, unsigned workers = 8) {
    TelemetryFrame frame;
    for (uint32_t id = 0; id < workers; ++id)
        for (int t = 0; t < seconds * 10; ++t) {
            const double x = t / 10.0;
            double v = 900 + 10.0 * id;
            if (id == 2) v = 300;
            if (id == 5 && t % 100 < 20) v = 90;
            if (id == 7) v = t % 2 ? 1860 : 0;
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
        QVERIFY2(std::abs(lag.at(5).share - 0.2) < 0.04, qPrintable(QString::number(lag.at(5).share)));
        QVERIFY(lag.at(7).lag == Lag::None);  // noisy ticks, a steady mean
        QVERIFY(lag.at(6).lag == Lag::None);  // its slow minutes are older than the window
        for (uint32_t id : {0u, 1u, 3u, 4u}) QVERIFY(lag.at(id).lag == Lag::None);
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
