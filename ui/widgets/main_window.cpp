// MainWindow (see main_window.h).
#include "ui/widgets/main_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

#include <memory>

#include "engine/plan/mode_catalog.h"
#include "engine/plan/run_plan.h"
#include "ui/net/control_requests.h"
#include "ui/scenario/scenario_banner.h"
#include "ui/scenario/scenario_commands.h"
#include "ui/scenario/scenario_menu.h"
#include "ui/scenario/scenario_parser.h"
#include "ui/widgets/advisor_bar.h"
#include "ui/widgets/chart_export.h"
#include "ui/widgets/eliding_label.h"
#include "ui/widgets/charts_panel.h"
#include "ui/widgets/compare_window.h"
#include "ui/widgets/results_window.h"
#include "ui/widgets/event_labels.h"
#include "ui/widgets/log_panel.h"
#include "ui/widgets/recording_task.h"
#include "ui/widgets/replay_bar.h"
#include "ui/widgets/rollback_picker.h"
#include "ui/widgets/steering_panel.h"
#include "ui/widgets/what_if_panel.h"
#include "ui/widgets/worker_table_model.h"

namespace syncscope::ui {

namespace {
constexpr int kStopGraceMs = 3000;
// Narrower than this, the steering table leaves out what the charts show too (SteeringPanel::setCompact)
// and its dock takes only what it needs: at 1024 px the charts would get less than half the window.
constexpr int kCompactWindowWidth = 1200;

// The local cluster a scenario starts: its run, and its initial mode with that mode's parameters.
LocalClusterSettings clusterSettingsFor(const Scenario& scenario) {
    LocalClusterSettings settings;
    settings.workers = scenario.workers;
    settings.model = scenario.model;
    settings.backend = scenario.backend;
    settings.epochs = scenario.epochs;
    settings.maxSeconds = scenario.maxSeconds;
    settings.targetAccuracy = scenario.targetAccuracy;
    settings.mode = scenario.mode;
    return settings;
}

}  // namespace

QString MainWindow::runStateName(wire::RunState state) {
    switch (state) {
        case wire::RUN_WAITING_FOR_WORKERS: return tr("waiting for workers");
        case wire::RUN_RUNNING: return tr("running");
        case wire::RUN_PAUSED: return tr("paused");
        case wire::RUN_STOPPED: return tr("stopped");
        default: return tr("unknown");
    }
}

MainWindow::MainWindow(const QString& engineBinary, QWidget* parent)
    : QMainWindow(parent), m_engineBinary(engineBinary), m_connection(m_store), m_replay(m_store),
      m_charts(new ChartsPanel(this)), m_advisor(new AdvisorBar(this)), m_cluster(new LocalClusterProcess(this)) {
    setWindowTitle(tr("SyncScope"));
    connectLocalCluster();
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_advisor);
    centralLayout->addWidget(m_charts, 1);
    setCentralWidget(central);
    connect(m_advisor, &AdvisorBar::answered, this, [this](quint64 adviceId, bool accept) {
        appendLog(accept ? tr("Taking advice %1").arg(adviceId) : tr("Dismissing advice %1").arg(adviceId));
        m_adviceRequest = m_connection.sendCommand(answerAdviceRequest(adviceId, accept));
    });
    createDocks();
    addToolBar(Qt::BottomToolBarArea, m_replayBar = new ReplayBar(m_replay, this));
    createMenus();
    setReplayMode(false);
    createStatusBar();
    connect(m_replayBar, &ReplayBar::openRequested, this, &MainWindow::openRecordingInBackground);
    connect(m_replayBar, &ReplayBar::outcome, this, &MainWindow::reportOutcome);
    connect(&m_store, &TelemetryStore::changed, &m_framePacer, &FramePacer::requestFrame, Qt::QueuedConnection);
    connect(m_steering, &SteeringPanel::requestReady, this,
            [this](const wire::ControlRequest& request) { m_connection.sendCommand(request); });
    connect(&m_connection, &ConsoleConnection::commandReplied, this, &MainWindow::onCommandReplied);
    connect(&m_scenarioRunner, &ScenarioRunner::requestReady, this,
            [this](const wire::ControlRequest& request) { m_connection.sendCommand(request); });
    connect(&m_scenarioRunner, &ScenarioRunner::changed, this, &MainWindow::showScenarioProgress);
    connect(&m_scenarioRunner, &ScenarioRunner::stepFired, this, [this](int, const QString& description) {
        const QString line = tr("Scenario at %1 s: %2").arg(m_scenarioRunner.trainingSeconds(), 0, 'f', 1).arg(description);
        appendLog(line);
        statusBar()->showMessage(line, 10'000);
    });
    connect(&m_scenarioRunner, &ScenarioRunner::noteChanged, this, [this](const QString& note) {
        if (!note.isEmpty()) appendLog(tr("Note: %1").arg(note));
    });
    connect(&m_scenarioRunner, &ScenarioRunner::finished, this,
            [this] { appendLog(tr("Scenario over: %1").arg(m_scenarioRunner.scenario().title)); });
    connect(&m_connection, &ConsoleConnection::attached, this, [this](const QString& description) {
        m_endpointLabel->setText(description);
        appendLog(description);
    });
    connect(&m_connection, &ConsoleConnection::detached, this, [this](const QString& reason) {
        m_endpointLabel->setText(tr("Not attached"));
        appendLog(tr("Detached: %1").arg(reason));
    });
    connect(&m_connection, &ConsoleConnection::connectionLost, this,
            [this](const QString& reason) { reportError(tr("Connection lost: %1").arg(reason)); });
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks() {
    // The steering panel takes the full height on the right; the scenario banner and the log
    // share the charts' width.
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    m_steering = new SteeringPanel(this);
    m_steeringDock = new QDockWidget(tr("Steering"), this);
    m_steeringDock->setObjectName(QStringLiteral("steeringDock"));
    m_steeringDock->setWidget(m_steering);
    addDockWidget(Qt::RightDockWidgetArea, m_steeringDock);
    m_logPanel = new LogPanel(this);
    m_logDock = new QDockWidget(tr("Log"), this);
    m_logDock->setObjectName(QStringLiteral("logDock"));
    m_logDock->setTitleBarWidget(new QWidget(m_logDock));  // the panel's own Log button is its title
    m_logDock->setWidget(m_logPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
    connect(m_logPanel, &LogPanel::expandedChanged, this, [this](bool expanded) {
        if (expanded) resizeDocks({m_logDock}, {height() / 4}, Qt::Vertical);
    });
    m_scenarioBanner = new ScenarioBanner(m_scenarioRunner, this);
    m_scenarioDock = new QDockWidget(tr("Scenario"), this);
    m_scenarioDock->setObjectName(QStringLiteral("scenarioDock"));
    m_scenarioDock->setTitleBarWidget(new QWidget(m_scenarioDock));  // the banner's title is the scenario's
    m_scenarioDock->setWidget(m_scenarioBanner);
    addDockWidget(Qt::TopDockWidgetArea, m_scenarioDock);
    m_scenarioDock->hide();  // until a scenario runs
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Attach…"), this, [this] { openConnectDialog(false); });
    file->addAction(tr("Start &local cluster…"), this, [this] { openConnectDialog(true); });
    file->addAction(tr("&Detach"), this, &MainWindow::detach);
    file->addSeparator();
    m_replayBar->addRecordingActions(file);
    addChartExportMenu(file, this, [this](const QString& path) { exportCharts(path); });
    file->addAction(tr("&Compare runs…"), this, [this] { compareRuns(); });
    file->addAction(tr("Open experiment &results…"), this, [this] {
        if (ResultsWindow* results = openResults(); results->folder().isEmpty()) results->chooseFolder();
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addActions(m_steering->runActions());
    run->addSeparator();
    m_rollbackAction = run->addAction(tr("Roll &back a change…"), this, [this] {
        const auto frame = m_store.frame();
        if (auto change = RollbackPicker::pick(this, frame ? frame->events : QVector<wire::Event>{})) rollBack(*change);
    });
    m_rollbackAction->setToolTip(tr("Restore the model, optimiser and mode from the checkpoint taken before a change"));
    QMenu* scenarios = menuBar()->addMenu(tr("&Scenarios"));
    ScenarioMenu::fill(scenarios, this, [this](const QString& path) { openScenario(path); });
    scenarios->addSeparator();
    scenarios->addAction(tr("Stop &following the scenario"), this, [this] { m_scenarioRunner.cancel(); });
    createViewMenu();
}

void MainWindow::createViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* wallClock = view->addAction(tr("&Wall-clock time axis"));
    wallClock->setCheckable(true);
    connect(wallClock, &QAction::toggled, m_charts, &ChartsPanel::setWallClockAxis);
    QAction* whatIf = view->addAction(tr("W&hat-if curves"));
    whatIf->setCheckable(true);
    whatIf->setChecked(true);
    WhatIfPanel* predictions = m_steering->whatIfPanel();
    connect(whatIf, &QAction::toggled, predictions, &WhatIfPanel::setCurvesShown);
    connect(predictions, &WhatIfPanel::curvesChanged, this, [this, whatIf, predictions] {
        whatIf->setChecked(predictions->curvesShown());
        m_charts->setWhatIf(predictions->curvesShown() && !m_presentation.active(), predictions->hiddenLabels());
    });
    QAction* logScale = view->addAction(tr("&Log-scale loss"));
    logScale->setCheckable(true);
    connect(logScale, &QAction::toggled, m_charts, &ChartsPanel::setLogScaleLoss);
    view->addSeparator();
    m_fullScreenAction = view->addAction(tr("&Full screen"));
    m_fullScreenAction->setCheckable(true);
    m_fullScreenAction->setShortcut(QKeySequence::FullScreen);  // F11
    connect(m_fullScreenAction, &QAction::toggled, this, [this](bool on) { on ? showFullScreen() : showNormal(); });
    m_presentationAction = view->addAction(tr("&Presentation view"));
    m_presentationAction->setCheckable(true);
    m_presentationAction->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(tr("Ctrl+Shift+P"))});
    m_presentationAction->setToolTip(tr("Large type for a projector; hides the fine controls and the log"));
    connect(m_presentationAction, &QAction::toggled, this, &MainWindow::setPresentationView);
}

void MainWindow::createStatusBar() {
    m_securityLabel = new QLabel(this);
    m_securityLabel->setStyleSheet(QStringLiteral("QLabel { color: white; background: #b00020; padding: 1px 6px; }"));
    m_securityLabel->hide();
    statusBar()->addPermanentWidget(m_securityLabel);
    // The long ones (where it is attached, the scenario's next step, how the run ends) give way
    // first when the window is narrow, cut short with "…", the whole text on hover.
    m_endpointLabel = new ElidingLabel(tr("Not attached"), this);
    m_stateLabel = new QLabel(this);
    m_modeLabel = new QLabel(this);
    m_versionLabel = new QLabel(this);
    m_accuracyLabel = new QLabel(this);
    m_scenarioLabel = new ElidingLabel(this);
    m_scenarioLabel->hide();
    statusBar()->addPermanentWidget(m_scenarioLabel);
    m_stopHint = new ElidingLabel(this);
    m_stopHint->setObjectName(QStringLiteral("stopHint"));
    m_stopHint->hide();
    statusBar()->addPermanentWidget(m_stopHint);
    for (QLabel* label : {m_endpointLabel, m_stateLabel, m_modeLabel, m_versionLabel, m_accuracyLabel})
        statusBar()->addPermanentWidget(label);
}

QString MainWindow::statusText() const {
    QStringList parts;
    for (QLabel* label : {m_endpointLabel, m_stateLabel, m_modeLabel, m_versionLabel, m_accuracyLabel})
        parts << label->text();
    return parts.join(QStringLiteral(" | "));
}

void MainWindow::openConnectDialog(bool localCluster) {
    ConnectDialog dialog(this);
    dialog.setStartsLocalCluster(localCluster);
    if (dialog.exec() != QDialog::Accepted) return;
    if (dialog.startsLocalCluster()) startLocalCluster(dialog.localClusterSettings());
    else attach(dialog.attachSettings());
}

void MainWindow::attach(const AttachSettings& settings) {
    if (settings.controlEndpoint.isEmpty() || settings.telemetryEndpoint.isEmpty()) {
        reportError(tr("Cannot attach: give both endpoints as tcp://HOST:PORT."));
        return;
    }
    setReplayMode(false);
    m_loggedEvents = 0;
    m_endpointLabel->setText(tr("Attaching to %1…").arg(settings.controlEndpoint));
    m_connection.attach(settings.controlEndpoint, settings.telemetryEndpoint, settings.credentials);
}

void MainWindow::detach() { m_connection.detach(); }

void MainWindow::setReplayMode(bool replay) {
    if (!replay) m_replay.close();
    m_replayBar->setReplayMode(replay);
    m_steering->setEnabled(!replay);
    for (QAction* action : m_steering->runActions()) action->setEnabled(!replay);
}

bool MainWindow::openRecording(const QString& path) {
    return showRecording(path, engine::readRecording(path.toStdString()));
}

void MainWindow::openRecordingInBackground(const QString& path) {
    auto read = std::make_shared<engine::Result<engine::Recording>>(engine::Recording{});
    RecordingTask::start(
        this, tr("Opening %1…").arg(QFileInfo(path).fileName()),
        [path, read](const engine::ExportProgress& progress) { *read = engine::readRecording(path.toStdString(), progress); },
        [this, path, read](bool cancelled) {
            if (cancelled) appendLog(tr("Opening %1 cancelled.").arg(path));
            else showRecording(path, std::move(*read));
        });
}

bool MainWindow::showRecording(const QString& path, engine::Result<engine::Recording> read) {
    m_scenarioRunner.cancel();  // a replay is not the scenario's run
    detach();
    const ReplayLoad load = m_replay.adopt(path, std::move(read));
    if (!load.message.isEmpty()) reportError(load.message);
    m_loggedEvents = 0;
    setReplayMode(load.opened);
    if (!load.opened) return false;
    m_endpointLabel->setText(tr("Replay: %1").arg(QFileInfo(path).fileName()));
    return reportOutcome(QString(), tr("Opened recording %1 (%2 s)").arg(path).arg(m_replay.duration(), 0, 'f', 1));
}

bool MainWindow::exportCharts(const QString& path) {
    return reportOutcome(exportWidgetImage(*m_charts, path), tr("Exported the charts to %1").arg(path));
}

bool MainWindow::reportOutcome(const QString& error, const QString& done) {
    error.isEmpty() ? appendLog(done) : reportError(error);
    return error.isEmpty();
}

void MainWindow::showLatestFrame() {
    const std::shared_ptr<const TelemetryFrame> frame = m_store.frame();
    m_charts->showFrame(*frame);
    m_steering->showFrame(*frame);
    m_advisor->setCanSteer(frame->clientRole != "view");
    m_advisor->showEvents(frame->events);
    logEvents(*frame);
    if (!frame->latest) return;
    if (m_scenarioRunner.active()) m_scenarioRunner.onTick(*frame->latest);
    const wire::Tick& tick = *frame->latest;
    m_stateLabel->setText(tr("State: %1").arg(runStateName(tick.state())));
    m_modeLabel->setText(tr("Mode: %1").arg(QString::fromStdString(wire::SyncMode_Name(tick.mode().mode()))));
    m_versionLabel->setText(tr("Version %1").arg(tick.version()));
    m_accuracyLabel->setText(tick.test_accuracy() < 0 ? tr("Accuracy: –")
                                                      : tr("Accuracy: %1%").arg(QLocale().toString(100.0 * tick.test_accuracy(), 'f', 2)));
    showSecurity(*frame);
    // How this run ends, while it runs and this console may stop it.
    const bool live = tick.state() == wire::RUN_RUNNING || tick.state() == wire::RUN_PAUSED;
    m_stopHint->setVisible(live && m_cluster->running() && frame->clientRole != "view" && !m_stopHint->text().isEmpty() &&
                           !m_presentation.active());  // large type: the status bar keeps what a class reads
}

QString MainWindow::stopHintFor(const LocalClusterSettings& settings) const {
    const QString stop = m_steering->runActions().value(2)->shortcut().toString(QKeySequence::NativeText);
    if (settings.untilStopped()) return tr("Runs until you stop it: Run → Stop (%1)").arg(stop);
    QStringList limits;
    if (settings.epochs > 0) limits << tr("%1 epochs").arg(settings.epochs);
    if (settings.maxSeconds > 0) limits << tr("%1 s of training").arg(settings.maxSeconds);
    if (settings.targetAccuracy > 0) limits << tr("%1% test accuracy").arg(settings.targetAccuracy);
    return tr("Stops at %1, or with Run → Stop (%2)").arg(limits.join(tr(" or ")), stop);
}

void MainWindow::showSecurity(const TelemetryFrame& frame) {
    // Said where it is always seen: a run anyone on this machine may steer, or a console that may only watch.
    QString text;
    if (frame.authentication == "none") text = tr("UNAUTHENTICATED: anyone on this machine may steer (--insecure)");
    else if (frame.clientRole == "view") text = tr("View only");
    m_rollbackAction->setEnabled(frame.clientRole != "view");
    m_securityLabel->setText(text);
    m_securityLabel->setVisible(!text.isEmpty());
}

void MainWindow::logEvents(const TelemetryFrame& frame) {
    if (frame.events.size() < m_loggedEvents) m_loggedEvents = 0;  // a new snapshot replaced the history
    for (; m_loggedEvents < frame.events.size(); ++m_loggedEvents) {
        const wire::Event& event = frame.events[m_loggedEvents];
        QString line = tr("[%1 s] %2").arg(event.time_s(), 0, 'f', 1).arg(EventLabels::withDetail(event));
        if (event.change_id()) line += tr(" (change %1)").arg(event.change_id());  // the number a rollback names
        appendLog(line);
    }
}

CompareWindow* MainWindow::compareRuns(const QStringList& recordings) {
    if (!m_compare) m_compare = new CompareWindow(this);  // a window of its own (Qt::Window), owned here
    m_compare->addRecordings(recordings);
    m_compare->show();
    m_compare->raise();
    return m_compare;
}

ResultsWindow* MainWindow::openResults(const QString& folder) {
    if (!m_results) m_results = new ResultsWindow(this);  // a window of its own (Qt::Window), owned here
    if (!folder.isEmpty()) m_results->openFolder(folder);
    m_results->show();
    m_results->raise();
    return m_results;
}

void MainWindow::rollBack(uint64_t changeId) {
    appendLog(tr("Rolling back to before change %1").arg(changeId));
    m_connection.sendCommand(rollbackRequest(changeId));
}

void MainWindow::appendLog(const QString& line) { m_logPanel->append(line); }

MainWindow::Parts MainWindow::parts() const {
    // Handed out to drive the window as a person would, as its child widgets are; the two parts held
    // by value are no different.
    auto* self = const_cast<MainWindow*>(this);
    return {m_charts,         m_advisor,           m_steering,       &self->m_replay,  m_replayBar, &self->m_scenarioRunner,
            m_scenarioBanner, m_presentationAction, m_rollbackAction, m_logPanel->view(), &m_store};
}

void MainWindow::reportError(const QString& message) {
    appendLog(message);
    statusBar()->showMessage(message, 10'000);
}

void MainWindow::onCommandReplied(quint64 requestId, bool ok, const QString& error, const QByteArray& serializedEvent) {
    if (!ok) {
        reportError(tr("Command %1 refused: %2").arg(requestId).arg(error));
        if (requestId == m_adviceRequest) m_advisor->answerRefused();
        return;
    }
    const std::optional<wire::Event> event = eventFromReply(serializedEvent);
    if (event) {
        m_store.ingestEvent(*event);  // drawn now, not when the next tick brings it
        m_framePacer.requestPromptFrame();
    }
    appendLog(tr("Command %1 done: %2").arg(requestId).arg(event ? QString::fromStdString(event->detail()) : tr("no event")));
}

void MainWindow::startLocalCluster(const LocalClusterSettings& settings) { startLocalCluster(settings, settings.runPlan()); }

void MainWindow::startLocalCluster(const LocalClusterSettings& settings, const wire::RunPlan& plan) {
    if (m_cluster->running()) {
        reportError(tr("A local cluster is already running; stop it first."));
        return;
    }
    if (const engine::Status valid = engine::validateRunPlan(plan); !valid) {
        reportError(tr("Cannot start a local cluster: %1").arg(QString::fromStdString(valid.message())));
        return;
    }
    QStringList stragglers;
    for (const auto& [worker, slowdown] : plan.slowdowns())
        stragglers << QString::fromStdString(engine::describeSlowdown(worker, slowdown));
    stragglers.sort();  // a map's order is not the workers' order
    appendLog(tr("Starting a local cluster: %1 workers, %2, %3%4")
                  .arg(plan.layout().workers())
                  .arg(QString::fromStdString(plan.spec().model()), QString::fromStdString(engine::describeMode(plan.mode())),
                       stragglers.isEmpty() ? QString() : QStringLiteral("; ") + stragglers.join(QStringLiteral("; "))));
    m_stopHint->setText(stopHintFor(settings));
    m_cluster->start(m_engineBinary, plan, {QStringLiteral("--backend"), settings.backend});
}

void MainWindow::connectLocalCluster() {
    connect(m_cluster, &LocalClusterProcess::ready, this,
            [this](const QString& control, const QString& telemetry, const QString& credentials) {
                attach({control, telemetry, credentials});
            });
    connect(m_cluster, &LocalClusterProcess::output, this, &MainWindow::appendLog);
    connect(m_cluster, &LocalClusterProcess::failed, this, &MainWindow::reportError);
    connect(m_cluster, &LocalClusterProcess::stopped, this, [this] {
        appendLog(tr("The local cluster has stopped."));
        if (auto next = std::exchange(m_afterClusterStopped, {})) next();
    });
}

bool MainWindow::localClusterRunning() const { return m_cluster->running(); }

void MainWindow::stopLocalCluster(std::function<void()> then) {
    m_afterClusterStopped = std::move(then);
    statusBar()->showMessage(tr("Stopping the local cluster…"));
    m_cluster->stop(kStopGraceMs);  // signals, then polls: the window stays responsive
}

void MainWindow::changeEvent(QEvent* event) {
    QMainWindow::changeEvent(event);
    if (event->type() != QEvent::WindowStateChange) return;
    const QSignalBlocker blocker(m_fullScreenAction);  // full-screen by --fullscreen or the window manager too
    m_fullScreenAction->setChecked(isFullScreen());
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    fitSteeringToWidth();
}

void MainWindow::fitSteeringToWidth() {
    if (m_presentation.active()) return;  // it keeps a table of its own; leaving it comes back here
    const bool compact = width() < kCompactWindowWidth;
    if (compact == m_steering->compact()) return;
    m_steering->setCompact(compact);
    if (compact) resizeDocks({m_steeringDock}, {m_steeringDock->minimumSizeHint().width()}, Qt::Horizontal);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (localClusterRunning() && !m_closingAfterStop) {
        const bool stop = m_stopClusterAnswer ? *m_stopClusterAnswer
                                              : QMessageBox::question(this, tr("Stop the local cluster?"),
                                                                      tr("This window started a local cluster. Stop its "
                                                                         "coordinator and workers?")) == QMessageBox::Yes;
        if (stop) {
            // Close once they have stopped (their final report and recording are written then).
            m_closingAfterStop = true;
            event->ignore();
            stopLocalCluster([this] { QMetaObject::invokeMethod(this, &QWidget::close, Qt::QueuedConnection); });
            return;
        }
        m_cluster->release();  // they keep running after this window; attach to them again later
    }
    m_scenarioRunner.cancel();
    m_connection.detach();
    if (m_compare) m_compare->close();  // Quit ends the console, not only this window
    if (m_results) m_results->close();
    event->accept();
}

bool MainWindow::openScenario(const QString& path) {
    const ScenarioLoad load = ScenarioParser::load(path);
    if (!load.scenario) {
        reportError(tr("Cannot run the scenario: %1").arg(load.error));
        return false;
    }
    runScenario(*load.scenario);
    return true;
}

void MainWindow::runScenario(const Scenario& scenario) {
    if (localClusterRunning()) {  // one local cluster at a time: the scenario brings its own
        const bool stop = m_stopClusterAnswer ? *m_stopClusterAnswer
                                              : QMessageBox::question(this, tr("Stop the local cluster?"),
                                                                      tr("A local cluster is running. Stop it and start the "
                                                                         "scenario \"%1\"?").arg(scenario.title)) == QMessageBox::Yes;
        if (!stop) return;
        detach();
        stopLocalCluster([this, scenario] { runScenario(scenario); });
        return;
    }
    m_scenarioRunner.start(scenario);
    m_scenarioBanner->reload();
    m_scenarioDock->show();
    appendLog(tr("Scenario: %1 (%2)").arg(scenario.title, scenario.source));
    const LocalClusterSettings settings = clusterSettingsFor(scenario);
    wire::RunPlan plan = settings.runPlan();
    applyScenario(scenario, plan);
    startLocalCluster(settings, plan);
}

void MainWindow::showScenarioProgress() {
    m_scenarioBanner->refresh();
    m_scenarioLabel->setVisible(m_scenarioRunner.loaded());
    m_scenarioLabel->setText(tr("Scenario %1 s · next: %2")
                                 .arg(m_scenarioRunner.trainingSeconds(), 0, 'f', 0)
                                 .arg(m_scenarioRunner.nextStepText()));
}

void MainWindow::setPresentationView(bool on) {
    if (on != m_presentation.active()) {
        if (on) {
            // The worker table stays (large); the steering panel's other boxes (the what-if table with
            // them, and its dashed curves: the charts keep what a class follows) and the log go.
            QTableView* table = m_steering->workerView();
            QList<QWidget*> hide{m_logDock, m_endpointLabel, m_versionLabel};
            if (!table) hide << m_steeringDock;
            for (QWidget* child : m_steering->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
                if (table && child != table && !child->isAncestorOf(table)) hide << child;
            // The note has a size of its own (larger than the banner's), so it is scaled by itself.
            m_presentation.enter(m_charts->chartViews(), {m_scenarioBanner, m_scenarioBanner->noteLabel(), statusBar()},
                                 table ? QList<QTableView*>{table} : QList<QTableView*>{}, hide);
            // In large type the table keeps what a class follows: who, how fast, how stale, how slowed.
            m_presentation.hideColumns(table, {WorkerTableModel::State, WorkerTableModel::Group, WorkerTableModel::Lag,
                                               WorkerTableModel::Dropped, WorkerTableModel::Batch});
            m_charts->setDetailsShown(false);  // four charts, large enough for large type
            m_charts->setWhatIf(false, {});
        } else {
            m_presentation.leave();
            m_charts->setDetailsShown(true);
            m_charts->setWhatIf(m_steering->whatIfPanel()->curvesShown(), m_steering->whatIfPanel()->hiddenLabels());
            fitSteeringToWidth();
        }
    }
    const QSignalBlocker blocker(m_presentationAction);
    m_presentationAction->setChecked(on);
}

}  // namespace syncscope::ui
