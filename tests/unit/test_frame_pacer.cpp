// FramePacer: frames follow new data no closer than kMinIntervalMs, further apart as they cost more
// (the next waits 1/kFrameShare times the last one's cost), and an answer to the user (a prompt
// frame) is drawn at once, even when it is asked for while a frame's own events are being handled.
#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <vector>

#include "ui/widgets/frame_pacer.h"

using namespace syncscope::ui;

class TestFramePacer : public QObject {
    Q_OBJECT
private slots:
    void framesFollowDataAtTheMinimumInterval() {
        int frames = 0;
        FramePacer pacer([&] { ++frames; });
        QElapsedTimer clock;
        clock.start();
        pacer.requestFrame();
        pacer.requestFrame();  // coalesced with the first
        QTRY_COMPARE_WITH_TIMEOUT(frames, 1, 1000);
        QVERIFY(clock.elapsed() >= FramePacer::kMinIntervalMs - 5);
        QTest::qWait(2 * FramePacer::kMinIntervalMs);
        QCOMPARE(frames, 1);  // no new data, no frame
    }

    void anExpensiveFrameSpacesTheNext() {
        constexpr int kCostMs = 30;
        std::vector<qint64> drawnAt;
        QElapsedTimer clock;
        clock.start();
        FramePacer pacer([&] {
            drawnAt.push_back(clock.elapsed());
            QThread::msleep(kCostMs);
        });
        pacer.requestFrame();
        QTRY_COMPARE_WITH_TIMEOUT(int(drawnAt.size()), 1, 1000);
        QTest::qWait(5);  // the frame's cost is taken once its events are through
        // The sleep may overrun on a loaded machine (30 ms took 34 under ctest -j2): at least the
        // nominal cost's interval, and not far beyond it.
        QVERIFY2(pacer.intervalMs() >= int(kCostMs / FramePacer::kFrameShare) &&
                     pacer.intervalMs() <= int((kCostMs + 15) / FramePacer::kFrameShare),
                 qPrintable(QStringLiteral("interval %1 ms for a %2 ms frame").arg(pacer.intervalMs()).arg(kCostMs)));
        pacer.requestFrame();
        QTRY_COMPARE_WITH_TIMEOUT(int(drawnAt.size()), 2, 1000);
        QVERIFY(drawnAt[1] - drawnAt[0] >= kCostMs + int(kCostMs / FramePacer::kFrameShare) - 5);
    }

    // A control reply handled among the events a frame posted (before the frame's cost is known)
    // must not wait the long interval that the frame's cost then sets.
    void aPromptFrameAskedDuringAFrameIsDrawnAtOnce() {
        constexpr int kCostMs = 50;  // the next ordinary frame waits 200 ms
        FramePacer* pacer = nullptr;
        std::vector<qint64> drawnAt;
        QElapsedTimer clock;
        clock.start();
        qint64 askedAt = -1;
        FramePacer pacerObject([&] {
            drawnAt.push_back(clock.elapsed());
            QThread::msleep(kCostMs);
            if (drawnAt.size() == 1)  // as a queued reply would, among the frame's posted events
                QMetaObject::invokeMethod(pacer, [&] {
                    askedAt = clock.elapsed();
                    pacer->requestPromptFrame();
                }, Qt::QueuedConnection);
        });
        pacer = &pacerObject;
        pacer->requestFrame();
        QTRY_COMPARE_WITH_TIMEOUT(int(drawnAt.size()), 2, 2000);
        QVERIFY(askedAt >= 0);
        QVERIFY2(drawnAt[1] - askedAt < FramePacer::kMinIntervalMs,
                 qPrintable(QStringLiteral("asked at %1 ms, drawn at %2 ms").arg(askedAt).arg(drawnAt[1])));
    }
};

QTEST_GUILESS_MAIN(TestFramePacer)
#include "test_frame_pacer.moc"
