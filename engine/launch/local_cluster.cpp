// LocalCluster: fork/exec of this same binary; children report where they listen on a pipe each.
#include "engine/launch/local_cluster.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "engine/plan/run_plan.h"

namespace syncscope::engine {

LocalCluster::~LocalCluster() { stopAll(3.0); }

Status LocalCluster::secure() {
    auto credentials = PrivateCredentials::create();
    if (!credentials) return credentials.status();
    m_credentials.emplace(std::move(*credentials));
    return Status::ok();
}

std::vector<std::string> LocalCluster::securityArguments() const {
    if (!m_credentials) return {"--insecure"};
    return {"--credentials", m_credentials->path(), "--data-plane", kLocalDataPlane};
}

Status LocalCluster::launchCoordinator(const wire::RunPlan& plan) {
    auto folder = TemporaryFolder::create("syncscope-run-");
    if (!folder) return folder.status();
    m_planFolder.emplace(std::move(*folder));
    const std::string planFile = m_planFolder->path() + "/run.plan";
    if (Status s = writeRunPlan(planFile, plan); !s) return s;
    // `run` says the result itself; where it listens and how the run ended come as reports.
    int reportFd = -1;
    auto started = startReporting({"serve", "--plan", planFile, "--data-port", "0", "--control-port", "0",
                                   "--telemetry-port", "0"},
                                  &reportFd);
    if (reportFd >= 0) {
        m_reports.emplace(reportFd);
        m_reportFd = reportFd;
    }
    if (!started) return started.status();
    m_coordinator = *started;
    return Status::ok();
}

Result<bool> LocalCluster::checkListening() {
    if (!m_reports) return unavailable("no coordinator was started");
    while (auto report = m_reports->next())
        if (report->has_listening()) {
            m_endpoints = endpointsOf(report->listening());
            return true;
        }
    if (m_reports->closed() || !m_reports->error().empty())
        return unavailable("the coordinator exited before it was ready (its error is above)" +
                           (m_reports->error().empty() ? std::string() : ": " + m_reports->error()));
    return false;
}

Status LocalCluster::startCoordinator(const wire::RunPlan& plan) {
    if (Status s = launchCoordinator(plan); !s) return s;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
        auto listening = checkListening();
        if (!listening) return listening.status();
        if (*listening) return Status::ok();
        pollfd p{m_reportFd, POLLIN, 0};
        ::poll(&p, 1, 200);
    }
    return unavailable("the coordinator did not report its endpoints within 60 s");
}

std::string LocalCluster::release() {
    m_launcher.release();
    if (m_planFolder) m_planFolder->keep();  // a restarted coordinator would read it again
    return m_credentials ? m_credentials->keep() : std::string();
}

std::optional<wire::RunResult> LocalCluster::coordinatorResult(double waitSeconds) {
    if (!m_reports) return std::nullopt;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(waitSeconds);
    do {
        if (auto report = m_reports->next(waitSeconds > 0 ? 100 : 0); report && report->has_result()) return report->result();
    } while (!m_reports->closed() && m_reports->error().empty() && std::chrono::steady_clock::now() < deadline);
    return std::nullopt;
}

Result<pid_t> LocalCluster::startReporting(std::vector<std::string> args, int* reportFd) {
    args.insert(args.end(), {"--report-fd", std::to_string(kChildReportFd)});
    const std::vector<std::string> security = securityArguments();
    args.insert(args.end(), security.begin(), security.end());
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return unavailable(std::string("pipe: ") + std::strerror(errno));
    const int devNull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);  // its stdout is for people
    LaunchOptions options;
    options.stdoutFd = devNull;
    options.reportFd = fds[1];
    auto started = m_launcher.start(m_engine, args, options);
    close(fds[1]);
    if (devNull >= 0) close(devNull);
    *reportFd = fds[0];
    return started;
}

Result<std::string> LocalCluster::startRelay(const std::string& command) {
    int fd = -1;
    auto started = startReporting({command, "--connect", m_endpoints.data}, &fd);
    if (fd < 0) return started.status();
    ProcessReportReader reports(fd);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    Result<std::string> endpoint = unavailable("the " + command + " did not report its endpoint within 60 s");
    while (started && std::chrono::steady_clock::now() < deadline) {
        if (auto report = reports.next(200); report && !report->relay_endpoint().empty()) {
            endpoint = report->relay_endpoint();
            break;
        }
        if (reports.closed() || !reports.error().empty()) {
            endpoint = unavailable("the " + command + " exited before it was ready (its error is above)" +
                                   (reports.error().empty() ? std::string() : ": " + reports.error()));
            break;
        }
    }
    close(fd);
    if (!started) return started.status();
    return endpoint;
}

Result<std::string> LocalCluster::startAggregator() { return startRelay("aggregate"); }

Result<std::string> LocalCluster::startShard() { return startRelay("shard"); }

Result<pid_t> LocalCluster::startWorker(const std::vector<std::string>& workerArgs) {
    std::vector<std::string> args{"work", "--connect", m_endpoints.data};
    args.insert(args.end(), workerArgs.begin(), workerArgs.end());
    const std::vector<std::string> security = securityArguments();
    args.insert(args.end(), security.begin(), security.end());
    return m_launcher.start(m_engine, args);
}

bool LocalCluster::coordinatorRunning(int* exitCode) { return m_launcher.running(m_coordinator, exitCode); }

void LocalCluster::stopAll(double graceSeconds) {
    m_launcher.stopAll(graceSeconds);
    m_reports.reset();
    if (m_reportFd >= 0) close(m_reportFd);
    m_reportFd = -1;
}

}  // namespace syncscope::engine
