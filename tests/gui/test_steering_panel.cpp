// SteeringPanel, WorkerTableModel, EventMarkers and the connect dialog's mode flags, offscreen and
// without an engine: the request built for each mode, the groups slider and group cells, the
// engine's mode shown without overwriting unsent edits, and marker labels that never overlap.
#include <QAction>
#include <QChart>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QSpinBox>
#include <QtTest>

#include "engine/plan/mode_catalog.h"
#include "engine/plan/run_plan.h"
#include "ui/widgets/connect_dialog.h"
#include "ui/widgets/event_labels.h"
#include "ui/widgets/event_markers.h"
#include "ui/widgets/mode_editor.h"
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

// The catalogue's parameters, each with a value other than its default, so a field that leaks into
// a mode shows; choices take their last offered value (SSP inside a group, the slack barrier).
std::map<std::string, double> nonDefaultValues() {
    std::map<std::string, double> values;
    for (const auto& spec : engine::modeCatalog().parameters()) {
        double value = spec.default_value() + 2;
        if (spec.type() == wire::ParameterSpec::CHOICE)
            for (const auto& c : spec.choices())
                if (!c.needs_assignment()) value = c.value();
        values[spec.field()] = value;
    }
    values["group_count"] = 3;                   // the groups slider
    values["group_by"] = wire::GROUP_BY_SPEED;  // the panel's own selector
    return values;
}

void setEveryParameter(SteeringPanel& panel) {
    for (const auto& [field, value] : nonDefaultValues()) {
        QWidget* widget = panel.modeEditor()->field(field);
        if (auto* choice = qobject_cast<QComboBox*>(widget)) select(choice, int(value));
        else if (auto* seconds = qobject_cast<QDoubleSpinBox*>(widget)) seconds->setValue(value);
        else if (auto* count = qobject_cast<QSpinBox*>(widget)) count->setValue(int(value));
    }
    panel.groupsSlider()->setValue(3);
    select(panel.groupBySelector(), int(wire::GROUP_BY_SPEED));
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
    void aWorkersCpuLimitShowsAsItsSlowdown();
    void markerLabelsNeverOverlap();
    void autoMarkersShowTheirReason();
    void connectDialogPlansTheRun();
    void viewKeyGreysOutSteering();
    void manyWorkersListTheSlowestFirst();
    void figuresRefreshTwiceASecondFactsAtOnce();
    void aBurstOfOneKindSharesALabel();
};

void TestSteeringPanel::selectorListsEveryModeWithTooltips() {
    SteeringPanel panel;
    QComboBox* modes = panel.modeSelector();
    const wire::Catalog& catalog = engine::modeCatalog();
    QCOMPARE(modes->count(), catalog.modes_size());
    for (int i = 0; i < modes->count(); ++i) {
        QCOMPARE(modes->itemData(i).toInt(), int(catalog.modes(i).mode()));
        QVERIFY(!modes->itemData(i, Qt::ToolTipRole).toString().isEmpty());
    }
}

void TestSteeringPanel::applyCarriesTheModesFields_data() {
    QTest::addColumn<int>("mode");
    for (const auto& m : engine::modeCatalog().modes()) QTest::newRow(m.name().c_str()) << int(m.mode());
}

void TestSteeringPanel::applyCarriesTheModesFields() {
    // Every field the catalogue says the mode uses is shown and sent with its value; no other is.
    QFETCH(int, mode);
    SteeringPanel panel;
    QList<wire::ControlRequest> sent;
    connect(&panel, &SteeringPanel::requestReady, this, [&sent](const wire::ControlRequest& r) { sent << r; });
    setEveryParameter(panel);
    select(panel.modeSelector(), mode);
    panel.applyMode();
    QCOMPARE(sent.size(), 1);
    QVERIFY(sent[0].has_set_mode());
    const wire::ModeSettings& s = sent[0].set_mode().settings();
    QCOMPARE(int(s.mode()), mode);
    const std::map<std::string, double> values = nonDefaultValues();
    wire::ModeSettings all = s;  // every field set, for the conditions (SSP inside, slack barrier)
    for (const auto& spec : engine::modeCatalog().parameters()) QVERIFY(engine::setParameter(all, spec, values.at(spec.field())));
    int used = 0;
    for (const auto& spec : engine::modeCatalog().parameters()) {
        const bool uses = engine::modeUses(engine::modeCatalog(), all, spec.field());
        used += uses;
        const QByteArray what = QByteArray::fromStdString(spec.field());
        QCOMPARE(engine::parameterValue(s, spec, false), uses ? values.at(spec.field()) : 0.0);
        if (QWidget* field = panel.modeEditor()->field(spec.field())) QVERIFY2(field->isEnabled() == uses, what);
    }
    QCOMPARE(panel.groupsSlider()->isEnabled(), mode == wire::GROUPED);
    QCOMPARE(panel.groupBySelector()->isEnabled(), mode == wire::GROUPED);
    QVERIFY(s.assignment().empty());
    QCOMPARE(used > 0, mode != wire::BSP);
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
    QCOMPARE(qobject_cast<QSpinBox*>(panel.modeEditor()->field("staleness_bound"))->value(), 4);
    QCOMPARE(qobject_cast<QComboBox*>(panel.modeEditor()->field("lr_modulation"))->currentData().toInt(), int(wire::LR_DYNSGD));
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
    QCOMPARE(qobject_cast<QSpinBox*>(panel.modeEditor()->field("k"))->value(), 1);
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

// A worker under a CPU quota (WorkerStats.cpu_limit, protocol 1.14) is a straggler even with no
// injected factor: the Slowdown column says so, and its tooltip says what it means.
void TestSteeringPanel::aWorkersCpuLimitShowsAsItsSlowdown() {
    SteeringPanel panel;
    WorkerTableModel& model = *panel.workerTable();
    TelemetryFrame frame = frameWith(modeOf(wire::ELASTIC), {0, 0, 0});
    for (wire::WorkerStats* w : {frame.latest->mutable_workers(1), &frame.workers[1].latest}) w->set_cpu_limit(0.1);
    for (wire::WorkerStats* w : {frame.latest->mutable_workers(2), &frame.workers[2].latest}) {
        w->set_cpu_limit(0.5);
        w->mutable_slowdown()->set_factor(2.0);
    }
    panel.showFrame(frame);
    const auto cell = [&](int worker, int role) {
        [&] { QCOMPARE(model.index(worker, WorkerTableModel::Id).data().toInt(), worker); }();
        return model.index(worker, WorkerTableModel::Slowdown).data(role).toString();
    };
    QCOMPARE(cell(0, Qt::DisplayRole), QStringLiteral("1.0"));
    QCOMPARE(cell(1, Qt::DisplayRole), QStringLiteral("0.10 CPU"));
    QCOMPARE(cell(2, Qt::DisplayRole), QStringLiteral("2.0 · 0.50 CPU"));
    QVERIFY(cell(0, Qt::ToolTipRole).isEmpty());
    QVERIFY2(cell(1, Qt::ToolTipRole).contains(QStringLiteral("CPU limit of 0.10 CPUs")), qPrintable(cell(1, Qt::ToolTipRole)));
    // The sliders start at each worker's factor, read as a number (not from the cell's text).
    QVERIFY(panel.slowdownSlider(2) && panel.slowdownSlider(0));
    QCOMPARE(panel.slowdownSlider(2)->value(), 20);
    QCOMPARE(panel.slowdownSlider(0)->value(), 10);
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
    const QString label = EventLabels::label(decision);
    QCOMPARE(label, QStringLiteral("auto: grouped G=2 by speed"));
    QVERIFY(EventLabels::toolTip(decision).contains(QString::fromStdString(decision.detail())));

    QChart chart;
    chart.setPlotArea(QRectF(40, 20, 500, 300));
    EventMarkers markers;
    markers.place(&chart, {decision}, 0.0, 60.0);
    QCOMPARE(markers.labelText(0), label);
    QVERIFY(markers.toolTip(0).contains(QStringLiteral("predicted 38% sooner")));

    wire::Event other;
    other.set_kind(wire::EVENT_MODE);
    other.set_detail("grouped G=2 by=speed inside=bsp lr=none and more words here");
    QVERIFY(EventLabels::label(other).startsWith(QStringLiteral("mode grouped")));
    markers.place(&chart, {other}, -10.0, 60.0);  // a marker's label is cut short
    QVERIFY(markers.labelText(0).startsWith(QStringLiteral("mode grouped")));
    QVERIFY(markers.labelText(0).size() <= 28);

    wire::Event legacy;  // a 1.1 recording: the kind as text, still named in the label
    legacy.set_legacy_kind("slowdown");
    legacy.set_detail("worker 1: x3");
    QCOMPARE(EventLabels::label(legacy), QStringLiteral("slowdown worker 1: x3"));

    wire::Event advice;  // the advisor's proposal and its answer
    advice.set_kind(wire::EVENT_ADVICE);
    advice.mutable_decision()->set_verdict(wire::AutoDecision::ADVISES);
    advice.mutable_decision()->set_advice_id(3);
    advice.mutable_decision()->mutable_chosen()->set_label("ksync K=7");
    QCOMPARE(EventLabels::label(advice), QStringLiteral("advice 3: ksync K=7"));
    advice.set_kind(wire::EVENT_ADVICE_ANSWERED);
    QCOMPARE(EventLabels::label(advice), QStringLiteral("advice 3 dismissed"));
}

void TestSteeringPanel::connectDialogPlansTheRun() {
    ConnectDialog dialog;
    const wire::Catalog& catalog = engine::modeCatalog();
    QCOMPARE(dialog.modeSelector()->count(), catalog.modes_size());
    for (const auto& m : catalog.modes()) {
        select(dialog.modeSelector(), int(m.mode()));
        QVERIFY(!dialog.modeSelector()->itemData(dialog.modeSelector()->currentIndex(), Qt::ToolTipRole).toString().isEmpty());
        // The plan carries the dialog's mode settings themselves, and every mode's defaults are a valid run.
        const wire::RunPlan plan = dialog.localClusterSettings().runPlan();
        QCOMPARE(plan.mode().mode(), m.mode());
        QCOMPARE(plan.mode().SerializeAsString(), dialog.localClusterSettings().mode.SerializeAsString());
        QVERIFY2(engine::validateRunPlan(plan), engine::validateRunPlan(plan).message().c_str());
    }
    // A run goes on until someone stops it unless the dialog is told otherwise; the plan says so
    // (without any stop condition a plan is refused: it would have no end).
    const LocalClusterSettings untilStopped = dialog.localClusterSettings();
    QVERIFY(untilStopped.untilStopped());
    QVERIFY(untilStopped.runPlan().stop().until_stopped());
    dialog.stopSelector()->setCurrentIndex(dialog.stopSelector()->findData(ConnectDialog::AfterEpochs));
    QVERIFY(dialog.stopValue()->isEnabled());
    dialog.stopValue()->setValue(2.5);
    wire::StopConditions stop = dialog.localClusterSettings().runPlan().stop();
    QVERIFY(!stop.until_stopped());
    QCOMPARE(stop.max_epochs(), 2.5);
    dialog.stopSelector()->setCurrentIndex(dialog.stopSelector()->findData(ConnectDialog::AtAccuracy));
    dialog.stopValue()->setValue(85);
    stop = dialog.localClusterSettings().runPlan().stop();
    QCOMPARE(stop.target_accuracy(), 0.85);
    QCOMPARE(stop.max_epochs(), 0.0);
    dialog.stopSelector()->setCurrentIndex(dialog.stopSelector()->findData(ConnectDialog::UntilStopped));
    QVERIFY(!dialog.stopValue()->isEnabled() && dialog.localClusterSettings().untilStopped());

    // A plan the engine would refuse is refused here too, naming the setting.
    LocalClusterSettings grouped;
    grouped.mode = engine::defaultModeSettings(wire::GROUPED);
    grouped.mode.set_group_count(3);
    grouped.mode.set_group_by(wire::GROUP_BY_SPEED);
    grouped.mode.set_intra_group_ssp(true);
    grouped.mode.set_staleness_bound(2);
    wire::RunPlan groupedPlan = grouped.runPlan();
    QVERIFY(engine::validateRunPlan(groupedPlan));
    groupedPlan.mutable_layout()->set_shards(2);
    QVERIFY(engine::validateRunPlan(groupedPlan));  // grouped on shards composes (the shards keep pinned versions)
    groupedPlan.mutable_layout()->set_aggregators(groupedPlan.layout().workers() + 1);
    const engine::Status refused = engine::validateRunPlan(groupedPlan);
    QVERIFY(!refused);
    QVERIFY2(QString::fromStdString(refused.message()).contains(QStringLiteral("--aggregators")), refused.message().c_str());
}

void TestSteeringPanel::viewKeyGreysOutSteering() {
    SteeringPanel panel;
    TelemetryFrame frame = frameWith(modeOf(wire::BSP), {0, 0});
    frame.clientRole = "steer";
    panel.showFrame(frame);
    QVERIFY(!panel.watchOnly());
    QVERIFY(panel.modeSelector()->isEnabled());
    frame.clientRole = "view";  // a console holding a view key: the coordinator refuses its commands
    panel.showFrame(frame);
    QVERIFY(panel.watchOnly());
    QVERIFY(!panel.modeSelector()->isEnabled());
    for (QAction* action : panel.runActions()) QVERIFY(!action->isEnabled());
    QVERIFY(panel.slowdownSlider(0) && !panel.slowdownSlider(0)->isEnabled());
    frame.clientRole = "steer";
    panel.showFrame(frame);
    QVERIFY(panel.modeSelector()->isEnabled() && panel.slowdownSlider(0)->isEnabled());
}

QTEST_MAIN(TestSteeringPanel)
#include "test_steering_panel.moc"

// Beyond 16 workers the table shows the lag column and lists the slowest first (its slider moves with
// its row); with a few workers the column is left out and rows keep the id order.
void TestSteeringPanel::manyWorkersListTheSlowestFirst() {
    SteeringPanel panel;
    const auto withSpeeds = [](uint32_t workers, uint32_t slow) {
        TelemetryFrame frame = frameWith(modeOf(wire::BSP), std::vector<uint32_t>(workers, 0));
        for (auto& [id, w] : frame.workers)
            for (int t = 0; t < 300; ++t) w.samplesPerSecond.append({t / 10.0, id == slow ? 100.0 : 1000.0 + id});
        return frame;
    };
    panel.showFrame(withSpeeds(4, 2));
    QVERIFY(panel.workerView()->isColumnHidden(WorkerTableModel::Lag));
    QCOMPARE(panel.sortedWorkers()->index(0, WorkerTableModel::Id).data().toUInt(), 0u);

    panel.showFrame(withSpeeds(24, 13));
    QVERIFY(!panel.workerView()->isColumnHidden(WorkerTableModel::Lag));
    const QModelIndex first = panel.sortedWorkers()->index(0, WorkerTableModel::Id);
    QCOMPARE(first.data().toUInt(), 13u);
    QCOMPARE(panel.sortedWorkers()->index(0, WorkerTableModel::Lag).data().toString(), QStringLiteral("chronic"));
    QCOMPARE(panel.sortedWorkers()->index(1, WorkerTableModel::Lag).data().toString(), QStringLiteral("–"));
    // The slider in the first row is worker 13's.
    const QModelIndex sliderCell = panel.sortedWorkers()->index(0, WorkerTableModel::Slowdown);
    QVERIFY(panel.workerView()->indexWidget(sliderCell)->isAncestorOf(panel.slowdownSlider(13)));
}

// The table's figures change at most every kRefreshIntervalMs (the last frame of a burst is shown
// when the interval ends); a worker's state shows at once.
void TestSteeringPanel::figuresRefreshTwiceASecondFactsAtOnce() {
    SteeringPanel panel;
    WorkerTableModel& model = *panel.workerTable();
    const auto withSpeed = [](double samplesPerSecond, wire::WorkerState state) {
        TelemetryFrame frame = frameWith(modeOf(wire::BSP), {0, 0});
        for (auto& [id, w] : frame.workers) {
            w.latest.set_samples_per_s(samplesPerSecond);
            w.latest.set_state(state);
        }
        return frame;
    };
    panel.showFrame(withSpeed(100, wire::WORKER_COMPUTING));
    const QModelIndex speed = model.index(0, WorkerTableModel::SamplesPerSecond);
    const QModelIndex state = model.index(0, WorkerTableModel::State);
    QCOMPARE(model.data(speed, WorkerTableModel::SortRole).toDouble(), 100.0);
    QElapsedTimer held;
    held.start();
    panel.showFrame(withSpeed(200, wire::WORKER_COMPUTING));
    panel.showFrame(withSpeed(300, wire::WORKER_COMPUTING));
    QCOMPARE(model.data(speed, WorkerTableModel::SortRole).toDouble(), 100.0);  // held back
    QTRY_COMPARE_WITH_TIMEOUT(model.data(speed, WorkerTableModel::SortRole).toDouble(), 300.0, 2000);
    QVERIFY(held.elapsed() >= WorkerTableModel::kRefreshIntervalMs - 50);
    panel.showFrame(withSpeed(400, wire::WORKER_LOST));
    QCOMPARE(model.data(state).toString(), WorkerTableModel::stateName(wire::WORKER_LOST));  // at once
    QCOMPARE(model.data(speed, WorkerTableModel::SortRole).toDouble(), 400.0);
}

// Workers joining at the start: one label "worker_joined ×4" instead of a stack of three and a
// hidden fourth; every event keeps its line and tooltip; another kind nearby has its own label.
void TestSteeringPanel::aBurstOfOneKindSharesALabel() {
    QChart chart;
    chart.setPlotArea(QRectF(40, 20, 500, 300));
    QVector<wire::Event> events;
    for (int i = 0; i < 4; ++i) {  // 2.5 px apart in a 20 s view
        wire::Event joined;
        joined.set_time_s(0.1 * (i + 1));
        joined.set_kind(wire::EVENT_WORKER_JOINED);
        joined.set_detail("worker " + std::to_string(i));
        joined.set_worker_id(uint32_t(i));
        events << joined;
    }
    wire::Event start;
    start.set_time_s(0.5);
    start.set_kind(wire::EVENT_START);
    events << start;
    EventMarkers markers;
    markers.place(&chart, events, 0.0, 20.0);
    QCOMPARE(markers.visibleCount(), 5);
    QCOMPARE(markers.visibleLabelCount(), 2);
    QCOMPARE(markers.labelText(0), QStringLiteral("4 workers joined"));
    QCOMPARE(markers.labelText(4), QStringLiteral("training started"));
    for (int i = 0; i < 4; ++i) QVERIFY(markers.toolTip(i).contains(QStringLiteral("worker %1").arg(i)));
    const QVector<QRectF> rects = markers.visibleLabelRects();
    QVERIFY(!rects[0].intersects(rects[1]));
}

