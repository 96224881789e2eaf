// SteeringPanel, WorkerTableModel, EventMarkers and the connect dialog's mode flags, offscreen and
// without an engine: the request built for each mode, the groups slider and group cells, the
// engine's mode shown without overwriting unsent edits, and marker labels that never overlap.
#include <QChart>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QSpinBox>
#include <QtTest>

#include "ui/widgets/connect_dialog.h"
#include "ui/widgets/event_markers.h"
#include "ui/widgets/steering_panel.h"
#include "ui/widgets/worker_table_model.h"

using namespace syncscope;
using namespace syncscope::ui;

namespace {

// A frame whose latest tick runs `mode` with workers 0..groups.size()-1 in those groups.
TelemetryFrame frameWith(const wire::ModeSettings& mode, const std::vector<uint32_t>& groups = {0, 1}) {
    TelemetryFrame frame;
    wire::Tick tick;
    tick.set_state(wire::RUN_RUNNING);
    *tick.mutable_mode() = mode;
    for (uint32_t id = 0; id < groups.size(); ++id) {
        wire::WorkerStats* worker = tick.add_workers();
        worker->set_worker_id(id);
        worker->set_group(groups[id]);
        worker->set_state(wire::WORKER_COMPUTING);
        frame.workers[id].id = id;
        frame.workers[id].latest = *worker;
    }
    frame.latest = tick;
    return frame;
}

wire::ModeSettings modeOf(wire::SyncMode mode, uint32_t groupCount = 0) {
    wire::ModeSettings settings;
    settings.set_mode(mode);
    settings.set_group_count(groupCount);
    return settings;
}

void select(QComboBox* box, const QVariant& data) {
    const int index = box->findData(data);
    QVERIFY2(index >= 0, qPrintable(data.toString()));
    box->setCurrentIndex(index);
}

// Every parameter set to a value other than its default, so a field that leaks into a mode shows.
void setEveryParameter(SteeringPanel& panel) {
    panel.stalenessBox()->setValue(5);
    select(panel.lrModulationSelector(), int(wire::LR_INVERSE));
    select(panel.intraGroupSelector(), true);
    panel.groupsSlider()->setValue(3);
    select(panel.groupBySelector(), int(wire::GROUP_BY_SPEED));
    panel.kBox()->setValue(3);
    select(panel.barrierSelector(), true);
    panel.rebalanceBox()->setValue(4.0);
    panel.decisionBox()->setValue(7.0);
}

}  // namespace

class TestSteeringPanel : public QObject {
    Q_OBJECT
private slots:
    void selectorListsEveryModeWithTooltips();
    void applyCarriesTheModesFields_data();
    void applyCarriesTheModesFields();
    void groupsSliderSendsOnReleaseInGroupedMode();
    void engineModeShownWithoutOverwritingEdits();
    void groupCellEditSendsExplicitAssignment();
    void markerLabelsNeverOverlap();
    void autoMarkersShowTheirReason();
    void connectDialogPassesModeFlags();
};

void TestSteeringPanel::selectorListsEveryModeWithTooltips() {
    SteeringPanel panel;
    QComboBox* modes = panel.modeSelector();
    QCOMPARE(modes->count(), 8);
    const QList<int> expected{wire::BSP, wire::ASP, wire::SSP, wire::GROUPED, wire::KSYNC, wire::KASYNC, wire::ELASTIC, wire::AUTO};
    for (int i = 0; i < modes->count(); ++i) {
        QCOMPARE(modes->itemData(i).toInt(), expected[i]);
        QVERIFY(!modes->itemData(i, Qt::ToolTipRole).toString().isEmpty());
    }
}

void TestSteeringPanel::applyCarriesTheModesFields_data() {
    // The parameter widgets the mode enables, in the order s, lr, intra, G, K, barrier, rebalance, decision.
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("enabled");
    QTest::newRow("bsp") << int(wire::BSP) << "--------";
    QTest::newRow("asp") << int(wire::ASP) << "-l------";
    QTest::newRow("ssp") << int(wire::SSP) << "sl------";
    QTest::newRow("grouped") << int(wire::GROUPED) << "slig----";
    QTest::newRow("ksync") << int(wire::KSYNC) << "----k---";
    QTest::newRow("kasync") << int(wire::KASYNC) << "-l--k---";
    QTest::newRow("elastic") << int(wire::ELASTIC) << "s----br-";
    QTest::newRow("auto") << int(wire::AUTO) << "-------d";
}

void TestSteeringPanel::applyCarriesTheModesFields() {
    QFETCH(int, mode);
    QFETCH(QString, enabled);
    SteeringPanel panel;
    QList<wire::ControlRequest> sent;
    connect(&panel, &SteeringPanel::requestReady, this, [&sent](const wire::ControlRequest& r) { sent << r; });
    setEveryParameter(panel);
    select(panel.modeSelector(), mode);
    const QList<QWidget*> fields{panel.stalenessBox(), panel.lrModulationSelector(), panel.intraGroupSelector(),
                                 panel.groupsSlider(),  panel.kBox(),                panel.barrierSelector(),
                                 panel.rebalanceBox(),  panel.decisionBox()};
    for (int i = 0; i < fields.size(); ++i)
        QVERIFY2(fields[i]->isEnabled() == (enabled[i] != QLatin1Char('-')), qPrintable(QStringLiteral("field %1").arg(i)));
    QCOMPARE(panel.groupBySelector()->isEnabled(), mode == wire::GROUPED);

    panel.applyMode();
    QCOMPARE(sent.size(), 1);
    QVERIFY(sent[0].has_set_mode());
    const wire::ModeSettings& s = sent[0].set_mode().settings();
    QCOMPARE(int(s.mode()), mode);
    QCOMPARE(s.staleness_bound(), enabled[0] == QLatin1Char('s') ? 5u : 0u);
    QCOMPARE(s.lr_modulation(), enabled[1] == QLatin1Char('l') ? wire::LR_INVERSE : wire::LR_NONE);
    QCOMPARE(s.intra_group_ssp(), mode == wire::GROUPED);
    QCOMPARE(s.group_count(), mode == wire::GROUPED ? 3u : 0u);
    QCOMPARE(s.group_by(), mode == wire::GROUPED ? wire::GROUP_BY_SPEED : wire::GROUP_ROUND_ROBIN);
    QVERIFY(s.assignment().empty());
    QCOMPARE(s.k(), enabled[4] == QLatin1Char('k') ? 3u : 0u);
    QCOMPARE(s.elastic_slack(), mode == wire::ELASTIC);
    QCOMPARE(s.rebalance_seconds(), mode == wire::ELASTIC ? 4.0 : 0.0);
    QCOMPARE(s.decision_seconds(), mode == wire::AUTO ? 7.0 : 0.0);
}

void TestSteeringPanel::groupsSliderSendsOnReleaseInGroupedMode() {
    SteeringPanel panel;
    QList<wire::ControlRequest> sent;
    connect(&panel, &SteeringPanel::requestReady, this, [&sent](const wire::ControlRequest& r) { sent << r; });
    panel.showFrame(frameWith(modeOf(wire::BSP), {0, 0, 0, 0}));
    QVERIFY(!panel.groupsSlider()->isEnabled());

    panel.showFrame(frameWith(modeOf(wire::GROUPED, 2), {0, 1, 0, 1}));
    QSlider* slider = panel.groupsSlider();
    QVERIFY(slider->isEnabled());
    QCOMPARE(slider->value(), 2);
    QVERIFY(slider->maximum() >= 4);
    slider->setSliderDown(true);  // a drag: no request while it moves
    slider->setValue(3);
    slider->setValue(4);
    QVERIFY(sent.isEmpty());
    panel.showFrame(frameWith(modeOf(wire::GROUPED, 2), {0, 1, 0, 1}));  // a tick mid-drag moves nothing
    QCOMPARE(slider->value(), 4);
    slider->setSliderDown(false);  // released
    QCOMPARE(sent.size(), 1);
    QVERIFY(sent[0].has_set_groups());
    QCOMPARE(sent[0].set_groups().count(), 4u);
    QCOMPARE(sent[0].set_groups().by(), wire::GROUP_ROUND_ROBIN);

    select(panel.groupBySelector(), int(wire::GROUP_BY_SPEED));
    emit panel.groupBySelector()->activated(panel.groupBySelector()->currentIndex());
    QCOMPARE(sent.size(), 2);
    QCOMPARE(sent[1].set_groups().by(), wire::GROUP_BY_SPEED);

    // A keyboard step sends once the steps settle, not per step.
    slider->triggerAction(QAbstractSlider::SliderSingleStepSub);
    slider->triggerAction(QAbstractSlider::SliderSingleStepSub);
    QCOMPARE(sent.size(), 2);
    QTRY_COMPARE(sent.size(), 3);
    QCOMPARE(sent[2].set_groups().count(), 2u);
}

void TestSteeringPanel::engineModeShownWithoutOverwritingEdits() {
    SteeringPanel panel;
    wire::ModeSettings ssp = modeOf(wire::SSP);
    ssp.set_staleness_bound(4);
    ssp.set_lr_modulation(wire::LR_DYNSGD);
    panel.showFrame(frameWith(ssp));
    QCOMPARE(panel.modeSelector()->currentData().toInt(), int(wire::SSP));
    QCOMPARE(panel.stalenessBox()->value(), 4);
    QCOMPARE(panel.lrModulationSelector()->currentData().toInt(), int(wire::LR_DYNSGD));
    QVERIFY(!panel.hasUnsentEdits());

    // The user picks K-sync but has not applied it: a tick of another mode leaves the choice alone.
    select(panel.modeSelector(), int(wire::KSYNC));
    emit panel.modeSelector()->activated(panel.modeSelector()->currentIndex());
    QVERIFY(panel.hasUnsentEdits());
    panel.showFrame(frameWith(modeOf(wire::ASP)));
    QCOMPARE(panel.modeSelector()->currentData().toInt(), int(wire::KSYNC));

    // Applied: the engine's next change shows again.
    panel.applyMode();
    QVERIFY(!panel.hasUnsentEdits());
    wire::ModeSettings ksync = modeOf(wire::KSYNC);
    ksync.set_k(1);
    panel.showFrame(frameWith(ksync));
    QCOMPARE(panel.modeSelector()->currentData().toInt(), int(wire::KSYNC));
    QCOMPARE(panel.kBox()->value(), 1);
    panel.showFrame(frameWith(modeOf(wire::GROUPED, 3), {0, 1, 2}));
    QCOMPARE(panel.modeSelector()->currentData().toInt(), int(wire::GROUPED));
    QCOMPARE(panel.groupsSlider()->value(), 3);
}

void TestSteeringPanel::groupCellEditSendsExplicitAssignment() {
    SteeringPanel panel;
    QList<wire::ControlRequest> sent;
    connect(&panel, &SteeringPanel::requestReady, this, [&sent](const wire::ControlRequest& r) { sent << r; });
    WorkerTableModel& model = *panel.workerTable();
    panel.showFrame(frameWith(modeOf(wire::BSP), {0, 0, 0}));
    const QModelIndex group2 = model.index(2, WorkerTableModel::Group);
    QVERIFY(!(model.flags(group2) & Qt::ItemIsEditable));
    QVERIFY(!model.setData(group2, 1));

    panel.showFrame(frameWith(modeOf(wire::GROUPED, 2), {0, 1, 0}));
    QVERIFY(model.flags(group2) & Qt::ItemIsEditable);
    QCOMPARE(model.data(group2, WorkerTableModel::GroupCountRole).toInt(), 2);
    QVERIFY(!model.setData(group2, 2));  // outside 0..G-1
    QVERIFY(sent.isEmpty());
    QVERIFY(model.setData(group2, 1));
    QCOMPARE(sent.size(), 1);
    QVERIFY(sent[0].has_set_groups());
    const wire::SetGroups& groups = sent[0].set_groups();
    QCOMPARE(groups.by(), wire::GROUP_EXPLICIT);
    QCOMPARE(groups.count(), 2u);
    QCOMPARE(groups.assignment_size(), 3);
    QCOMPARE(groups.assignment().at(0), 0u);
    QCOMPARE(groups.assignment().at(1), 1u);
    QCOMPARE(groups.assignment().at(2), 1u);
}

void TestSteeringPanel::markerLabelsNeverOverlap() {
    QChart chart;
    chart.setPlotArea(QRectF(40, 20, 500, 300));
    QVector<wire::Event> events;
    for (int i = 0; i < 20; ++i) {  // 20 events in two seconds of a 100 s view: a few pixels apart
        wire::Event event;
        event.set_time_s(50.0 + 0.1 * i);
        event.set_kind(i % 2 ? wire::EVENT_SLOWDOWN : wire::EVENT_MODE);
        event.set_detail("worker 1 factor 3.0");
        events << event;
    }
    wire::Event last;
    last.set_time_s(99.9);  // near the right edge: the label goes left of its line
    last.set_kind(wire::EVENT_STOP);
    events << last;
    EventMarkers markers;
    markers.place(&chart, events, 0.0, 100.0);
    QCOMPARE(markers.visibleCount(), 21);
    QVERIFY(markers.visibleLabelCount() >= 3);
    QVERIFY(markers.visibleLabelCount() < 21);
    const QVector<QRectF> rects = markers.visibleLabelRects();
    for (int a = 0; a < rects.size(); ++a) {
        QVERIFY(rects[a].right() <= chart.plotArea().right() + 0.5);
        for (int b = a + 1; b < rects.size(); ++b) QVERIFY2(!rects[a].intersects(rects[b]), qPrintable(QStringLiteral("%1 %2").arg(a).arg(b)));
    }
    for (int i = 0; i < markers.visibleCount(); ++i) QVERIFY(!markers.toolTip(i).isEmpty());
    QVERIFY(markers.toolTip(20).contains(QStringLiteral("stop")));

    markers.place(&chart, events.mid(0, 1), 0.0, 100.0);  // the pool shrinks back
    QCOMPARE(markers.visibleCount(), 1);
    QCOMPARE(markers.visibleLabelCount(), 1);
}

void TestSteeringPanel::autoMarkersShowTheirReason() {
    wire::Event decision;
    decision.set_time_s(12.5);
    decision.set_kind(wire::EVENT_AUTO);
    decision.set_detail("switches to grouped G=2 by speed: worker 3 takes 41 ms per iteration, the median 10 ms; "
                        "predicted 38% sooner to 85%");
    decision.mutable_decision()->set_verdict(wire::AutoDecision::SWITCHES);
    decision.mutable_decision()->mutable_chosen()->set_label("grouped G=2 by speed");
    const QString label = EventMarkers::shortLabel(decision);
    QCOMPARE(label, QStringLiteral("auto: grouped G=2 by speed"));
    QVERIFY(EventMarkers::fullText(decision).contains(QString::fromStdString(decision.detail())));

    QChart chart;
    chart.setPlotArea(QRectF(40, 20, 500, 300));
    EventMarkers markers;
    markers.place(&chart, {decision}, 0.0, 60.0);
    QCOMPARE(markers.labelText(0), label);
    QVERIFY(markers.toolTip(0).contains(QStringLiteral("predicted 38% sooner")));

    wire::Event other;
    other.set_kind(wire::EVENT_MODE);
    other.set_detail("grouped G=2 by=speed inside=bsp lr=none and more words here");
    QVERIFY(EventMarkers::shortLabel(other).startsWith(QStringLiteral("mode grouped")));
    QVERIFY(EventMarkers::shortLabel(other).size() <= 28);

    wire::Event legacy;  // a 1.1 recording: the kind as text, still named in the label
    legacy.set_legacy_kind("slowdown");
    legacy.set_detail("worker 1: x3");
    QCOMPARE(EventMarkers::shortLabel(legacy), QStringLiteral("slowdown worker 1: x3"));

    wire::Event advice;  // the advisor's proposal and its answer
    advice.set_kind(wire::EVENT_ADVICE);
    advice.mutable_decision()->set_verdict(wire::AutoDecision::ADVISES);
    advice.mutable_decision()->set_advice_id(3);
    advice.mutable_decision()->mutable_chosen()->set_label("ksync K=7");
    QCOMPARE(EventMarkers::shortLabel(advice), QStringLiteral("advice 3: ksync K=7"));
    advice.set_kind(wire::EVENT_ADVICE_ANSWERED);
    QCOMPARE(EventMarkers::shortLabel(advice), QStringLiteral("advice 3 dismissed"));
}

void TestSteeringPanel::connectDialogPassesModeFlags() {
    ConnectDialog dialog;
    QCOMPARE(dialog.modeSelector()->count(), 8);
    for (const char* mode : {"bsp", "asp", "ssp", "grouped", "ksync", "kasync", "elastic", "auto"}) {
        select(dialog.modeSelector(), QString::fromLatin1(mode));
        QVERIFY(!dialog.modeSelector()->itemData(dialog.modeSelector()->currentIndex(), Qt::ToolTipRole).toString().isEmpty());
        const QStringList args = dialog.localClusterSettings().modeArguments();
        QCOMPARE(args.mid(0, 2), (QStringList{QStringLiteral("--mode"), QString::fromLatin1(mode)}));
        QCOMPARE(args.contains(QStringLiteral("--groups")), qstrcmp(mode, "grouped") == 0);
        QCOMPARE(args.contains(QStringLiteral("--elastic-barrier")), qstrcmp(mode, "elastic") == 0);
        QCOMPARE(args.contains(QStringLiteral("--staleness")), qstrcmp(mode, "ssp") == 0);
    }
    LocalClusterSettings grouped;
    grouped.mode = QStringLiteral("grouped");
    grouped.groups = 3;
    grouped.groupBy = QStringLiteral("speed");
    grouped.intraGroup = QStringLiteral("ssp");
    grouped.staleness = 2;
    QCOMPARE(grouped.modeArguments(),
             (QStringList{"--mode", "grouped", "--staleness", "2", "--lr-modulation", "none", "--groups", "3", "--group-by",
                          "speed", "--intra-group", "ssp"}));
    LocalClusterSettings ksync;
    ksync.mode = QStringLiteral("ksync");
    ksync.k = 7;
    QCOMPARE(ksync.modeArguments(), (QStringList{"--mode", "ksync", "--k", "7"}));
}

QTEST_MAIN(TestSteeringPanel)
#include "test_steering_panel.moc"
