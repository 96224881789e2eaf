// ProcessLauncher (see process_launcher.h).
#include "engine/core/process_launcher.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string_view>
#include <thread>

#include "engine/core/process_signals.h"

namespace syncscope::engine {
namespace {

int exitCodeOf(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

// After fork, in a possibly multithreaded parent: async-signal-safe calls only, no allocation.
[[noreturn]] void becomeChild(pid_t parent, const char* program, char* const* argv, char* const* envp,
                              const LaunchOptions& options) {
    if (options.ownProcessGroup) setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, options.deathSignal);
    if (getppid() != parent) _exit(1);  // the parent died before prctl took hold
    if (options.stdinFd >= 0) dup2(options.stdinFd, STDIN_FILENO);
    if (options.stdoutFd >= 0) dup2(options.stdoutFd, STDOUT_FILENO);
    if (options.stderrFd >= 0) dup2(options.stderrFd, STDERR_FILENO);
    if (options.reportFd == kChildReportFd) fcntl(kChildReportFd, F_SETFD, 0);  // dup2 onto itself keeps CLOEXEC
    else if (options.reportFd >= 0) dup2(options.reportFd, kChildReportFd);
    execve(program, argv, envp);
    const char message[] = "syncscope: cannot start a child process (exec failed)\n";
    (void)!write(STDERR_FILENO, message, sizeof message - 1);
    _exit(127);
}

}  // namespace

std::string selfExecutable() {
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) return "/proc/self/exe";
    std::string self(path, size_t(n));
    const std::string deleted = " (deleted)";  // rebuilt while running
    if (self.size() > deleted.size() && self.compare(self.size() - deleted.size(), deleted.size(), deleted) == 0)
        self.resize(self.size() - deleted.size());
    return self;
}

ProcessLauncher::~ProcessLauncher() { stopAll(3.0); }

Result<pid_t> ProcessLauncher::start(const std::string& program, const std::vector<std::string>& args,
                                     const LaunchOptions& options) {
    if (access(program.c_str(), X_OK) != 0)
        return unavailable("cannot start '" + program + "': " + std::strerror(errno));
    std::vector<char*> argv{const_cast<char*>(program.c_str())};  // built before fork: the child allocates nothing
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // This process's environment less the names `options` sets, then those.
    std::vector<char*> envp;
    for (char** entry = environ; *entry; ++entry) {
        const std::string_view current(*entry);
        const bool replaced = std::any_of(options.environment.begin(), options.environment.end(), [&](const std::string& e) {
            const size_t name = e.find('=');
            return name != std::string::npos && current.size() > name && current.compare(0, name + 1, e, 0, name + 1) == 0;
        });
        if (!replaced) envp.push_back(*entry);
    }
    for (const std::string& e : options.environment) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0) becomeChild(parent, program.c_str(), argv.data(), envp.data(), options);
    if (pid < 0) return unavailable(std::string("cannot start a process: fork failed: ") + std::strerror(errno));
    m_children.push_back({pid, -1});
    return pid;
}

bool ProcessLauncher::running(pid_t pid, int* exitCode) {
    reap();
    for (const Child& c : m_children)
        if (c.pid == pid) {
            if (exitCode) *exitCode = c.exitCode;
            return c.exitCode < 0;
        }
    if (exitCode) *exitCode = -1;
    return false;
}

void ProcessLauncher::signalAll(int signal) {
    for (const Child& c : m_children)
        if (c.exitCode < 0) kill(c.pid, signal);
}

size_t ProcessLauncher::reap() {
    size_t alive = 0;
    for (Child& c : m_children) {
        if (c.exitCode >= 0) continue;
        int status = 0;
        const pid_t r = waitpid(c.pid, &status, WNOHANG);
        if (r == c.pid) c.exitCode = exitCodeOf(status);
        else if (r < 0 && errno == ECHILD) c.exitCode = 0;  // reaped elsewhere
        else ++alive;
    }
    return alive;
}

void ProcessLauncher::stopAll(double graceSeconds) {
    signalAll(SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(graceSeconds);
    while (reap() > 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            signalAll(SIGKILL);
            for (Child& c : m_children)
                if (c.exitCode < 0) {
                    int status = 0;
                    if (waitpid(c.pid, &status, 0) == c.pid) c.exitCode = exitCodeOf(status);
                }
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

void ProcessLauncher::release() {
    signalAll(kOutliveParentSignal);
    m_children.clear();
}

std::vector<pid_t> ProcessLauncher::children() const {
    std::vector<pid_t> pids;
    for (const Child& c : m_children)
        if (c.exitCode < 0) pids.push_back(c.pid);
    return pids;
}

}  // namespace syncscope::engine
