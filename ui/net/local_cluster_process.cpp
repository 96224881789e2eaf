// LocalClusterProcess (see local_cluster_process.h).
#include "ui/net/local_cluster_process.h"

#include <QLocale>
#include <QSocketNotifier>

#include <csignal>

namespace syncscope::ui {
namespace {
constexpr int kStopPollMs = 50;
}  // namespace

LocalClusterProcess::LocalClusterProcess(QObject* parent) : QObject(parent) {
    m_stopTimer.setInterval(kStopPollMs);
    connect(&m_stopTimer, &QTimer::timeout, this, &LocalClusterProcess::checkStopped);
}

LocalClusterProcess::~LocalClusterProcess() {
    stopReading();
    if (m_cluster) m_cluster->signalAll(SIGKILL);  // its destructor reaps them
}

bool LocalClusterProcess::start(const QString& engineBinary, wire::RunPlan plan, const QStringList& workerArguments) {
    if (running()) {
        emit failed(tr("A local cluster is already running; stop it first."));
        return false;
    }
    const wire::RunLayout& layout = plan.layout();
    if (layout.shards() || layout.aggregators() || layout.placement().kind() != wire::Placement::PLACE_LOCAL) {
        emit failed(tr("The console starts a coordinator and its workers on this machine; start a cluster with "
                       "shards, aggregators or other hosts with syncscope-engine run or launch, and attach to it."));
        return false;
    }
    stopReading();
    m_workerArguments = workerArguments;
    m_haveEndpoints = false;
    m_cluster = std::make_unique<engine::Cluster>(engineBinary.toStdString());
    if (const engine::Status s = m_cluster->secure(); !s) {  // the cluster's own keys, private to this user
        emit failed(tr("Cannot make the local cluster's credentials: %1").arg(QString::fromStdString(s.message())));
        return false;
    }
    m_checkpoints.reset();
    if (plan.checkpoints().folder().empty()) {
        // Rollback restores the checkpoint taken before a change, so a console's cluster keeps them.
        auto folder = engine::TemporaryFolder::create("syncscope-checkpoints-");
        if (!folder) {
            emit failed(tr("Cannot make the local cluster's checkpoint folder: %1").arg(QString::fromStdString(folder.status().message())));
            return false;
        }
        m_checkpoints.emplace(std::move(*folder));
        plan.mutable_checkpoints()->set_folder(m_checkpoints->path());
    }
    if (const engine::Status s = m_cluster->launchCoordinator(plan); !s) {
        emit failed(tr("Cannot start a local cluster: %1").arg(QString::fromStdString(s.message())));
        return false;
    }
    m_reportNotifier = new QSocketNotifier(m_cluster->coordinatorReportFd(), QSocketNotifier::Read, this);
    connect(m_reportNotifier, &QSocketNotifier::activated, this, &LocalClusterProcess::readReports);
    return true;
}

void LocalClusterProcess::readReports() {
    if (!m_haveEndpoints) {
        const auto listening = m_cluster->checkListening();
        if (!listening) {
            emit failed(tr("The coordinator exited before it was ready (its error is in the terminal)"));
            stopReading();
            return;
        }
        if (!*listening) return;
        m_haveEndpoints = true;
        std::vector<std::string> args;
        for (const QString& a : m_workerArguments) args.push_back(a.toStdString());
        if (const engine::Status s = m_cluster->startProcesses(args); !s)
            emit failed(tr("Cannot start the workers: %1").arg(QString::fromStdString(s.message())));
        const engine::CoordinatorEndpoints& endpoints = m_cluster->endpoints();
        emit ready(QString::fromStdString(endpoints.control), QString::fromStdString(endpoints.telemetry),
                   QString::fromStdString(m_cluster->credentialsPath()));
        return;
    }
    // Later reports: how the run ended (the pipe closes with the coordinator).
    if (const auto result = m_cluster->coordinatorResult(0)) {
        if (result->evaluated())
            emit output(tr("Final test accuracy %1% at model version %2")
                            .arg(QLocale().toString(100.0 * result->test_accuracy(), 'f', 2))
                            .arg(result->model_version()));
        else if (!result->failure().empty())
            emit output(tr("The run could not go on: %1").arg(QString::fromStdString(result->failure())));
    }
    if (!m_cluster->coordinatorRunning()) stopReading();
}

void LocalClusterProcess::stopReading() {
    delete m_reportNotifier;
    m_reportNotifier = nullptr;
}

void LocalClusterProcess::stop(int graceMs) {
    if (!m_cluster) return;
    m_cluster->signalAll(SIGTERM);
    m_graceMs = graceMs;
    m_stopWaitedMs = 0;
    m_killed = false;
    m_stopTimer.start();  // stopped() always comes from the event loop, never from inside stop()
}

void LocalClusterProcess::checkStopped() {
    if (!m_cluster || m_cluster->reap() == 0) {
        m_stopTimer.stop();
        stopReading();
        emit stopped();
        return;
    }
    m_stopWaitedMs += kStopPollMs;
    if (!m_killed && m_stopWaitedMs >= m_graceMs) {
        m_cluster->signalAll(SIGKILL);
        m_killed = true;
    }
}

void LocalClusterProcess::release() {
    stopReading();
    if (!m_cluster) return;
    const std::string credentials = m_cluster->release();
    if (!credentials.empty())  // a console attaches to the cluster again with these
        emit output(tr("The local cluster keeps running; attach again with --credentials %1")
                        .arg(QString::fromStdString(credentials)));
    if (m_checkpoints)  // the run that goes on still checkpoints there
        emit output(tr("Its checkpoints stay in %1").arg(QString::fromStdString(m_checkpoints->keep())));
}

bool LocalClusterProcess::running() const { return m_cluster && !m_cluster->processes().empty(); }

QList<qint64> LocalClusterProcess::processIds() const {
    QList<qint64> ids;
    if (m_cluster)
        for (pid_t pid : m_cluster->processes()) ids << qint64(pid);
    return ids;
}

}  // namespace syncscope::ui
