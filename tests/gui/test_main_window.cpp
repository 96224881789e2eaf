// MainWindow against a real local cluster of two workers: charts fill, steering changes travel to
// the engine, and its events come back (log line, chart marker, status bar); closing stops the cluster.
#include <QComboBox>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSlider>
#include <QtTest>

#include "ui/widgets/charts_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/steering_panel.h"
#include "ui/widgets/time_chart.h"

using namespace syncscope;
using namespace syncscope::ui;

namespace {

constexpr int kEngineTimeoutMs = 30'000;

int totalMarkers(const ChartsPanel& charts) {
    int markers = 0;
    for (QChartView* view : charts.chartViews())
        if (auto* chart = qobject_cast<TimeChart*>(view)) markers += chart->markerCount();
    return markers;
}

bool logMatches(const MainWindow& window, const QString& pattern) {
    const QRegularExpression re(pattern, QRegularExpression::CaseInsensitiveOption);
    return re.match(window.logView()->toPlainText()).hasMatch();
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void steersARealLocalCluster();
};

void TestMainWindow::steersARealLocalCluster() {
    MainWindow window(QStringLiteral(SYNCSCOPE_ENGINE_BINARY));
    window.setStopClusterAnswer(true);
    window.resize(1400, 900);
    window.show();
    LocalClusterSettings settings;
    settings.workers = 2;
    settings.backend = QStringLiteral("cpu");
    settings.epochs = 0;
    settings.maxSeconds = 40;
    settings.dataDir = QStringLiteral(SYNCSCOPE_FASHION_MNIST_DIR);
    window.startLocalCluster(settings);

    ChartsPanel& charts = *window.chartsPanel();
    SteeringPanel& steering = *window.steeringPanel();
    QTRY_VERIFY_WITH_TIMEOUT(charts.pointCount(QStringLiteral("Samples/s per worker")) > 4, kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("Mode: BSP")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("State: running")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(steering.slowdownSlider(0) != nullptr, kEngineTimeoutMs);

    QVERIFY(!steering.groupsSlider()->isEnabled());
    QVERIFY(!steering.groupsSlider()->toolTip().isEmpty());

    const int markersBefore = totalMarkers(charts);
    steering.modeSelector()->setCurrentIndex(steering.modeSelector()->findData(wire::ASP));
    steering.applyMode();
    QTRY_VERIFY_WITH_TIMEOUT(logMatches(window, QStringLiteral("\\] mode: .*asp")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("Mode: ASP")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(totalMarkers(charts) > markersBefore, kEngineTimeoutMs);

    steering.slowdownSlider(0)->setValue(30);  // factor 3.0
    QTRY_VERIFY_WITH_TIMEOUT(logMatches(window, QStringLiteral("\\] slowdown: ")), kEngineTimeoutMs);

    if (qEnvironmentVariableIsSet("SYNCSCOPE_SCREENSHOT")) {
        QTest::qWait(3000);  // a few more seconds of history with the straggler
        QVERIFY(window.grab().save(qEnvironmentVariable("SYNCSCOPE_SCREENSHOT")));
    }

    steering.runActions().at(2)->trigger();  // stop
    QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("State: stopped")), kEngineTimeoutMs);
    QVERIFY(!logMatches(window, QStringLiteral("refused")));
    QVERIFY(window.close());
    QVERIFY(!window.localClusterRunning());
}

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
