// Cluster (see cluster.h): fork/exec of the engine here, ssh sessions for the hosts' workers;
// children report where they listen on a pipe each.
#include "engine/launch/cluster.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "engine/launch/ssh_commands.h"
#include "engine/launch/worker_command.h"
#include "engine/plan/run_plan.h"

namespace syncscope::engine {
namespace {

constexpr std::chrono::seconds kReadyWait{60};  // a coordinator or relay loading its data before it listens

bool bindsEveryAddress(const std::string& bind) { return bind.empty() || bind == "0.0.0.0" || bind == "*" || bind == "::"; }

// A credentials file's bytes: written 0600 into `folder` (the cluster's own, 0700), read, removed.
Result<std::string> fileBytes(const Credentials& credentials, const std::string& folder) {
    const std::string path = folder + "/worker.credentials";
    if (Status s = credentials.save(path); !s) return s;
    std::ifstream file(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << file.rdbuf();
    std::filesystem::remove(path);
    if (bytes.str().empty()) return unavailable("cannot read back the worker credentials written to " + path);
    return bytes.str();
}

}  // namespace

Cluster::~Cluster() { stopAll(3.0); }

Status Cluster::secure() {
    auto made = PrivateCredentials::create();
    if (!made) return made.status();
    m_private.emplace(std::move(*made));
    m_credentials = m_private->credentials();
    m_credentialsPath = m_private->path();
    m_dataPlane = kLocalDataPlane;
    return Status::ok();
}

void Cluster::secureWith(Credentials credentials, const std::string& path, const std::string& dataPlane) {
    m_private.reset();
    m_credentials = std::move(credentials);
    m_credentialsPath = path;
    m_dataPlane = dataPlane;
}

std::vector<std::string> Cluster::securityArguments() const {
    if (!m_credentials) return {"--insecure"};
    return {"--credentials", m_credentialsPath, "--data-plane", m_dataPlane};
}

Status Cluster::launchCoordinator(const wire::RunPlan& plan, const ListenSettings& listen) {
    auto folder = TemporaryFolder::create("syncscope-run-");
    if (!folder) return folder.status();
    m_planFolder.emplace(std::move(*folder));
    m_plan = plan;
    m_listen = listen;
    const std::string planFile = m_planFolder->path() + "/run.plan";
    if (Status s = writeRunPlan(planFile, plan); !s) return s;
    // Whoever started the cluster says the result itself; where it listens and how the run ended
    // come as reports.
    int reportFd = -1;
    auto started = startReporting({"serve", "--plan", planFile, "--bind", listen.bind, "--data-port",
                                   std::to_string(listen.dataPort), "--control-port", std::to_string(listen.controlPort),
                                   "--telemetry-port", std::to_string(listen.telemetryPort)},
                                  &reportFd);
    if (reportFd >= 0) {
        m_reports.emplace(reportFd);
        m_reportFd = reportFd;
    }
    if (!started) return started.status();
    m_coordinator = *started;
    return Status::ok();
}

Result<bool> Cluster::checkListening() {
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

Status Cluster::startCoordinator(const wire::RunPlan& plan, const ListenSettings& listen) {
    if (Status s = launchCoordinator(plan, listen); !s) return s;
    const auto deadline = std::chrono::steady_clock::now() + kReadyWait;
    while (std::chrono::steady_clock::now() < deadline) {
        auto listening = checkListening();
        if (!listening) return listening.status();
        if (*listening) return Status::ok();
        pollfd p{m_reportFd, POLLIN, 0};
        ::poll(&p, 1, 200);
    }
    return unavailable("the coordinator did not report its endpoints within 60 s");
}

Status Cluster::startProcesses(const std::vector<std::string>& workerArgs) {
    if (m_endpoints.data.empty()) return unavailable("the coordinator does not listen yet: nothing to connect to");
    const wire::RunLayout& layout = m_plan.layout();
    for (unsigned i = 0; i < shardProcesses(layout); ++i) {  // the model's ranges, before the workers that pull them
        pid_t pid = -1;
        if (auto endpoint = startRelay("shard", &pid); !endpoint) return endpoint.status();
        m_shards.push_back(pid);
    }
    for (unsigned i = 0; i < layout.aggregators(); ++i)  // before the workers, which the coordinator deals to them
        if (auto endpoint = startRelay("aggregate"); !endpoint) return endpoint.status();
    if (layout.placement().kind() == wire::Placement::PLACE_HOSTS) return startHostWorkers(workerArgs);
    for (unsigned i = 0; i < layout.workers(); ++i) {
        auto pid = startWorker(workerArgs, i);
        if (!pid) return pid.status();
        m_workers.push_back({*pid, i});
    }
    if (!layout.evaluator_command().empty())
        if (auto pid = startEvaluator(); !pid) return pid.status();
    return Status::ok();
}

std::string Cluster::reachableHost() const {
    const wire::Placement& place = m_plan.layout().placement();
    if (!place.reachable_host().empty()) return place.reachable_host();
    if (!bindsEveryAddress(m_listen.bind)) return m_listen.bind;
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return name;
}

Status Cluster::startHostWorkers(const std::vector<std::string>& workerArgs) {
    const wire::Placement& place = m_plan.layout().placement();
    std::vector<HostEntry> hosts;
    for (const wire::HostWorkers& h : place.hosts()) hosts.push_back({h.host(), h.workers(), 0});
    m_hosts = std::make_unique<RemoteWorkers>(splitCommand(place.ssh_command().empty() ? "ssh" : place.ssh_command()),
                                              std::move(hosts));
    if (m_credentials) {  // each host gets the worker role's keys only
        auto bytes = fileBytes(m_credentials->forRole(Role::Worker), m_planFolder->path());
        if (!bytes) return bytes.status();
        if (Status s = m_hosts->copyCredentials(*bytes); !s) return s;
    }
    if (!m_plan.layout().worker_command().empty()) {  // the user's script on each host, told where the run is
        // The credentials are each host's copy (RemoteWorkers sets them); the data plane is the run's.
        WorkerPlace common = workerPlace(m_plan, onHost(m_endpoints.data, reachableHost()), "", "");
        if (m_credentials) common.dataPlane = m_dataPlane;
        return m_hosts->startCommand(m_plan.layout().worker_command(), common);
    }
    std::vector<std::string> command{place.remote_engine().empty() ? m_engine : place.remote_engine(), "work",
                                     "--connect", onHost(m_endpoints.data, reachableHost())};
    command.insert(command.end(), workerArgs.begin(), workerArgs.end());
    if (m_credentials) command.insert(command.end(), {"--data-plane", m_dataPlane});  // --credentials: each host's copy
    else command.push_back("--insecure");
    return m_hosts->start(command);
}

std::vector<RemoteWorkers::Failure> Cluster::pollHosts(std::chrono::milliseconds wait) {
    if (!m_hosts) return {};
    return m_hosts->poll(wait);
}

std::string Cluster::release() {
    m_launcher.release();
    if (m_planFolder) m_planFolder->keep();  // a restarted coordinator would read it again
    return m_private ? m_private->keep() : m_credentialsPath;
}

std::optional<wire::RunResult> Cluster::coordinatorResult(double waitSeconds) {
    if (!m_reports) return std::nullopt;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(waitSeconds);
    do {
        if (auto report = m_reports->next(waitSeconds > 0 ? 100 : 0); report && report->has_result()) return report->result();
    } while (!m_reports->closed() && m_reports->error().empty() && std::chrono::steady_clock::now() < deadline);
    return std::nullopt;
}

Result<pid_t> Cluster::startReporting(std::vector<std::string> args, int* reportFd) {
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

Result<std::vector<std::string>> Cluster::restartEndedShards() {
    std::vector<std::string> restarted;
    // Without checkpoints a lost shard's range cannot come back: the coordinator stops the run and says so.
    if (m_plan.checkpoints().folder().empty()) return restarted;
    int coordinatorExit = -1;
    if (!m_launcher.running(m_coordinator, &coordinatorExit)) return restarted;  // the run is over
    for (pid_t& pid : m_shards) {
        int exitCode = -1;
        if (m_launcher.running(pid, &exitCode) || exitCode == 0) continue;  // 0: it was told the run is over
        const pid_t ended = pid;
        auto endpoint = startRelay("shard", &pid);
        if (!endpoint) return endpoint.status();
        restarted.push_back(fmt::format("parameter shard (pid {}) ended with code {}; started another (pid {}) at {}",
                                        ended, exitCode, pid, *endpoint));
    }
    return restarted;
}

Result<std::string> Cluster::startRelay(const std::string& command, pid_t* pid) {
    int fd = -1;
    auto started = startReporting({command, "--connect", m_endpoints.data}, &fd);
    if (started && pid) *pid = *started;
    if (fd < 0) return started.status();
    ProcessReportReader reports(fd);
    const auto deadline = std::chrono::steady_clock::now() + kReadyWait;
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

Result<pid_t> Cluster::startWorker(const std::vector<std::string>& workerArgs, unsigned rank) {
    const wire::RunLayout& layout = m_plan.layout();
    if (!layout.worker_command().empty()) {  // the user's script: sh -c, told where the run is by its environment
        WorkerPlace place = workerPlace(m_plan, m_endpoints.data, m_credentials ? m_credentialsPath : "", m_dataPlane);
        place.rank = place.localRank = rank;
        LaunchOptions options;
        options.environment = workerCommandEnvironment(place);
        return m_launcher.start(kWorkerShell, {"-c", layout.worker_command()}, options);
    }
    std::vector<std::string> args{"work", "--connect", m_endpoints.data};
    args.insert(args.end(), workerArgs.begin(), workerArgs.end());
    const std::vector<std::string> security = securityArguments();
    args.insert(args.end(), security.begin(), security.end());
    return m_launcher.start(m_engine, args);
}

Result<pid_t> Cluster::startEvaluator() {
    const wire::RunLayout& layout = m_plan.layout();
    LaunchOptions options;
    options.environment = evaluatorCommandEnvironment(
        workerPlace(m_plan, m_endpoints.data, m_credentials ? m_credentialsPath : "", m_dataPlane));
    return m_launcher.start(kWorkerShell, {"-c", layout.evaluator_command()}, options);
}

std::vector<std::string> Cluster::endedWorkers(WorkerEnds* ends) {
    std::vector<std::string> lines;
    size_t ended = 0, failed = 0;
    for (StartedWorker& w : m_workers) {
        int exitCode = -1;
        if (!w.ended && !m_launcher.running(w.pid, &exitCode)) {
            w.ended = true;
            w.failed = exitCode != 0;
            if (w.failed)
                lines.push_back(fmt::format("worker process {} (pid {}) ended with code {}{}", w.rank, w.pid, exitCode,
                                            m_plan.layout().worker_command().empty()
                                                ? std::string()
                                                : ": its --worker-command's error is above"));
        }
        ended += w.ended ? 1 : 0;
        failed += w.failed ? 1 : 0;
    }
    ends->allEnded = !m_workers.empty() && ended == m_workers.size();
    ends->failed = failed;
    return lines;
}

bool Cluster::coordinatorRunning(int* exitCode) { return m_launcher.running(m_coordinator, exitCode); }

void Cluster::stopAll(double graceSeconds) {
    if (m_hosts) m_hosts->stop(graceSeconds);  // the hosts' workers end by themselves once told the run is over
    m_hosts.reset();
    m_launcher.stopAll(graceSeconds);
    m_reports.reset();
    if (m_reportFd >= 0) close(m_reportFd);
    m_reportFd = -1;
}

}  // namespace syncscope::engine
