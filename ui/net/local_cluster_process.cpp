// LocalClusterProcess (see local_cluster_process.h).
#include "ui/net/local_cluster_process.h"

#include <QSocketNotifier>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "engine/net/endpoints_line.h"
#include "engine/net/process_report.h"
#include "engine/plan/run_plan.h"

namespace syncscope::ui {
namespace {
constexpr int kStopPollMs = 50;

std::vector<std::string> toStd(const QStringList& list) {
    std::vector<std::string> out;
    for (const QString& s : list) out.push_back(s.toStdString());
    return out;
}
}  // namespace

LocalClusterProcess::LocalClusterProcess(QObject* parent) : QObject(parent) {
    m_stopTimer.setInterval(kStopPollMs);
    connect(&m_stopTimer, &QTimer::timeout, this, &LocalClusterProcess::checkStopped);
}

LocalClusterProcess::~LocalClusterProcess() {
    closePipe();
    closeReports();
    if (m_launcher) m_launcher->signalAll(SIGKILL);  // the destructor reaps them
}

bool LocalClusterProcess::start(const QString& engineBinary, wire::RunPlan plan, const QStringList& workerArguments) {
    if (running()) {
        emit failed(tr("A local cluster is already running; stop it first."));
        return false;
    }
    m_engine = engineBinary;
    m_workers = static_cast<int>(plan.layout().workers());
    m_workerArguments = workerArguments;
    m_launcher = std::make_unique<engine::ProcessLauncher>();
    m_haveEndpoints = false;
    auto credentials = engine::PrivateCredentials::create();  // the cluster's own keys, private to this user
    if (!credentials) {
        emit failed(tr("Cannot make the local cluster's credentials: %1").arg(QString::fromStdString(credentials.status().message())));
        return false;
    }
    m_credentials.emplace(std::move(*credentials));
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
    m_planFolder.reset();
    auto planFolder = engine::TemporaryFolder::create("syncscope-run-");
    const std::string planFile = planFolder ? planFolder->path() + "/run.plan" : std::string();
    const engine::Status written = planFolder ? engine::writeRunPlan(planFile, plan) : planFolder.status();
    if (!written) {
        emit failed(tr("Cannot write the local cluster's run plan: %1").arg(QString::fromStdString(written.message())));
        return false;
    }
    m_planFolder.emplace(std::move(*planFolder));
    m_buffer.clear();
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        emit failed(tr("Cannot start a local cluster: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
        return false;
    }
    int reports[2];
    if (pipe2(reports, O_CLOEXEC | O_NONBLOCK) != 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        emit failed(tr("Cannot start a local cluster: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
        return false;
    }
    engine::LaunchOptions options;
    options.stdoutFd = fds[1];
    options.reportFd = reports[1];
    const QStringList serve{QStringLiteral("serve"), QStringLiteral("--plan"), QString::fromStdString(planFile),
                            QStringLiteral("--data-port"), QStringLiteral("0"), QStringLiteral("--control-port"),
                            QStringLiteral("0"), QStringLiteral("--telemetry-port"), QStringLiteral("0"),
                            QStringLiteral("--report-fd"), QString::number(engine::kChildReportFd)};
    auto pid = m_launcher->start(engineBinary.toStdString(), toStd(serve + credentialArguments()), options);
    ::close(fds[1]);
    ::close(reports[1]);
    m_pipe = fds[0];
    m_reportPipe = reports[0];
    m_reports.emplace(m_reportPipe);
    if (!pid) {
        closePipe();
        closeReports();
        emit failed(tr("Cannot run %1: %2").arg(engineBinary, QString::fromStdString(pid.status().message())));
        return false;
    }
    m_notifier = new QSocketNotifier(m_pipe, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &LocalClusterProcess::readCoordinator);
    m_reportNotifier = new QSocketNotifier(m_reportPipe, QSocketNotifier::Read, this);
    connect(m_reportNotifier, &QSocketNotifier::activated, this, &LocalClusterProcess::readReports);
    return true;
}

void LocalClusterProcess::readCoordinator() {
    char chunk[4096];
    ssize_t n;
    while ((n = ::read(m_pipe, chunk, sizeof chunk)) > 0) m_buffer.append(chunk, n);
    const bool ended = n == 0;
    qsizetype end;
    while ((end = m_buffer.indexOf('\n')) >= 0) {  // lines for people: the log shows them
        emit output(QString::fromUtf8(m_buffer.left(end)).trimmed());
        m_buffer.remove(0, end + 1);
    }
    if (ended) closePipe();
}

void LocalClusterProcess::readReports() {
    while (auto report = m_reports->next()) {
        if (!report->has_listening() || m_haveEndpoints) continue;  // its result: the telemetry says it too
        m_haveEndpoints = true;
        const engine::CoordinatorEndpoints endpoints = engine::endpointsOf(report->listening());
        for (int i = 0; i < m_workers; ++i) {
            const QStringList args = QStringList{QStringLiteral("work"), QStringLiteral("--connect"),
                                                 QString::fromStdString(endpoints.data)} +
                                     m_workerArguments + credentialArguments();
            if (auto pid = m_launcher->start(m_engine.toStdString(), toStd(args)); !pid)
                emit failed(tr("Cannot start worker %1: %2").arg(i).arg(QString::fromStdString(pid.status().message())));
        }
        emit ready(QString::fromStdString(endpoints.control), QString::fromStdString(endpoints.telemetry),
                   QString::fromStdString(m_credentials->path()));
    }
    if (m_reports->closed() || !m_reports->error().empty()) {
        if (!m_haveEndpoints) emit failed(tr("The coordinator exited before it was ready (its error is in the terminal)"));
        closeReports();
    }
}

void LocalClusterProcess::closeReports() {
    delete m_reportNotifier;
    m_reportNotifier = nullptr;
    m_reports.reset();
    if (m_reportPipe >= 0) ::close(m_reportPipe);
    m_reportPipe = -1;
}

void LocalClusterProcess::closePipe() {
    delete m_notifier;
    m_notifier = nullptr;
    if (m_pipe >= 0) ::close(m_pipe);
    m_pipe = -1;
}

void LocalClusterProcess::stop(int graceMs) {
    if (!m_launcher) return;
    m_launcher->signalAll(SIGTERM);
    m_graceMs = graceMs;
    m_stopWaitedMs = 0;
    m_killed = false;
    m_stopTimer.start();  // stopped() always comes from the event loop, never from inside stop()
}

void LocalClusterProcess::checkStopped() {
    if (!m_launcher || m_launcher->reap() == 0) {
        m_stopTimer.stop();
        closePipe();
        closeReports();
        emit stopped();
        return;
    }
    m_stopWaitedMs += kStopPollMs;
    if (!m_killed && m_stopWaitedMs >= m_graceMs) {
        m_launcher->signalAll(SIGKILL);
        m_killed = true;
    }
}

void LocalClusterProcess::release() {
    if (m_launcher) m_launcher->release();
    if (m_credentials)  // a console attaches to the cluster again with these
        emit output(tr("The local cluster keeps running; attach again with --credentials %1")
                        .arg(QString::fromStdString(m_credentials->keep())));
    if (m_checkpoints)  // the run that goes on still checkpoints there
        emit output(tr("Its checkpoints stay in %1").arg(QString::fromStdString(m_checkpoints->keep())));
    closePipe();
    closeReports();
}

QStringList LocalClusterProcess::credentialArguments() const {
    return {QStringLiteral("--credentials"), QString::fromStdString(m_credentials->path()), QStringLiteral("--data-plane"),
            QString::fromLatin1(engine::kLocalDataPlane)};
}

bool LocalClusterProcess::running() const { return m_launcher && !m_launcher->children().empty(); }

QList<qint64> LocalClusterProcess::processIds() const {
    QList<qint64> ids;
    if (m_launcher)
        for (pid_t pid : m_launcher->children()) ids << qint64(pid);
    return ids;
}

}  // namespace syncscope::ui
