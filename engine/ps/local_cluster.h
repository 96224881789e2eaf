// LocalCluster: a coordinator and N workers as child processes of this one (`syncscope-engine
// run`). Children sit in their own process group (Ctrl-C reaches only the parent, which stops the
// run cleanly), die with the parent (PR_SET_PDEATHSIG), and are killed if they outstay a stop.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "engine/core/status.h"
#include "engine/ps/coordinator.h"

namespace syncscope::engine {

class LocalCluster {
public:
    LocalCluster() = default;
    ~LocalCluster();  ///< stops whatever still runs
    LocalCluster(const LocalCluster&) = delete;
    LocalCluster& operator=(const LocalCluster&) = delete;

    /// Starts `syncscope-engine serve <serveArgs>` and reads the endpoints it bound.
    Status startCoordinator(const std::vector<std::string>& serveArgs);
    /// Starts one `syncscope-engine work --connect <data endpoint> <workerArgs>`; returns its pid.
    Result<pid_t> startWorker(const std::vector<std::string>& workerArgs);

    const CoordinatorEndpoints& endpoints() const { return m_endpoints; }
    /// Whether the coordinator process is still running; once it has exited, its exit code.
    bool coordinatorRunning(int* exitCode = nullptr);
    /// What the coordinator printed on stdout after its endpoint line (its final report).
    std::string coordinatorOutput();
    /// Sends SIGTERM to every child, waits up to graceSeconds, then SIGKILL.
    void stopAll(double graceSeconds);

private:
    pid_t spawn(const std::vector<std::string>& args, int stdoutFd);

    pid_t m_coordinator = -1;
    int m_coordinatorStdout = -1;
    int m_coordinatorExit = -1;
    std::vector<pid_t> m_workers;
    CoordinatorEndpoints m_endpoints;
};

/// Parses the coordinator's first stdout line: "endpoints data=... control=... telemetry=...".
Result<CoordinatorEndpoints> parseEndpointsLine(const std::string& line);
std::string formatEndpointsLine(const CoordinatorEndpoints& endpoints);

}  // namespace syncscope::engine
