// MainWindow: the console. Charts in the middle, steering and log in docks; owns the telemetry store
// and the connection, repaints on a coalescing timer, starts local clusters, replays recordings,
// plays classroom scenarios and switches to a presentation view for a projector.
#pragma once

#include <QMainWindow>
#include <QTimer>

#include <functional>
#include <optional>

#include "ui/model/telemetry_store.h"
#include "ui/net/console_connection.h"
#include "ui/net/local_cluster_process.h"
#include "ui/scenario/presentation_mode.h"
#include "ui/scenario/scenario_runner.h"
#include "ui/widgets/connect_dialog.h"
#include "ui/widgets/frame_pacer.h"
#include "ui/widgets/replay_controller.h"

class QAction;
class QDockWidget;
class QLabel;
class QPlainTextEdit;

namespace syncscope::ui {

class AdvisorBar;
class ChartsPanel;
class CompareWindow;
class ResultsWindow;
class LogPanel;
class ReplayBar;
class ScenarioBanner;
class SteeringPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// `engineBinary`: the syncscope-engine executable that local clusters run.
    explicit MainWindow(const QString& engineBinary, QWidget* parent = nullptr);
    ~MainWindow() override;

    void attach(const AttachSettings& settings);
    /// Starts a local cluster for `settings` (a scenario's: `plan`, built from them and adjusted) and
    /// attaches once its coordinator reports where it listens.
    void startLocalCluster(const LocalClusterSettings& settings);
    void startLocalCluster(const LocalClusterSettings& settings, const wire::RunPlan& plan);
    void detach();
    /// The start dialog: attach, or start a local cluster (preselected by `localCluster`).
    void openConnectDialog(bool localCluster);
    /// Tests: answer "stop the local cluster?" on close without asking (empty: ask).
    void setStopClusterAnswer(std::optional<bool> stop) { m_stopClusterAnswer = stop; }
    bool localClusterRunning() const;

    /// Detaches from any live engine and replays the recording at `path`; false (and a message in
    /// the status bar and log) when it cannot be read. A cut-off tail warns and still opens.
    bool openRecording(const QString& path);
    /// The same, read on a worker thread behind a progress dialog with Cancel (File → Open, --open).
    void openRecordingInBackground(const QString& path);
    /// The charts as they are drawn now, as PNG (.png) or SVG (.svg).
    bool exportCharts(const QString& path);

    /// Loads the scenario at `path` (a file, or :/scenarios/… for a shipped one), starts its local
    /// cluster and plays its schedule; false, with the reason in the status bar and log, if it cannot.
    bool openScenario(const QString& path);
    void runScenario(const Scenario& scenario);
    /// Large type for a projector; fine controls and the log hidden. Nothing of it is saved.
    void setPresentationView(bool on);
    bool presentationView() const { return m_presentation.active(); }
    /// Asks the coordinator to restore the checkpoint taken before change `changeId`.
    void rollBack(uint64_t changeId);

    /// Opens the comparison of runs (File → Compare runs…) with these recordings added.
    CompareWindow* compareRuns(const QStringList& recordings = {});
    /// Opens the experiment results window (File → Open experiment results…), on `folder` if given.
    ResultsWindow* openResults(const QString& folder = {});

    /// The window's parts, for the tests and benches that drive the console as a person would.
    struct Parts {
        ChartsPanel* charts;
        AdvisorBar* advisor;  ///< the advisor's open proposal, above the charts (hidden while there is none)
        SteeringPanel* steering;
        ReplayController* replay;
        ReplayBar* replayBar;
        ScenarioRunner* scenarioRunner;
        ScenarioBanner* scenarioBanner;
        QAction* presentation;  ///< View → Presentation
        QAction* rollback;      ///< Run → Roll back…
        QPlainTextEdit* log;
        const TelemetryStore* store;
    };
    Parts parts() const;
    /// The status bar's labels joined by " | ".
    QString statusText() const;
    static QString runStateName(wire::RunState state);

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void fitSteeringToWidth();
    bool showRecording(const QString& path, engine::Result<engine::Recording> read);
    void createMenus();
    void setReplayMode(bool replay);
    bool reportOutcome(const QString& error, const QString& done);  // true when `error` is empty
    void createDocks();
    void createViewMenu();
    void showScenarioProgress();
    void createStatusBar();
    void showLatestFrame();
    void showSecurity(const TelemetryFrame& frame);
    QString stopHintFor(const LocalClusterSettings& settings) const;
    void logEvents(const TelemetryFrame& frame);
    void appendLog(const QString& line);
    void reportError(const QString& message);
    void onCommandReplied(quint64 requestId, bool ok, const QString& error, const QByteArray& serializedEvent);
    void connectLocalCluster();
    /// Stops the local cluster without blocking; `then` runs once it has stopped.
    void stopLocalCluster(std::function<void()> then = {});

    QString m_engineBinary;
    TelemetryStore m_store;
    ConsoleConnection m_connection;
    FramePacer m_framePacer{[this] { showLatestFrame(); }};
    ReplayController m_replay;
    ScenarioRunner m_scenarioRunner;
    PresentationMode m_presentation;
    QAction* m_fullScreenAction = nullptr;
    ChartsPanel* m_charts;
    AdvisorBar* m_advisor;
    CompareWindow* m_compare = nullptr;
    ResultsWindow* m_results = nullptr;
    quint64 m_adviceRequest = 0;  // the answer in flight: a refusal lets the person answer again
    SteeringPanel* m_steering = nullptr;
    ReplayBar* m_replayBar = nullptr;
    LogPanel* m_logPanel = nullptr;
    ScenarioBanner* m_scenarioBanner = nullptr;
    QDockWidget *m_steeringDock = nullptr, *m_logDock = nullptr, *m_scenarioDock = nullptr;
    QAction* m_presentationAction = nullptr;
    QAction* m_rollbackAction = nullptr;
    QLabel* m_scenarioLabel = nullptr;
    QLabel* m_stopHint = nullptr;  // how the local cluster's run ends, and how to stop it
    QLabel* m_securityLabel = nullptr;  // shown for an unauthenticated run or a watch-only console
    QLabel *m_endpointLabel = nullptr, *m_stateLabel = nullptr, *m_modeLabel = nullptr, *m_versionLabel = nullptr,
           *m_accuracyLabel = nullptr;
    LocalClusterProcess* m_cluster;
    std::function<void()> m_afterClusterStopped;
    bool m_closingAfterStop = false;
    std::optional<bool> m_stopClusterAnswer;
    qsizetype m_loggedEvents = 0;
};

}  // namespace syncscope::ui
