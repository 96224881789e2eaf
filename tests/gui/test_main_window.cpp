// MainWindow against a real local cluster of two workers: charts fill, steering changes travel to
// the engine, and its events come back (log line, chart marker, status bar): a mode switch, the
// grouped mode with the groups slider and a worker's group edited; closing stops the cluster.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSlider>
#include <QtTest>

#include "ui/widgets/charts_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/mode_editor.h"
#include "ui/widgets/rollback_picker.h"
#include "ui/widgets/steering_panel.h"
#include "ui/widgets/time_chart.h"
#include "ui/widgets/worker_table_model.h"

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
    return re.match(window.parts().log->toPlainText()).hasMatch();
}

// The row of `workerId` in the worker table (-1: not there).
int rowOf(const WorkerTableModel& model, uint32_t workerId) {
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.workerId(row) == workerId) return row;
    return -1;
}

int groupOf(const WorkerTableModel& model, uint32_t workerId) {
    const int row = rowOf(model, workerId);
    return row < 0 ? -1 : model.index(row, WorkerTableModel::Group).data(Qt::EditRole).toInt();
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void steersARealLocalCluster();

private:
    void steerGroupedMode(MainWindow& window);
};

// Grouped mode from the selector, a worker moved to the other group in the table (an explicit
// assignment of both workers), then the groups slider dragged to one group; each comes back as an
// event. Then auto mode, whose decisions come back with their reasons.
void TestMainWindow::steerGroupedMode(MainWindow& window) {
    SteeringPanel& steering = *window.parts().steering;
    WorkerTableModel& workers = *steering.workerTable();
    steering.modeSelector()->setCurrentIndex(steering.modeSelector()->findData(wire::GROUPED));
    QVERIFY(steering.groupsSlider()->isEnabled());
    QCOMPARE(steering.groupsSlider()->value(), 2);
    steering.applyMode();
    QTRY_VERIFY_WITH_TIMEOUT(logMatches(window, QStringLiteral("\\] mode grouped G=2 by=round-robin")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("Mode: GROUPED")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(workers.groupsEditable() && groupOf(workers, 0) == 0 && groupOf(workers, 1) == 1,
                             kEngineTimeoutMs);

    const QModelIndex cell = workers.index(rowOf(workers, 1), WorkerTableModel::Group);
    QVERIFY(workers.flags(cell) & Qt::ItemIsEditable);
    QVERIFY(workers.setData(cell, 0));  // worker 1 joins worker 0's group
    QTRY_VERIFY_WITH_TIMEOUT(logMatches(window, QStringLiteral("\\] regrouped: grouped G=2 by=explicit.*\\[0 1\\]")),
                             kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(groupOf(workers, 1) == 0, kEngineTimeoutMs);

    QSlider* groups = steering.groupsSlider();
    groups->setSliderDown(true);  // a drag to one group; it sends on release only
    groups->setValue(1);
    QTest::qWait(300);
    QVERIFY(!logMatches(window, QStringLiteral("\\] regrouped: grouped G=1")));
    groups->setSliderDown(false);
    QTRY_VERIFY_WITH_TIMEOUT(logMatches(window, QStringLiteral("\\] regrouped: grouped G=1 by=round-robin")), kEngineTimeoutMs);
    QVERIFY(!logMatches(window, QStringLiteral("refused")));

    // Auto, deciding every second: its decisions come back as events with a reason, drawn as markers.
    const int markersBefore = totalMarkers(*window.parts().charts);
    steering.modeSelector()->setCurrentIndex(steering.modeSelector()->findData(wire::AUTO));
    qobject_cast<QDoubleSpinBox*>(steering.modeEditor()->field("decision_seconds"))->setValue(1.0);
    steering.applyMode();
    // The first decision is announced whether it switches ("auto: asp") or stays ("auto stays bsp").
    QTRY_VERIFY_WITH_TIMEOUT(logMatches(window, QStringLiteral("\\] auto(:| stays) \\S.*: \\S")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(totalMarkers(*window.parts().charts) >= markersBefore + 2, kEngineTimeoutMs);
}

void TestMainWindow::steersARealLocalCluster() {
    MainWindow window(QStringLiteral(SYNCSCOPE_ENGINE_BINARY));
    window.setStopClusterAnswer(true);
    window.resize(1400, 900);
    window.show();
    LocalClusterSettings settings;
    settings.workers = 2;
    settings.backend = QStringLiteral("cpu");
    settings.epochs = 0;
    settings.maxSeconds = 120;  // stopped by the test long before
    settings.dataDir = QStringLiteral(SYNCSCOPE_FASHION_MNIST_DIR);
    window.startLocalCluster(settings);

    ChartsPanel& charts = *window.parts().charts;
    SteeringPanel& steering = *window.parts().steering;
    QTRY_VERIFY_WITH_TIMEOUT(charts.pointCount(QStringLiteral("Samples/s per worker")) > 4, kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("Mode: BSP")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("State: running")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(steering.slowdownSlider(0) != nullptr, kEngineTimeoutMs);
    // The status bar says how this run ends and how to stop it.
    auto* stopHint = window.findChild<QLabel*>(QStringLiteral("stopHint"));
    QTRY_VERIFY_WITH_TIMEOUT(stopHint && stopHint->isVisible(), kEngineTimeoutMs);
    QVERIFY2(stopHint->text() == QStringLiteral("Stops at 120 s of training, or with Run → Stop (Ctrl+.)"), qPrintable(stopHint->text()));

    QVERIFY(!steering.groupsSlider()->isEnabled());
    QVERIFY(!steering.groupsSlider()->toolTip().isEmpty());

    const int markersBefore = totalMarkers(charts);
    steering.modeSelector()->setCurrentIndex(steering.modeSelector()->findData(wire::ASP));
    steering.applyMode();
    QTRY_VERIFY_WITH_TIMEOUT(logMatches(window, QStringLiteral("\\] mode .*asp")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("Mode: ASP")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(totalMarkers(charts) > markersBefore, kEngineTimeoutMs);

    // The switch is change 1, checkpointed before it (the console's cluster keeps checkpoints):
    // it is offered for rollback, and rolling it back brings bsp back.
    QTRY_VERIFY_WITH_TIMEOUT(logMatches(window, QStringLiteral("\\] mode .*asp.* \\(change 1\\)")), kEngineTimeoutMs);
    const auto choices = RollbackPicker::choices(window.parts().store->frame()->events);
    QVERIFY(!choices.empty());
    QCOMPARE(choices.front().changeId, uint64_t(1));
    QVERIFY2(choices.front().label.startsWith(QStringLiteral("change 1 at ")), qPrintable(choices.front().label));
    QVERIFY(window.parts().rollback->isEnabled());
    window.rollBack(1);
    QTRY_VERIFY_WITH_TIMEOUT(logMatches(window, QStringLiteral("\\] rollback: rolled back to before change 1 .*bsp")),
                             kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("Mode: BSP")), kEngineTimeoutMs);

    steering.slowdownSlider(0)->setValue(30);  // factor 3.0
    QTRY_VERIFY_WITH_TIMEOUT(logMatches(window, QStringLiteral("\\] worker \\d+ slowdown: ")), kEngineTimeoutMs);

    steerGroupedMode(window);
    if (QTest::currentTestFailed()) {
        window.close();  // stops the cluster
        return;
    }

    if (qEnvironmentVariableIsSet("SYNCSCOPE_SCREENSHOT")) {
        QTest::qWait(3000);  // a few more seconds of history with the straggler
        QVERIFY(window.grab().save(qEnvironmentVariable("SYNCSCOPE_SCREENSHOT")));
    }

    steering.runActions().at(2)->trigger();  // stop
    QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("State: stopped")), kEngineTimeoutMs);
    QVERIFY(!logMatches(window, QStringLiteral("refused")));
    window.close();  // stops what still runs without blocking, then closes
    QTRY_VERIFY_WITH_TIMEOUT(!window.localClusterRunning(), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), kEngineTimeoutMs);
}

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
