// Classroom scenarios offscreen: every shipped scenario parses; malformed ones are refused with a
// message naming the file, the entry and the fault; the runner fires steps in order at the right
// training times from fed ticks (no network); the presentation view enlarges chart fonts and restores
// them; and the main window plays a short scenario on a real local cluster of two workers.
#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "engine/plan/run_plan.h"
#include "ui/scenario/presentation_mode.h"
#include "ui/scenario/scenario_banner.h"
#include "ui/scenario/scenario_catalog.h"
#include "ui/scenario/scenario_commands.h"
#include "ui/scenario/scenario_parser.h"
#include "ui/scenario/scenario_runner.h"
#include "ui/widgets/charts_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/steering_panel.h"

using namespace syncscope::ui;
namespace wire = syncscope::wire;
namespace engine = syncscope::engine;

namespace {

// A valid scenario with `schedule` (a JSON list) and extra top-level fields spliced in.
QByteArray scenarioJson(const QByteArray& schedule, const QByteArray& extra = {}) {
    return R"({"title": "t", "workers": 4, "sync": {"mode": "bsp"}, "max_seconds": 100, )" + extra +
           R"("schedule": )" + schedule + "}";
}

constexpr int kEngineTimeoutMs = 30'000;

bool logMatches(const MainWindow& window, const QString& pattern) {
    return QRegularExpression(pattern).match(window.parts().log->toPlainText()).hasMatch();
}

wire::Tick tick(double timeS, wire::RunState state) {
    wire::Tick t;
    t.set_time_s(timeS);
    t.set_state(state);
    return t;
}

}  // namespace

class TestScenario : public QObject {
    Q_OBJECT

private slots:
    void parsesEveryShippedScenario();
    void shippedScenariosSayWhatTheyTeach();
    void refusesMalformed_data();
    void refusesMalformed();
    void readsEveryModeParameter();
    void buildsTheRunPlan();
    void resolvesShippedNames();
    void runnerFiresStepsInOrderOnTheTrainingClock();
    void runnerCountsItsOwnPauseAndResumesAfterIt();
    void runnerSkipsWhatIsLeftWhenTheRunStops();
    void bannerShowsNoteAndNextStep();
    void presentationEnlargesChartsAndRestores();
    void mainWindowTogglesPresentationView();
    void mainWindowListsAndRefusesScenarios();
    void mainWindowPlaysAScenarioOnARealCluster();
};

void TestScenario::parsesEveryShippedScenario() {
    const QStringList paths = shippedScenarioPaths();
    QVERIFY2(paths.size() >= 3, qPrintable(paths.join(QLatin1Char(' '))));
    for (const QString& name : {QStringLiteral("straggler-bsp.json"), QStringLiteral("bsp-vs-asp.json"),
                                QStringLiteral("grouping-rescue.json")})
        QVERIFY2(paths.contains(QStringLiteral(":/scenarios/") + name), qPrintable(name));
    for (const QString& path : paths) {
        const ScenarioLoad load = ScenarioParser::load(path);
        QVERIFY2(load.scenario, qPrintable(load.error));
        QVERIFY(!load.scenario->title.isEmpty());
        QVERIFY(!load.scenario->description.isEmpty());
        QVERIFY(!load.scenario->steps.isEmpty());
        // Short enough for a lesson on a 2-core machine.
        QVERIFY2(load.scenario->maxSeconds > 0 && load.scenario->maxSeconds <= 180, qPrintable(path));
        for (const ScenarioStep& step : load.scenario->steps) QVERIFY(step.at < load.scenario->maxSeconds);
    }
}

void TestScenario::shippedScenariosSayWhatTheyTeach() {
    const ScenarioLoad straggler = ScenarioParser::load(QStringLiteral(":/scenarios/straggler-bsp.json"));
    QVERIFY(straggler.scenario);
    QCOMPARE(straggler.scenario->workers, 4);
    QCOMPARE(straggler.scenario->mode.mode(), wire::BSP);
    QCOMPARE(straggler.scenario->slowdowns.size(), 1);
    QCOMPARE(straggler.scenario->slowdowns[0].slowdown.factor(), 4.0);
    const auto removed = std::find_if(straggler.scenario->steps.begin(), straggler.scenario->steps.end(), [](const ScenarioStep& s) {
        return s.action == ScenarioAction::SetSlowdown && s.workerId == 3 && s.slowdown.factor() == 1.0;
    });
    QVERIFY(removed != straggler.scenario->steps.end());

    const ScenarioLoad asp = ScenarioParser::load(QStringLiteral(":/scenarios/bsp-vs-asp.json"));
    QVERIFY(asp.scenario);
    QList<wire::LrModulation> modulations;
    for (const ScenarioStep& step : asp.scenario->steps)
        if (step.action == ScenarioAction::SetMode && step.mode.mode() == wire::ASP) modulations << step.mode.lr_modulation();
    QVERIFY(modulations.contains(wire::LR_INVERSE) && modulations.contains(wire::LR_DYNSGD));

    const ScenarioLoad grouping = ScenarioParser::load(QStringLiteral(":/scenarios/grouping-rescue.json"));
    QVERIFY(grouping.scenario);
    QCOMPARE(grouping.scenario->mode.mode(), wire::BSP);
    const auto grouped = std::find_if(grouping.scenario->steps.begin(), grouping.scenario->steps.end(), [](const ScenarioStep& s) {
        return s.action == ScenarioAction::SetMode && s.mode.mode() == wire::GROUPED;
    });
    QVERIFY(grouped != grouping.scenario->steps.end());
    QCOMPARE(grouped->mode.group_count(), 2u);
    QCOMPARE(grouped->mode.group_by(), wire::GROUP_BY_SPEED);
    const wire::ControlRequest request = *controlRequestFor(*grouped);
    QVERIFY(request.has_set_mode());
    QCOMPARE(request.set_mode().settings().mode(), wire::GROUPED);
    QCOMPARE(request.set_mode().settings().group_count(), 2u);
    QCOMPARE(request.set_mode().settings().group_by(), wire::GROUP_BY_SPEED);
}

void TestScenario::refusesMalformed_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");  // fragments, '|'-separated, all in the message
    QTest::newRow("not json") << QByteArray("{\"title\": ") << QStringLiteral("not valid JSON");
    QTest::newRow("not an object") << QByteArray("[1, 2]") << QStringLiteral("must be a JSON object");
    QTest::newRow("no title") << QByteArray(R"({"workers": 2, "sync": {"mode": "bsp"}})") << QStringLiteral("missing field 'title'");
    QTest::newRow("no sync") << QByteArray(R"({"title": "t", "workers": 2})") << QStringLiteral("sync|not an object");
    QTest::newRow("bad mode") << QByteArray(R"({"title": "t", "workers": 2, "sync": {"mode": "fast"}})")
                              << QStringLiteral("sync|'mode' is 'fast'|'bsp'");
    QTest::newRow("typo at top") << scenarioJson("[]", R"("max_second": 5, )") << QStringLiteral("unknown field 'max_second'");
    QTest::newRow("too many workers") << QByteArray(R"({"title": "t", "workers": 5000, "sync": {"mode": "bsp"}})")
                                      << QStringLiteral("'workers' is 500");
    QTest::newRow("unknown action") << scenarioJson(R"([{"at": 5, "action": "explode"}])")
                                    << QStringLiteral("schedule entry 1 (at 5 s)|unknown action 'explode'|'set_mode'");
    QTest::newRow("missing at") << scenarioJson(R"([{"action": "stop"}])") << QStringLiteral("schedule entry 1|missing field 'at'");
    QTest::newRow("negative at") << scenarioJson(R"([{"at": -1, "action": "stop"}])") << QStringLiteral("'at' is -1");
    QTest::newRow("missing action") << scenarioJson(R"([{"at": 1}])") << QStringLiteral("missing field 'action'");
    QTest::newRow("after the end") << scenarioJson(R"([{"at": 200, "action": "stop"}])")
                                   << QStringLiteral("schedule entry 1 (at 200 s)|'max_seconds' is 100");
    QTest::newRow("worker out of range") << scenarioJson(R"([{"at": 1, "action": "set_slowdown", "worker": 4, "factor": 2}])")
                                         << QStringLiteral("'worker' is 4|from 0 to 3");
    QTest::newRow("factor below 1") << scenarioJson(R"([{"at": 1, "action": "set_slowdown", "worker": 0, "factor": 0.5}])")
                                    << QStringLiteral("'factor' is 0.5");
    QTest::newRow("factor as text") << scenarioJson(R"([{"at": 1, "action": "set_slowdown", "worker": 0, "factor": "x4"}])")
                                    << QStringLiteral("'factor' must be a number");
    QTest::newRow("field of another action") << scenarioJson(R"([{"at": 1, "action": "pause", "worker": 0}])")
                                             << QStringLiteral("schedule entry 1|unknown field 'worker'");
    QTest::newRow("bad group_by") << scenarioJson(R"([{"at": 1, "action": "set_mode", "mode": "grouped", "group_by": "size"}])")
                                  << QStringLiteral("'group_by' is 'size'|'speed'");
    QTest::newRow("explicit without assignment") << scenarioJson(R"([{"at": 1, "action": "set_groups", "count": 2, "by": "explicit"}])")
                                                 << QStringLiteral("no 'assignment'");
    QTest::newRow("group out of range") << scenarioJson(R"([{"at": 1, "action": "set_groups", "count": 2, "by": "explicit", "assignment": {"3": 2}}])")
                                        << QStringLiteral("worker 3 in group 2");
    QTest::newRow("fractional k") << scenarioJson(R"([{"at": 1, "action": "set_mode", "mode": "ksync", "k": 2.5}])")
                                  << QStringLiteral("'k' must be a whole number");
    QTest::newRow("set_groups without count") << scenarioJson(R"([{"at": 1, "action": "set_groups", "by": "speed"}])")
                                              << QStringLiteral("missing field 'count'");
    QTest::newRow("no learning rate") << scenarioJson(R"([{"at": 1, "action": "set_learning_rate"}])")
                                      << QStringLiteral("missing field 'learning_rate'");
    QTest::newRow("empty note") << scenarioJson(R"([{"at": 1, "action": "note"}])") << QStringLiteral("needs a 'note' text");
    QTest::newRow("schedule not a list") << scenarioJson(R"({"at": 1})") << QStringLiteral("'schedule' must be a list");
    QTest::newRow("bad initial slowdown") << scenarioJson("[]", R"("slowdowns": [{"worker": 1, "factor": 200}], )")
                                          << QStringLiteral("slowdowns entry 1|'factor' is 200");
    QTest::newRow("explicit start") << QByteArray(R"({"title": "t", "workers": 2, "sync": {"mode": "grouped", "group_by": "explicit", "assignment": [0, 1]}})")
                                    << QStringLiteral("cannot start with 'group_by': 'explicit'");
}

void TestScenario::refusesMalformed() {
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    const ScenarioLoad load = ScenarioParser::parse(json, QStringLiteral("lesson.json"));
    QVERIFY(!load.scenario);
    QVERIFY2(load.error.startsWith(QStringLiteral("lesson.json: ")), qPrintable(load.error));
    for (const QString& fragment : expected.split(QLatin1Char('|')))
        QVERIFY2(load.error.contains(fragment), qPrintable(QStringLiteral("'%1' not in: %2").arg(fragment, load.error)));
}

void TestScenario::readsEveryModeParameter() {
    const ScenarioLoad load = ScenarioParser::parse(scenarioJson(R"([
        {"at": 10, "action": "set_mode", "mode": "grouped", "group_count": 2, "group_by": "explicit",
         "assignment": {"0": 0, "1": 0, "2": 0, "3": 1}, "intra_group_ssp": true, "staleness_bound": 2},
        {"at": 5, "action": "set_mode", "mode": "elastic", "elastic_slack": true, "rebalance_seconds": 3},
        {"at": 20, "action": "set_groups", "count": 2, "by": "explicit", "assignment": [1, 0, 0, 0]},
        {"at": 30, "action": "set_slowdown", "worker": 2, "factor": 2, "delay_ms": 5, "network_delay_ms": 7},
        {"at": 40, "action": "set_learning_rate", "learning_rate": 0.01},
        {"at": 50, "action": "set_mode", "mode": "auto", "decision_seconds": 4},
        {"at": 60, "action": "set_mode", "mode": "kasync", "k": 2, "lr_modulation": "dynsgd"}])"),
        QStringLiteral("modes.json"));
    QVERIFY2(load.scenario, qPrintable(load.error));
    const QList<ScenarioStep>& steps = load.scenario->steps;
    QCOMPARE(steps.size(), 7);
    QCOMPARE(steps[0].at, 5.0);  // sorted by time
    QVERIFY(steps[0].mode.elastic_slack());
    QCOMPARE(steps[0].mode.rebalance_seconds(), 3.0);
    QCOMPARE(steps[1].mode.assignment().at(3), 1u);
    QVERIFY(steps[1].mode.intra_group_ssp());
    QCOMPARE(steps[1].mode.staleness_bound(), 2u);
    const wire::ControlRequest groups = *controlRequestFor(steps[2]);
    QVERIFY(groups.has_set_groups());
    QCOMPARE(groups.set_groups().by(), wire::GROUP_EXPLICIT);
    QCOMPARE(groups.set_groups().assignment().at(0), 1u);
    const wire::ControlRequest slowdown = *controlRequestFor(steps[3]);
    QCOMPARE(slowdown.set_slowdown().worker_id(), 2u);
    QCOMPARE(slowdown.set_slowdown().slowdown().fixed_delay_ms(), 5.0);
    QCOMPARE(slowdown.set_slowdown().slowdown().network_delay_ms(), 7.0);
    QCOMPARE(controlRequestFor(steps[4])->set_learning_rate().learning_rate(), 0.01f);
    QCOMPARE(steps[5].mode.decision_seconds(), 4.0);
    QCOMPARE(steps[6].mode.k(), 2u);
    QCOMPARE(steps[6].mode.lr_modulation(), wire::LR_DYNSGD);
}

void TestScenario::buildsTheRunPlan() {
    const ScenarioLoad straggler = ScenarioParser::load(QStringLiteral(":/scenarios/straggler-bsp.json"));
    QVERIFY(straggler.scenario);
    wire::RunPlan plan = engine::defaultRunPlan();
    applyScenario(*straggler.scenario, plan);
    QCOMPARE(plan.slowdowns().count(3), size_t(1));
    QCOMPARE(plan.slowdowns().at(3).factor(), 4.0);
    QCOMPARE(plan.spec().learning_rate(), engine::defaultRunPlan().spec().learning_rate());  // the scenario sets none
    const ScenarioLoad tuned = ScenarioParser::parse(
        R"({"title": "g", "workers": 4, "sync": {"mode": "grouped", "group_count": 2, "group_by": "speed"},
            "slowdowns": [{"worker": 1, "factor": 2, "delay_ms": 5, "transient_probability": 0.1, "transient_factor": 3}],
            "learning_rate": 0.02, "target_accuracy": 80})", QStringLiteral("g.json"));
    QVERIFY2(tuned.scenario, qPrintable(tuned.error));
    wire::RunPlan tunedPlan = engine::defaultRunPlan();
    applyScenario(*tuned.scenario, tunedPlan);
    QCOMPARE(tunedPlan.slowdowns_size(), 1);
    const wire::Slowdown& s = tunedPlan.slowdowns().at(1);
    QCOMPARE(s.factor(), 2.0);
    QCOMPARE(s.fixed_delay_ms(), 5.0);
    QCOMPARE(s.transient_probability(), 0.1);
    QCOMPARE(s.transient_factor(), 3.0);
    QCOMPARE(tunedPlan.spec().learning_rate(), 0.02f);  // stop conditions: LocalClusterSettings
}

void TestScenario::resolvesShippedNames() {
    QCOMPARE(resolveScenarioPath(QStringLiteral("straggler-bsp")), QStringLiteral(":/scenarios/straggler-bsp.json"));
    QCOMPARE(resolveScenarioPath(QStringLiteral("bsp-vs-asp.json")), QStringLiteral(":/scenarios/bsp-vs-asp.json"));
    QVERIFY(resolveScenarioPath(QStringLiteral("no-such-scenario")).isEmpty());
    const ScenarioLoad missing = ScenarioParser::load(QStringLiteral("/nonexistent/lesson.json"));
    QVERIFY(!missing.scenario);
    QVERIFY2(missing.error.contains(QStringLiteral("/nonexistent/lesson.json: cannot read")), qPrintable(missing.error));
}

void TestScenario::runnerFiresStepsInOrderOnTheTrainingClock() {
    const ScenarioLoad load = ScenarioParser::parse(scenarioJson(R"([
        {"at": 0, "action": "note", "note": "first"},
        {"at": 10, "action": "set_slowdown", "worker": 3, "factor": 1, "note": "second"},
        {"at": 20, "action": "set_mode", "mode": "asp", "lr_modulation": "inverse"},
        {"at": 30, "action": "stop", "note": "done"}])"), QStringLiteral("clock.json"));
    QVERIFY2(load.scenario, qPrintable(load.error));
    ScenarioRunner runner;
    QSignalSpy requests(&runner, &ScenarioRunner::requestReady);
    QSignalSpy fired(&runner, &ScenarioRunner::stepFired);
    runner.start(*load.scenario);
    // Startup: the coordinator's clock runs for 5 s while workers join; the schedule does not.
    int i = 0;  // tick i is at i * 0.1 s of the coordinator's clock
    const auto runUntil = [&](double end, wire::RunState state) {
        for (; i * 0.1 < end - 1e-9; ++i) runner.onTick(tick(i * 0.1, state));
    };
    runUntil(5.0, wire::RUN_WAITING_FOR_WORKERS);
    QCOMPARE(fired.size(), 0);
    runUntil(5.05, wire::RUN_RUNNING);  // the first running tick: the step at 0 fires
    QCOMPARE(fired.size(), 1);
    QCOMPARE(runner.currentNote(), QStringLiteral("first"));
    QCOMPARE(requests.size(), 0);  // a note sends nothing
    runUntil(14.95, wire::RUN_RUNNING);
    QCOMPARE(fired.size(), 1);
    QVERIFY(qAbs(runner.trainingSeconds() - 9.9) < 1e-6);
    runUntil(15.05, wire::RUN_RUNNING);
    QCOMPARE(fired.size(), 2);
    QCOMPARE(fired[1][0].toInt(), 1);
    QCOMPARE(runner.currentNote(), QStringLiteral("second"));
    QCOMPARE(requests.size(), 1);
    QVERIFY(requests[0][0].value<wire::ControlRequest>().has_set_slowdown());
    // Paused by hand for 20 s of the engine's clock: the schedule waits.
    runUntil(20.0, wire::RUN_RUNNING);
    runUntil(40.0, wire::RUN_PAUSED);
    QCOMPARE(fired.size(), 2);
    QVERIFY(qAbs(runner.trainingSeconds() - 14.9) < 1e-6);  // the tick into the pause counts, none after
    runUntil(45.15, wire::RUN_RUNNING);
    QCOMPARE(fired.size(), 3);
    const wire::ControlRequest mode = requests[1][0].value<wire::ControlRequest>();
    QCOMPARE(mode.set_mode().settings().mode(), wire::ASP);
    QCOMPARE(mode.set_mode().settings().lr_modulation(), wire::LR_INVERSE);
    QVERIFY(runner.nextStepText().contains(QStringLiteral("30 s")));
    runUntil(55.15, wire::RUN_RUNNING);
    QCOMPARE(fired.size(), 4);
    QVERIFY(requests[2][0].value<wire::ControlRequest>().stop());
    QVERIFY(!runner.active());
    for (int step = 0; step < 4; ++step) QCOMPARE(runner.stepState(step), ScenarioRunner::StepState::Done);
    QList<int> order;
    for (const QList<QVariant>& signal : fired) order << signal[0].toInt();
    QCOMPARE(order, (QList<int>{0, 1, 2, 3}));
}

void TestScenario::runnerCountsItsOwnPauseAndResumesAfterIt() {
    const ScenarioLoad load = ScenarioParser::parse(scenarioJson(R"([
        {"at": 10, "action": "pause", "seconds": 5, "note": "look"},
        {"at": 12, "action": "note", "note": "during the pause"}])"), QStringLiteral("pause.json"));
    QVERIFY2(load.scenario, qPrintable(load.error));
    ScenarioRunner runner;
    QSignalSpy requests(&runner, &ScenarioRunner::requestReady);
    runner.start(*load.scenario);
    int i = 0;
    for (; i <= 100; ++i) runner.onTick(tick(i * 0.1, wire::RUN_RUNNING));
    QCOMPARE(requests.size(), 1);
    QVERIFY(requests[0][0].value<wire::ControlRequest>().pause());
    for (; i <= 120; ++i) runner.onTick(tick(i * 0.1, wire::RUN_PAUSED));
    QCOMPARE(runner.currentNote(), QStringLiteral("during the pause"));  // its own pause counts
    for (; i < 150; ++i) runner.onTick(tick(i * 0.1, wire::RUN_PAUSED));
    QCOMPARE(requests.size(), 1);
    runner.onTick(tick(15.0, wire::RUN_PAUSED));
    QCOMPARE(requests.size(), 2);
    QVERIFY(requests[1][0].value<wire::ControlRequest>().resume());
}

void TestScenario::runnerSkipsWhatIsLeftWhenTheRunStops() {
    const ScenarioLoad load = ScenarioParser::parse(scenarioJson(R"([
        {"at": 1, "action": "set_learning_rate", "learning_rate": 0.1},
        {"at": 50, "action": "set_mode", "mode": "ssp", "staleness_bound": 3}])"), QStringLiteral("stop.json"));
    QVERIFY2(load.scenario, qPrintable(load.error));
    ScenarioRunner runner;
    QSignalSpy finished(&runner, &ScenarioRunner::finished);
    runner.start(*load.scenario);
    for (double t = 0.0; t < 3.0; t += 0.1) runner.onTick(tick(t, wire::RUN_RUNNING));
    runner.onTick(tick(3.1, wire::RUN_STOPPED));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(runner.stepState(0), ScenarioRunner::StepState::Done);
    QCOMPARE(runner.stepState(1), ScenarioRunner::StepState::Skipped);
    QSignalSpy requests(&runner, &ScenarioRunner::requestReady);
    runner.onTick(tick(60.0, wire::RUN_RUNNING));  // no longer following
    QCOMPARE(requests.size(), 0);
}

void TestScenario::bannerShowsNoteAndNextStep() {
    const ScenarioLoad load = ScenarioParser::load(QStringLiteral(":/scenarios/grouping-rescue.json"));
    QVERIFY(load.scenario);
    ScenarioRunner runner;
    ScenarioBanner banner(runner);
    connect(&runner, &ScenarioRunner::changed, &banner, &ScenarioBanner::refresh);
    runner.start(*load.scenario);
    banner.reload();
    QCOMPARE(banner.stepList()->count(), load.scenario->steps.size());
    for (double t = 0.0; t < 1.0; t += 0.1) runner.onTick(tick(t, wire::RUN_RUNNING));
    QCOMPARE(banner.noteLabel()->text(), load.scenario->steps[0].note);
    QVERIFY2(banner.nextText().contains(QStringLiteral("grouped G=2 by=speed")), qPrintable(banner.nextText()));
}

void TestScenario::presentationEnlargesChartsAndRestores() {
    ChartsPanel charts;
    QLabel note(QStringLiteral("a note"));
    QTableView table;
    QWidget fineControls;
    charts.show();
    fineControls.show();
    QVERIFY(!charts.chartViews().isEmpty());
    QChart* chart = charts.chartViews().first()->chart();
    const QFont title = chart->titleFont();
    QVERIFY(!chart->axes().isEmpty());
    const QFont labels = chart->axes().first()->labelsFont();
    const double noteSize = note.font().pointSizeF();

    PresentationMode presentation;
    presentation.enter(charts.chartViews(), {&note}, {&table}, {&fineControls});
    QVERIFY(presentation.active());
    QCOMPARE(chart->titleFont().pointSizeF(), title.pointSizeF() * PresentationMode::kDefaultScale);
    QCOMPARE(chart->axes().first()->labelsFont().pointSizeF(), labels.pointSizeF() * PresentationMode::kDefaultScale);
    QVERIFY(chart->legend()->font().pointSizeF() > 0);
    QCOMPARE(note.font().pointSizeF(), noteSize * PresentationMode::kDefaultScale);
    QCOMPARE(table.font().pointSizeF(), noteSize * PresentationMode::kDefaultScale);
    QVERIFY(fineControls.isHidden());

    presentation.leave();
    QVERIFY(!presentation.active());
    QCOMPARE(chart->titleFont(), title);
    QCOMPARE(chart->axes().first()->labelsFont(), labels);
    QCOMPARE(note.font().pointSizeF(), noteSize);
    QVERIFY(!note.testAttribute(Qt::WA_SetFont));  // inherits again, as before
    QVERIFY(!fineControls.isHidden());
}

void TestScenario::mainWindowTogglesPresentationView() {
    MainWindow window(QStringLiteral(SYNCSCOPE_ENGINE_BINARY));
    window.resize(1400, 900);
    window.show();
    QChart* chart = window.parts().charts->chartViews().first()->chart();
    const QFont title = chart->titleFont();
    auto* logDock = window.findChild<QDockWidget*>(QStringLiteral("logDock"));
    QVERIFY(logDock && !logDock->isHidden());
    const double note = window.parts().scenarioBanner->noteLabel()->font().pointSizeF();
    QAction* toggle = window.parts().presentation;
    QVERIFY(toggle->shortcuts().contains(QKeySequence(Qt::Key_F5)));
    toggle->trigger();
    QVERIFY(window.presentationView());
    QCOMPARE(chart->titleFont().pointSizeF(), title.pointSizeF() * PresentationMode::kDefaultScale);
    QCOMPARE(window.parts().scenarioBanner->noteLabel()->font().pointSizeF(), note * PresentationMode::kDefaultScale);
    QVERIFY(logDock->isHidden());
    auto* table = window.parts().steering->workerView();
    QVERIFY(table && table->font().pointSizeF() > title.pointSizeF());
    QVERIFY(table->isVisibleTo(&window));  // the worker table stays, large
    toggle->trigger();
    QVERIFY(!window.presentationView());
    QCOMPARE(chart->titleFont(), title);
    QCOMPARE(window.parts().scenarioBanner->noteLabel()->font().pointSizeF(), note);
    QVERIFY(!logDock->isHidden());
    window.setPresentationView(true);  // the method and the action agree
    QVERIFY(toggle->isChecked());
    window.setPresentationView(false);
    QVERIFY(!toggle->isChecked());
}

void TestScenario::mainWindowListsAndRefusesScenarios() {
    MainWindow window(QStringLiteral(SYNCSCOPE_ENGINE_BINARY));
    QMenu* scenarios = nullptr;
    for (QAction* action : window.menuBar()->actions())
        if (action->text() == QStringLiteral("&Scenarios")) scenarios = action->menu();
    QVERIFY(scenarios);
    QStringList titles;
    for (QAction* action : scenarios->actions()) titles << action->text();
    for (const QString& path : shippedScenarioPaths()) QVERIFY(titles.contains(ScenarioParser::load(path).scenario->title));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(scenarioJson(R"([{"at": 3, "action": "warp"}])"));
    file.close();
    QVERIFY(!window.openScenario(path));
    QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("broken.json: schedule entry 1 (at 3 s): unknown action 'warp'")),
             qPrintable(window.statusBar()->currentMessage()));
    QVERIFY(!window.localClusterRunning());
    QVERIFY(!window.parts().scenarioRunner->active());
}

// A short scenario through the whole path: local cluster with the scenario's straggler, steps fired
// on the training clock, the engine's events back in the log, the stop step ending the run.
void TestScenario::mainWindowPlaysAScenarioOnARealCluster() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("short.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"title": "short", "workers": 2, "backend": "cpu", "sync": {"mode": "bsp"},
        "slowdowns": [{"worker": 1, "factor": 3}], "max_seconds": 60, "schedule": [
        {"at": 0, "action": "note", "note": "worker 1 is slow"},
        {"at": 2, "action": "set_slowdown", "worker": 1, "factor": 1, "note": "back to speed"},
        {"at": 4, "action": "set_mode", "mode": "asp", "lr_modulation": "inverse", "note": "asynchronous now"},
        {"at": 6, "action": "stop", "note": "the end"}]})");
    file.close();
    MainWindow window(QStringLiteral(SYNCSCOPE_ENGINE_BINARY));
    window.setStopClusterAnswer(true);
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openScenario(path));
    QVERIFY(logMatches(window, QStringLiteral("worker 1: x3 compute")));  // the straggler from the start
    QTRY_VERIFY_WITH_TIMEOUT(window.parts().scenarioBanner->noteLabel()->text() == QStringLiteral("worker 1 is slow"), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(logMatches(window, QStringLiteral("\\] worker 1 slowdown: ")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(logMatches(window, QStringLiteral("\\] mode .*asp")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.statusText().contains(QStringLiteral("State: stopped")), kEngineTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!window.parts().scenarioRunner->active(), kEngineTimeoutMs);
    for (int step = 0; step < 4; ++step) QCOMPARE(window.parts().scenarioRunner->stepState(step), ScenarioRunner::StepState::Done);
    QCOMPARE(window.parts().scenarioBanner->noteLabel()->text(), QStringLiteral("the end"));
    QVERIFY(window.parts().scenarioRunner->trainingSeconds() >= 6.0);
    QVERIFY(!logMatches(window, QStringLiteral("refused")));
    window.close();  // closes once the cluster has stopped
    QTRY_VERIFY_WITH_TIMEOUT(!window.localClusterRunning() && !window.isVisible(), kEngineTimeoutMs);
}

QTEST_MAIN(TestScenario)
#include "test_scenario.moc"
