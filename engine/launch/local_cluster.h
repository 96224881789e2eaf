// LocalCluster: a coordinator and N workers as child processes of this one (`syncscope-engine
// run`), started through the ProcessLauncher (own process group, killed with the parent, SIGTERM
// then SIGKILL on stop). The coordinator gets its run as a plan file and reports where it listens
// and how its run ended on a pipe (ProcessReports); aggregators and shards report where they listen
// the same way.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "engine/core/process_launcher.h"
#include "engine/core/temporary_folder.h"
#include "engine/core/status.h"
#include "engine/net/credentials.h"
#include "engine/net/process_report.h"
#include "engine/net/endpoints_line.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

class LocalCluster {
public:
    /// `engineBinary`: the syncscope-engine to start (default: this program itself).
    explicit LocalCluster(std::string engineBinary = selfExecutable()) : m_engine(std::move(engineBinary)) {}

    /// Makes the cluster's own private credentials (call before starting anything): serve and every
    /// worker get them, and clients take theirs from credentials().
    Status secure();
    /// The cluster's credentials; null when secure() was not called.
    const Credentials* credentials() const { return m_credentials ? &m_credentials->credentials() : nullptr; }
    /// Their file (0600), for clients that attach; empty without secure().
    std::string credentialsPath() const { return m_credentials ? m_credentials->path() : std::string(); }
    ~LocalCluster();  ///< stops whatever still runs
    LocalCluster(const LocalCluster&) = delete;
    LocalCluster& operator=(const LocalCluster&) = delete;

    /// Starts `syncscope-engine serve --plan FILE --report-fd` on any free ports, FILE holding `plan`
    /// in a folder of this cluster's own (0700), and returns at once: coordinatorReportFd() becomes
    /// readable as the coordinator reports.
    Status launchCoordinator(const wire::RunPlan& plan);
    /// Reads what the coordinator reported so far, without blocking: true once it listens
    /// (endpoints() then says where); an error when it ended before that.
    Result<bool> checkListening();
    /// The pipe of the coordinator's reports (for a caller that waits on descriptors); -1 before launch.
    int coordinatorReportFd() const { return m_reportFd; }
    /// launchCoordinator(), then waits up to 60 s for it to listen.
    Status startCoordinator(const wire::RunPlan& plan);
    /// Starts one `syncscope-engine work --connect <data endpoint> <workerArgs>`; returns its pid.
    Result<pid_t> startWorker(const std::vector<std::string>& workerArgs);
    /// Starts `syncscope-engine aggregate --connect <data endpoint>` (a group aggregator) and
    /// returns the endpoint its workers connect to.
    Result<std::string> startAggregator();
    /// Starts `syncscope-engine shard --connect <data endpoint>` (a parameter shard) and returns the
    /// endpoint its workers connect to, once it has its range of the model.
    Result<std::string> startShard();

    const CoordinatorEndpoints& endpoints() const { return m_endpoints; }
    pid_t coordinatorPid() const { return m_coordinator; }
    /// The processes of this cluster still running.
    std::vector<pid_t> processes() const { return m_launcher.children(); }
    /// Whether the coordinator process is still running; once it has exited, its exit code.
    bool coordinatorRunning(int* exitCode = nullptr);
    /// How the coordinator's run ended, as it reported (waits up to `waitSeconds` for the report);
    /// nothing when it died without one.
    std::optional<wire::RunResult> coordinatorResult(double waitSeconds = 5.0);
    /// Sends SIGTERM to every child, waits up to graceSeconds, then SIGKILL.
    void stopAll(double graceSeconds);
    /// For a caller that must not block (the console): `signal` to every child, returns at once.
    void signalAll(int signal) { m_launcher.signalAll(signal); }
    /// Collects the children that have exited; how many still run. Never blocks.
    size_t reap() { return m_launcher.reap(); }
    /// Lets every process outlive this object, with the credentials file they use; returns its path.
    std::string release();

private:
    /// Starts `args` with --report-fd and the cluster's security flags, stdout to /dev/null; *reportFd
    /// is the read end of its report pipe (-1 when no pipe could be made).
    Result<pid_t> startReporting(std::vector<std::string> args, int* reportFd);
    /// Starts a server process between the workers and the coordinator (`command` --connect <data
    /// endpoint> --report-fd) and waits up to 60 s for the report of where it listens.
    Result<std::string> startRelay(const std::string& command);
    std::string m_engine;
    std::optional<PrivateCredentials> m_credentials;
    std::optional<TemporaryFolder> m_planFolder;  ///< the coordinator's plan file, removed with the cluster
    std::vector<std::string> securityArguments() const;
    ProcessLauncher m_launcher;
    pid_t m_coordinator = -1;
    int m_reportFd = -1;  ///< the coordinator's reports (serve --report-fd)
    std::optional<ProcessReportReader> m_reports;
    CoordinatorEndpoints m_endpoints;
};

}  // namespace syncscope::engine
