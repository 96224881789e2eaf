// The console's what-if view offscreen: the store turns Tick.what_if into per-worker ghost series,
// the charts draw one dashed ghost per mode other than the running one (left out of the legend, gone
// when switched off or unticked), and the panel lists the options soonest to the target first.
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include "ui/model/telemetry_store.h"
#include "ui/widgets/charts_panel.h"
#include "ui/widgets/time_chart.h"
#include "ui/widgets/what_if_panel.h"

using namespace syncscope::ui;
namespace wire = syncscope::wire;

namespace {

wire::AutoCandidate option(wire::SyncMode mode, const std::string& label, double samples, double staleness, double toTarget) {
    wire::AutoCandidate c;
    c.mutable_settings()->set_mode(mode);
    c.set_label(label);
    c.set_samples_per_s(samples);
    c.set_mean_staleness(staleness);
    c.set_effective(samples / (1 + 0.25 * staleness));
    c.set_seconds_to_target(toTarget);
    return c;
}

wire::WhatIf prediction() {
    wire::WhatIf w;
    w.set_current_label("bsp");
    w.set_target_accuracy(0.88);
    *w.add_options() = option(wire::BSP, "bsp", 4000, 0, 300);
    *w.add_options() = option(wire::ASP, "asp", 8000, 3, 190);
    *w.add_options() = option(wire::ELASTIC, "elastic", 7000, 0, 170);
    *w.add_options() = option(wire::SSP, "ssp s=3", 4000, 2, -1);
    return w;
}

// A 4-worker run's ticks, every tenth with the prediction.
std::shared_ptr<const TelemetryFrame> storedFrame() {
    static TelemetryStore store;
    store.clear();
    for (int i = 0; i < 50; ++i) {
        wire::Tick tick;
        tick.set_time_s(0.1 * i);
        tick.set_state(wire::RUN_RUNNING);
        for (uint32_t id = 0; id < 4; ++id) {
            wire::WorkerStats* w = tick.add_workers();
            w->set_worker_id(id);
            w->set_state(wire::WORKER_COMPUTING);
            w->set_samples_per_s(1000);
        }
        if (i % 10 == 0) *tick.mutable_what_if() = prediction();
        store.ingestTick(tick);
    }
    return store.frame();
}

// The ghosts drawn: dashed and with points (the running option's ghost is kept empty).
QList<QLineSeries*> dashed(QChartView* view) {
    QList<QLineSeries*> out;
    for (QAbstractSeries* s : view->chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(s); line && line->pen().style() == Qt::DashLine && line->count() > 0)
            out << line;
    return out;
}

}  // namespace

class TestWhatIfView : public QObject {
    Q_OBJECT

private slots:
    void theStoreKeepsEachOptionPerWorker() {
        const auto frame = storedFrame();
        QVERIFY(frame->latestWhatIf.has_value());
        QCOMPARE(int(frame->whatIf.size()), 4);
        const WhatIfSeries& asp = frame->whatIf.at("asp");
        QCOMPARE(asp.samplesPerWorker.size(), 5);          // one point a second, not one a tick
        QCOMPARE(asp.samplesPerWorker.last().y(), 2000.0);  // 8000 samples/s over 4 workers
        QCOMPARE(asp.staleness.last().y(), 3.0);
    }

    void chartsDrawAGhostPerOtherMode() {
        ChartsPanel panel;
        panel.resize(1400, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.showFrame(*storedFrame());
        QChartView* samples = panel.chartViews().at(0);
        QChartView* staleness = panel.chartViews().at(1);
        const auto names = [](const QList<QLineSeries*>& lines) {
            QStringList out;
            for (QLineSeries* l : lines) out << l->name();
            out.sort();
            return out;
        };
        // asp, elastic, ssp: not bsp, which runs (its live lines are there).
        QCOMPARE(names(dashed(samples)), (QStringList{"if asp", "if elastic", "if ssp s=3"}));
        QCOMPARE(names(dashed(staleness)), (QStringList{"if asp", "if elastic", "if ssp s=3"}));
        for (QLineSeries* ghost : dashed(samples))
            for (QLegendMarker* marker : samples->chart()->legend()->markers(ghost)) QVERIFY(!marker->isVisible());
        // The live mean beside them: 4 workers + the mean + 3 ghosts + bsp's, kept empty while it runs.
        QCOMPARE(int(samples->chart()->series().size()), 4 + 1 + 4);
        QCOMPARE(panel.pointCount(samples->chart()->title()) > 0, true);

        panel.setWhatIf(true, {QStringLiteral("asp")});
        QCOMPARE(names(dashed(samples)), (QStringList{"if elastic", "if ssp s=3"}));
        panel.setWhatIf(false, {});
        QVERIFY(dashed(samples).isEmpty());
        QVERIFY(dashed(staleness).isEmpty());
        QCOMPARE(int(samples->chart()->series().size()), 4);  // the workers only
    }

    void panelListsSoonestFirstAndTogglesCurves() {
        WhatIfPanel panel;
        panel.show();
        panel.showPrediction(prediction());
        QTableWidget* table = panel.table();
        QCOMPARE(table->rowCount(), 4);
        QCOMPARE(table->item(0, 0)->data(Qt::UserRole).toString(), QStringLiteral("elastic"));  // 170 s
        QCOMPARE(table->item(1, 0)->data(Qt::UserRole).toString(), QStringLiteral("asp"));      // 190 s
        QCOMPARE(table->item(2, 0)->text(), QStringLiteral("bsp (now)"));
        QVERIFY(table->item(2, 0)->font().bold());
        QVERIFY(!(table->item(2, 0)->flags() & Qt::ItemIsUserCheckable));
        QCOMPARE(table->item(3, 3)->text(), QStringLiteral("–"));  // no forecast for ssp
        QCOMPARE(table->item(0, 3)->text(), QStringLiteral("2 min 50 s"));
        wire::WhatIf due = prediction();  // the forecast has passed the target: not "reached", no evaluation has
        for (auto& c : *due.mutable_options()) c.set_seconds_to_target(c.label() == "elastic" ? 0.0 : c.seconds_to_target());
        panel.showPrediction(due);
        QCOMPARE(table->item(0, 3)->text(), QStringLiteral("by now"));
        QVERIFY(!table->item(0, 3)->toolTip().isEmpty());
        panel.showPrediction(prediction());
        QCOMPARE(table->horizontalHeaderItem(3)->text(), QStringLiteral("to 88%"));

        QSignalSpy changed(&panel, &WhatIfPanel::curvesChanged);
        table->item(1, 0)->setCheckState(Qt::Unchecked);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.hiddenLabels(), (QSet<QString>{QStringLiteral("asp")}));
        panel.showPrediction(prediction());  // the same prediction: nothing redrawn, the choice kept
        QCOMPARE(table->item(1, 0)->checkState(), Qt::Unchecked);
        panel.setCurvesShown(false);
        QCOMPARE(changed.count(), 2);
        QVERIFY(!panel.curvesShown());
        QVERIFY(table->isHidden());
    }

    void durationsReadAsTimes() {
        QCOMPARE(WhatIfPanel::duration(42.4), QStringLiteral("42 s"));
        QCOMPARE(WhatIfPanel::duration(190), QStringLiteral("3 min 10 s"));
        QCOMPARE(WhatIfPanel::duration(3900), QStringLiteral("1 h 5 min"));
    }
};

QTEST_MAIN(TestWhatIfView)
#include "test_what_if_view.moc"
