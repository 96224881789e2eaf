// LocalCluster: fork/exec of this same binary, with the endpoint handshake over a pipe.
#include "engine/ps/local_cluster.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <sstream>
#include <thread>

namespace syncscope::engine {

std::string formatEndpointsLine(const CoordinatorEndpoints& e) {
    return "endpoints data=" + e.data + " control=" + e.control + " telemetry=" + e.telemetry;
}

Result<CoordinatorEndpoints> parseEndpointsLine(const std::string& line) {
    std::istringstream in(line);
    std::string word;
    CoordinatorEndpoints e;
    in >> word;
    if (word != "endpoints") return invalidArgument("not an endpoints line: " + line);
    while (in >> word) {
        const auto eq = word.find('=');
        if (eq == std::string::npos) continue;
        const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
        if (key == "data") e.data = value;
        else if (key == "control") e.control = value;
        else if (key == "telemetry") e.telemetry = value;
    }
    if (e.data.empty() || e.control.empty() || e.telemetry.empty())
        return invalidArgument("incomplete endpoints line: " + line);
    return e;
}

LocalCluster::~LocalCluster() { stopAll(3.0); }

pid_t LocalCluster::spawn(const std::vector<std::string>& args, int stdoutFd) {
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid != 0) return pid;
    // Child: own process group, killed if the parent dies, then become the engine binary.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);  // the parent died before prctl took hold
    if (stdoutFd >= 0) dup2(stdoutFd, STDOUT_FILENO);
    std::vector<char*> argv;
    std::string self = "/proc/self/exe";
    argv.push_back(self.data());
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv("/proc/self/exe", argv.data());
    std::fprintf(stderr, "cannot start %s: %s\n", args.empty() ? "?" : args[0].c_str(), std::strerror(errno));
    _exit(127);
}

Status LocalCluster::startCoordinator(const std::vector<std::string>& serveArgs) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return unavailable(std::string("pipe: ") + std::strerror(errno));
    std::vector<std::string> args{"serve"};
    args.insert(args.end(), serveArgs.begin(), serveArgs.end());
    m_coordinator = spawn(args, fds[1]);
    close(fds[1]);
    m_coordinatorStdout = fds[0];
    if (m_coordinator < 0) return unavailable(std::string("fork: ") + std::strerror(errno));
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (line.find('\n') == std::string::npos) {
        pollfd p{m_coordinatorStdout, POLLIN, 0};
        if (std::chrono::steady_clock::now() > deadline || poll(&p, 1, 200) < 0)
            return unavailable("the coordinator did not report its endpoints within 60 s");
        if (!(p.revents & (POLLIN | POLLHUP))) continue;
        char c;
        if (read(m_coordinatorStdout, &c, 1) != 1)
            return unavailable("the coordinator exited before it was ready (its error is above)");
        line += c;
    }
    auto endpoints = parseEndpointsLine(line.substr(0, line.size() - 1));
    if (!endpoints) return endpoints.status();
    m_endpoints = *endpoints;
    return Status::ok();
}

Result<pid_t> LocalCluster::startWorker(const std::vector<std::string>& workerArgs) {
    std::vector<std::string> args{"work", "--connect", m_endpoints.data};
    args.insert(args.end(), workerArgs.begin(), workerArgs.end());
    const pid_t pid = spawn(args, -1);
    if (pid < 0) return unavailable(std::string("fork: ") + std::strerror(errno));
    m_workers.push_back(pid);
    return pid;
}

bool LocalCluster::coordinatorRunning(int* exitCode) {
    if (m_coordinator > 0) {
        int status = 0;
        if (waitpid(m_coordinator, &status, WNOHANG) == m_coordinator) {
            m_coordinatorExit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            m_coordinator = -1;
        }
    }
    if (exitCode) *exitCode = m_coordinatorExit;
    return m_coordinator > 0;
}

std::string LocalCluster::coordinatorOutput() {
    std::string out;
    char buffer[4096];
    ssize_t n;
    while (m_coordinatorStdout >= 0 && (n = read(m_coordinatorStdout, buffer, sizeof buffer)) > 0) out.append(buffer, n);
    return out;
}

void LocalCluster::stopAll(double graceSeconds) {
    std::vector<pid_t> alive;
    if (m_coordinator > 0) alive.push_back(m_coordinator);
    alive.insert(alive.end(), m_workers.begin(), m_workers.end());
    for (pid_t pid : alive) kill(pid, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(graceSeconds);
    while (!alive.empty()) {
        std::erase_if(alive, [](pid_t pid) { return waitpid(pid, nullptr, WNOHANG) != 0; });
        if (alive.empty()) break;
        if (std::chrono::steady_clock::now() > deadline) {
            for (pid_t pid : alive) kill(pid, SIGKILL);
            for (pid_t pid : alive) waitpid(pid, nullptr, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    m_coordinator = -1;
    m_workers.clear();
    if (m_coordinatorStdout >= 0) close(m_coordinatorStdout);
    m_coordinatorStdout = -1;
}

}  // namespace syncscope::engine
