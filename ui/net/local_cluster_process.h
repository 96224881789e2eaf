// LocalClusterProcess: the local cluster the console starts (a coordinator and its workers) through
// the engine's ProcessLauncher, so the processes die with the console even when it is killed. The
// coordinator's first line (its endpoints) is read through a socket notifier, and stopping signals
// and polls on a timer: nothing here ever blocks the GUI thread.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <optional>

#include "engine/core/process_launcher.h"
#include "engine/core/temporary_folder.h"
#include "engine/net/credentials.h"
#include "engine/net/process_report.h"
#include "engine/proto/syncscope.pb.h"

class QSocketNotifier;

namespace syncscope::ui {

class LocalClusterProcess : public QObject {
    Q_OBJECT
public:
    explicit LocalClusterProcess(QObject* parent = nullptr);
    ~LocalClusterProcess() override;  ///< kills what still runs (the console is going away)

    /// Starts `engine serve --plan FILE` (FILE: `plan`, a validated one, in a folder of its own; with
    /// checkpoints in another unless the plan names a folder); once it reports its endpoints, the
    /// plan's workers as `engine work --connect DATA <workerArguments>`, then ready(). Errors come as
    /// failed().
    bool start(const QString& engineBinary, wire::RunPlan plan, const QStringList& workerArguments);
    /// SIGTERM to all, SIGKILL after `graceMs`; stopped() when none runs. Returns at once.
    void stop(int graceMs = 3000);
    /// Lets the processes outlive the console (a person chose to keep the run going).
    void release();
    bool running() const;
    /// Process ids still running (for tests and the status bar).
    QList<qint64> processIds() const;

signals:
    /// The cluster listens; `credentials` is its private credentials file (steer keys and all).
    void ready(const QString& controlEndpoint, const QString& telemetryEndpoint, const QString& credentials);
    /// A line the coordinator printed after its endpoints (its final report).
    void output(const QString& line);
    void failed(const QString& reason);
    void stopped();

private:
    void readCoordinator();
    void readReports();
    void checkStopped();
    void closePipe();
    void closeReports();

    QString m_engine;
    QStringList m_workerArguments;
    int m_workers = 0;
    std::unique_ptr<engine::ProcessLauncher> m_launcher;
    std::optional<engine::PrivateCredentials> m_credentials;  ///< made per cluster, removed with it
    /// The coordinator's checkpoints (what "roll back" restores), unless the arguments name a folder.
    std::optional<engine::TemporaryFolder> m_checkpoints;
    std::optional<engine::TemporaryFolder> m_planFolder;  ///< the coordinator's plan file (serve --plan)
    QStringList credentialArguments() const;
    int m_pipe = -1;  ///< the coordinator's stdout: lines for the log
    QSocketNotifier* m_notifier = nullptr;
    int m_reportPipe = -1;  ///< its reports (serve --report-fd): where it listens
    QSocketNotifier* m_reportNotifier = nullptr;
    std::optional<engine::ProcessReportReader> m_reports;
    QByteArray m_buffer;
    bool m_haveEndpoints = false;
    QTimer m_stopTimer;
    int m_stopWaitedMs = 0, m_graceMs = 0;
    bool m_killed = false;
};

}  // namespace syncscope::ui
