// LocalCluster: fork/exec of this same binary, with the endpoint handshake over a pipe.
#include "engine/ps/local_cluster.h"
#include "engine/ps/aggregator.h"
#include "engine/ps/parameter_shard.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

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

Result<std::string> LocalCluster::startAndReadLine(const std::vector<std::string>& args, const std::string& what,
                                                   pid_t* pid, int* stdoutFd) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return unavailable(std::string("pipe: ") + std::strerror(errno));
    std::vector<std::string> all = args;
    const std::vector<std::string> security = securityArguments();
    all.insert(all.end(), security.begin(), security.end());
    LaunchOptions options;
    options.stdoutFd = fds[1];
    auto started = m_launcher.start(m_engine, all, options);
    close(fds[1]);
    *stdoutFd = fds[0];
    if (!started) return started.status();
    *pid = *started;
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (line.find('\n') == std::string::npos) {
        pollfd p{*stdoutFd, POLLIN, 0};
        if (std::chrono::steady_clock::now() > deadline || poll(&p, 1, 200) < 0)
            return unavailable("the " + what + " did not report its endpoints within 60 s");
        if (!(p.revents & (POLLIN | POLLHUP))) continue;
        char c;
        if (read(*stdoutFd, &c, 1) != 1) return unavailable("the " + what + " exited before it was ready (its error is above)");
        line += c;
    }
    return line.substr(0, line.size() - 1);
}

Status LocalCluster::startCoordinator(const wire::RunPlan& plan) {
    auto folder = TemporaryFolder::create("syncscope-run-");
    if (!folder) return folder.status();
    m_planFolder.emplace(std::move(*folder));
    const std::string planFile = m_planFolder->path() + "/run.plan";
    if (Status s = writeRunPlan(planFile, plan); !s) return s;
    const std::vector<std::string> args{"serve", "--plan", planFile, "--data-port", "0", "--control-port", "0",
                                        "--telemetry-port", "0"};
    auto line = startAndReadLine(args, "coordinator", &m_coordinator, &m_coordinatorStdout);
    if (!line) return line.status();
    auto endpoints = parseEndpointsLine(*line);
    if (!endpoints) return endpoints.status();
    m_endpoints = *endpoints;
    return Status::ok();
}

Result<std::string> LocalCluster::startRelay(const std::string& command, const std::string& prefix) {
    pid_t pid = -1;
    int fd = -1;
    auto line = startAndReadLine({command, "--connect", m_endpoints.data}, command, &pid, &fd);
    if (fd >= 0) m_relayStdouts.push_back(fd);
    if (!line) return line.status();
    if (line->rfind(prefix, 0) != 0) return unavailable("`" + command + "` printed \"" + *line + "\" instead of its endpoint");
    return line->substr(prefix.size());
}

Result<std::string> LocalCluster::startAggregator() { return startRelay("aggregate", kAggregatorLinePrefix); }

Result<std::string> LocalCluster::startShard() { return startRelay("shard", kShardLinePrefix); }

Result<pid_t> LocalCluster::startWorker(const std::vector<std::string>& workerArgs) {
    std::vector<std::string> args{"work", "--connect", m_endpoints.data};
    args.insert(args.end(), workerArgs.begin(), workerArgs.end());
    const std::vector<std::string> security = securityArguments();
    args.insert(args.end(), security.begin(), security.end());
    return m_launcher.start(m_engine, args);
}

bool LocalCluster::coordinatorRunning(int* exitCode) { return m_launcher.running(m_coordinator, exitCode); }

std::string LocalCluster::coordinatorOutput() {
    std::string out;
    char buffer[4096];
    ssize_t n;
    while (m_coordinatorStdout >= 0 && (n = read(m_coordinatorStdout, buffer, sizeof buffer)) > 0) out.append(buffer, n);
    return out;
}

void LocalCluster::stopAll(double graceSeconds) {
    m_launcher.stopAll(graceSeconds);
    if (m_coordinatorStdout >= 0) close(m_coordinatorStdout);
    m_coordinatorStdout = -1;
    for (int fd : m_relayStdouts) close(fd);
    m_relayStdouts.clear();
}

}  // namespace syncscope::engine
