// Cluster: the one orchestrator of a run's processes. It starts a coordinator for a run plan
// (`serve --plan FILE --report-fd`), then the plan's relays (parameter shards, then group
// aggregators) and its workers (syncscope-engine work, or the plan's worker command: a script of the
// user's, engine/launch/worker_command.h), all through the ProcessLauncher (own process group, killed with the
// parent, SIGTERM then SIGKILL on stop). Where the workers run is the plan's placement: here
// (fork/exec of the engine), or on the hosts of the placement, one ssh session per host
// (RemoteWorkers). In a Slurm step srun places every task, and each takes the role task_roles.h gives
// it, in the same order. Children report where they listen and how the run ended on a pipe
// (ProcessReports), never as text. `run`, `launch --hosts` and the console (through its Qt adapter)
// use it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/process_launcher.h"
#include "engine/core/temporary_folder.h"
#include "engine/core/status.h"
#include "engine/launch/remote_workers.h"
#include "engine/net/credentials.h"
#include "engine/net/process_report.h"
#include "engine/net/endpoints_line.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

/// Where the coordinator listens. A run on this machine alone: loopback, any free ports. Workers on
/// other hosts need an address they reach (e.g. 0.0.0.0) and, behind firewalls, fixed ports.
struct ListenSettings {
    std::string bind = "127.0.0.1";
    int dataPort = 0, controlPort = 0, telemetryPort = 0;  ///< 0: any free port
};

class Cluster {
public:
    /// `engineBinary`: the syncscope-engine to start here (default: this program itself).
    explicit Cluster(std::string engineBinary = selfExecutable()) : m_engine(std::move(engineBinary)) {}
    ~Cluster();  ///< stops whatever still runs
    Cluster(const Cluster&) = delete;
    Cluster& operator=(const Cluster&) = delete;

    /// Makes the cluster's own private credentials (call before starting anything): serve and every
    /// worker get them, and clients take theirs from credentials(). Its data plane is authenticated
    /// (kLocalDataPlane): nothing leaves this machine.
    Status secure();
    /// Uses `credentials`, which the caller made or loaded from its file at `path` (0600), with
    /// `dataPlane` ("encrypted" or "authenticated"): what a cluster whose workers run on other hosts needs.
    void secureWith(Credentials credentials, const std::string& path, const std::string& dataPlane);
    /// The cluster's credentials; null when neither was called (the run is --insecure).
    const Credentials* credentials() const { return m_credentials ? &*m_credentials : nullptr; }
    /// Their file, for clients that attach; empty without credentials.
    std::string credentialsPath() const { return m_credentialsPath; }

    /// Starts the coordinator of `plan` (a validated one) on `listen`, FILE holding `plan` in a folder
    /// of this cluster's own (0700), and returns at once: coordinatorReportFd() becomes readable as
    /// the coordinator reports.
    Status launchCoordinator(const wire::RunPlan& plan, const ListenSettings& listen = {});
    /// Reads what the coordinator reported so far, without blocking: true once it listens
    /// (endpoints() then says where); an error when it ended before that.
    Result<bool> checkListening();
    /// The pipe of the coordinator's reports (for a caller that waits on descriptors); -1 before launch.
    int coordinatorReportFd() const { return m_reportFd; }
    /// launchCoordinator(), then waits up to 60 s for it to listen.
    Status startCoordinator(const wire::RunPlan& plan, const ListenSettings& listen = {});
    /// Once the coordinator listens: the plan's shards and aggregators here (each waited for until it
    /// listens, up to 60 s), then its workers where its placement puts them, each given `workerArgs`
    /// (backend, threads, timeouts) beside where to connect and the cluster's security; then the plan's
    /// evaluator command, here.
    Status startProcesses(const std::vector<std::string>& workerArgs);
    /// How other hosts reach the coordinator: the placement's reachable host, else the bind address,
    /// else (binding every address) this machine's name.
    std::string reachableHost() const;

    const CoordinatorEndpoints& endpoints() const { return m_endpoints; }
    pid_t coordinatorPid() const { return m_coordinator; }
    /// How the worker processes started here stand.
    struct WorkerEnds {
        bool allEnded = false;  ///< every one has ended (none was started here: false)
        size_t failed = 0;      ///< of those ended, how many with an error
    };
    /// The workers started here that ended with an error since the last call, one line each ("worker
    /// process 2 (pid 1234) ended with code 1"), and in `ends` how they all stand. The engine's workers
    /// end with code 0 only once the run is over; a --worker-command's script may return earlier.
    std::vector<std::string> endedWorkers(WorkerEnds* ends);
    /// The processes of this cluster running here (the hosts' ssh sessions are RemoteWorkers').
    std::vector<pid_t> processes() const { return m_launcher.children(); }
    /// Whether the coordinator process is still running; once it has exited, its exit code.
    bool coordinatorRunning(int* exitCode = nullptr);
    /// How the coordinator's run ended, as it reported (waits up to `waitSeconds` for the report);
    /// nothing when it died without one.
    std::optional<wire::RunResult> coordinatorResult(double waitSeconds = 5.0);
    /// Relays what the hosts' workers print for up to `wait`; the sessions that ended with a failure.
    /// Nothing (at once) when no worker runs on another host.
    std::vector<RemoteWorkers::Failure> pollHosts(std::chrono::milliseconds wait);
    /// Sends SIGTERM to every child, waits up to graceSeconds, then SIGKILL. The hosts' workers are
    /// given `graceSeconds` to end by themselves (they learn of the run's end from the coordinator)
    /// before their sessions close.
    void stopAll(double graceSeconds);
    /// For a caller that must not block (the console): `signal` to every child, returns at once.
    void signalAll(int signal) { m_launcher.signalAll(signal); }
    /// Collects the children that have exited; how many still run. Never blocks.
    size_t reap() { return m_launcher.reap(); }
    /// Starts a parameter shard in place of each of this cluster's shards that ended before its run
    /// (killed, or an error), where the run keeps checkpoints: the coordinator gives it the lost one's
    /// range of the model, restored from its newest checkpoint (without checkpoints it stops the run).
    /// Returns a line per shard restarted (for the caller to show); an error when one cannot be started.
    Result<std::vector<std::string>> restartEndedShards();
    /// Lets every process outlive this object, with the credentials file they use; returns its path.
    std::string release();

private:
    /// Starts `args` with --report-fd and the cluster's security flags, stdout to /dev/null; *reportFd
    /// is the read end of its report pipe (-1 when no pipe could be made).
    Result<pid_t> startReporting(std::vector<std::string> args, int* reportFd);
    /// Starts a server process between the workers and the coordinator (`command` --connect <data
    /// endpoint> --report-fd) and waits up to 60 s for the report of where it listens.
    Result<std::string> startRelay(const std::string& command, pid_t* pid = nullptr);
    /// Starts worker `rank` here (syncscope-engine work, or the plan's worker command); returns its pid.
    Result<pid_t> startWorker(const std::vector<std::string>& workerArgs, unsigned rank);
    /// Starts the plan's evaluator command here (sh -c, told where the run is); returns its pid.
    Result<pid_t> startEvaluator();
    /// The placement's hosts, each with its share of the workers, over ssh.
    Status startHostWorkers(const std::vector<std::string>& workerArgs);
    std::vector<std::string> securityArguments() const;

    std::string m_engine;
    std::optional<PrivateCredentials> m_private;  ///< secure(): made for this cluster, removed with it
    std::optional<Credentials> m_credentials;
    std::string m_credentialsPath, m_dataPlane;
    std::optional<TemporaryFolder> m_planFolder;  ///< the coordinator's plan file, removed with the cluster
    wire::RunPlan m_plan;
    ListenSettings m_listen;
    ProcessLauncher m_launcher;
    std::unique_ptr<RemoteWorkers> m_hosts;  ///< the workers on other hosts (placement PLACE_HOSTS)
    pid_t m_coordinator = -1;
    std::vector<pid_t> m_shards;  ///< the parameter shards started here, by place they were started for
    struct StartedWorker {
        pid_t pid;
        unsigned rank;
        bool ended = false, failed = false;
    };
    std::vector<StartedWorker> m_workers;  ///< the worker processes started here
    int m_reportFd = -1;  ///< the coordinator's reports (serve --report-fd)
    std::optional<ProcessReportReader> m_reports;
    CoordinatorEndpoints m_endpoints;
};

}  // namespace syncscope::engine
