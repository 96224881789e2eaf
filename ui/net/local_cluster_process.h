// LocalClusterProcess: the console's thin Qt adapter over the engine's Cluster (engine/launch): the
// same orchestrator `run` and `launch --hosts` use starts the coordinator from a run plan and its workers through
// the ProcessLauncher, so the processes die with the console even when it is killed. The
// coordinator's reports are read through a socket notifier, and stopping signals and polls on a
// timer: nothing here ever blocks the GUI thread.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <optional>

#include "engine/core/temporary_folder.h"
#include "engine/launch/cluster.h"
#include "engine/proto/syncscope.pb.h"

class QSocketNotifier;

namespace syncscope::ui {

class LocalClusterProcess : public QObject {
    Q_OBJECT
public:
    explicit LocalClusterProcess(QObject* parent = nullptr);
    ~LocalClusterProcess() override;  ///< kills what still runs (the console is going away)

    /// Starts the coordinator for `plan` (a validated one; with checkpoints in a folder of its own
    /// unless the plan names one); once it listens, the plan's workers with `workerArguments`, then
    /// ready(). Errors come as failed(). Relays and hosts are refused: the cluster would wait for
    /// them to listen, and the GUI thread never waits (`run` and `launch` start them).
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
    /// A line for the log: how the run ended, where a released cluster's files stay.
    void output(const QString& line);
    void failed(const QString& reason);
    void stopped();

private:
    void readReports();
    void checkStopped();
    void stopReading();

    std::unique_ptr<engine::Cluster> m_cluster;
    QStringList m_workerArguments;
    /// The coordinator's checkpoints (what "roll back" restores), unless the plan names a folder.
    std::optional<engine::TemporaryFolder> m_checkpoints;
    QSocketNotifier* m_reportNotifier = nullptr;
    bool m_haveEndpoints = false;
    QTimer m_stopTimer;
    int m_stopWaitedMs = 0, m_graceMs = 0;
    bool m_killed = false;
};

}  // namespace syncscope::ui
