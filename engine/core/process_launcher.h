// ProcessLauncher: the one way SyncScope starts its own processes (a local cluster's coordinator and
// workers, the experiment's runs, the console's cluster). Each child may sit in its own process
// group (a Ctrl-C on the terminal reaches only the parent, which then stops its children cleanly),
// is killed by the kernel when the parent dies (PR_SET_PDEATHSIG: no orphan keeps training), and
// is stopped with SIGTERM, then SIGKILL after a grace period. Between fork and exec the child makes
// only async-signal-safe calls, so a multithreaded parent (the Qt console) may use it.
#pragma once

#include <sys/types.h>

#include <csignal>
#include <string>
#include <vector>

#include "engine/core/status.h"

namespace syncscope::engine {

/// The descriptor a child gets LaunchOptions::reportFd as (after stdin, stdout and stderr).
inline constexpr int kChildReportFd = 3;

struct LaunchOptions {
    int stdinFd = -1, stdoutFd = -1, stderrFd = -1;  ///< -1: inherited
    int reportFd = -1;                 ///< given to the child as kChildReportFd (its reports to this process)
    int deathSignal = SIGKILL;         ///< what the kernel sends the child when this process dies
    bool ownProcessGroup = true;       ///< false: Ctrl-C reaches the child too
    /// "NAME=value" entries added to the child's environment (replacing this process's NAME).
    std::vector<std::string> environment;
};

class ProcessLauncher {
public:
    ProcessLauncher() = default;
    ~ProcessLauncher();  ///< stops whatever still runs (3 s grace)
    ProcessLauncher(const ProcessLauncher&) = delete;
    ProcessLauncher& operator=(const ProcessLauncher&) = delete;

    /// Starts `program` with `args` (argv[0] is the program); the error says why it could not.
    Result<pid_t> start(const std::string& program, const std::vector<std::string>& args,
                        const LaunchOptions& options = {});
    /// Whether `pid` still runs; once it has exited, its exit code (128 + signal when killed).
    bool running(pid_t pid, int* exitCode = nullptr);
    /// Sends `signal` to every child still running; returns at once.
    void signalAll(int signal);
    /// Collects the children that have exited; returns how many still run. Never blocks.
    size_t reap();
    /// SIGTERM to all, up to `graceSeconds` for them to exit, then SIGKILL. Blocks.
    void stopAll(double graceSeconds);
    /// Lets every child outlive this process (kOutliveParentSignal, see process_signals.h) and
    /// forgets them: they are no longer stopped by stopAll() or the destructor.
    void release();
    /// The children still running.
    std::vector<pid_t> children() const;

private:
    struct Child {
        pid_t pid;
        int exitCode;  ///< -1 while it runs
    };
    std::vector<Child> m_children;
};

/// This program's own executable (so a process can start another of itself).
std::string selfExecutable();

}  // namespace syncscope::engine
