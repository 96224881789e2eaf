// launch (see launch_command.h): which role this task plays, the credentials file the tasks share,
// the GPU a worker binds, and where a console attaches. Training itself is serve's and work's.
#include "engine/cli/launch_command.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "engine/cli/aggregate_command.h"
#include "engine/cli/attach_help.h"
#include "engine/cli/cli_errors.h"
#include "engine/cli/hosts_launch.h"
#include "engine/cli/launch_flags.h"
#include "engine/cli/serve_command.h"
#include "engine/cli/shard_command.h"
#include "engine/launch/slurm_task.h"
#include "engine/launch/task_roles.h"
#include "engine/launch/worker_command.h"

namespace syncscope::engine {
namespace {

// The run's own credentials beside the job's output, unless --credentials names a file: the
// folder sbatch was called from is the one a cluster's tasks all see.
std::string jobCredentialsPath(const SlurmTask& task) {
    const std::string folder = task.submitDir.empty() ? "." : task.submitDir;
    const std::string name = task.jobId.empty() ? "syncscope.credentials" : "syncscope-" + task.jobId + ".credentials";
    return (std::filesystem::path(folder) / name).string();
}

void printAttachHelp(const SlurmTask& task, const LaunchFlags& f, const CoordinatorEndpoints& bound) {
    const std::string& host = task.firstHost;
    std::printf("slurm: coordinator of job %s on %s (task 0 of %u); %u workers connect to %s", task.jobId.c_str(),
                host.c_str(), task.tasks, f.run.workers, onHost(bound.data, host).c_str());
    if (f.run.aggregators) std::printf(", which deals them to the group aggregators of tasks 1-%u", f.run.aggregators);
    if (f.run.shards) std::printf("; the model lives on the parameter shards of tasks 1-%u", f.run.shards);
    std::printf("\n");
    printConsoleAttach(host, bound, f.security);
}

// Every task checks the run flags, so a mistake ends the whole step at once instead of leaving the
// workers to wait for a coordinator that refused to start.
Status checkRun(const SlurmTask& task, LaunchFlags& f, bool workersGiven) {
    const unsigned relays = f.run.aggregators + f.run.shards;
    const char* what = f.run.shards ? "parameter shards" : "aggregators";
    if (relays + 2 > task.tasks)
        return invalidArgument(fmt::format("--{} {} leaves no worker among the step's {} tasks (1 coordinator, then the "
                                           "{}, then the workers)", f.run.shards ? "shards" : "aggregators", relays,
                                           task.tasks, what));
    const unsigned workers = task.tasks - 1 - relays;
    if (workersGiven && f.run.workers != workers)
        return invalidArgument(fmt::format(
            "--workers {} disagrees with the step's {} tasks (1 coordinator + {} {} + {} workers); leave "
            "--workers out, or ask srun for --ntasks {}", f.run.workers, task.tasks, relays, what, workers,
            f.run.workers + 1 + relays));
    f.run.workers = workers;
    if (f.listen.dataPort == 0)
        return invalidArgument("--data-port 0 cannot be used with launch: the workers must know the coordinator's "
                               "port before it listens");
    if (Status s = checkInsecureBind(f.security, f.listen.bind); !s) return s;
    f.run.placement.set_kind(wire::Placement::PLACE_SLURM);
    f.run.workerThreads = f.work.options.threads;  // the plan's, for a --worker-command's OMP_NUM_THREADS and the like
    auto plan = toRunPlan(f.run);
    if (!plan) return plan.status();
    f.plan = std::move(*plan);
    return Status::ok();
}

int runCoordinatorTask(const SlurmTask& task, LaunchFlags& f) {
    if (!task.nodeName.empty() && task.nodeName != task.firstHost)
        return printError(invalidArgument("task 0 runs on " + task.nodeName + ", not on the step's first node " +
                                          task.firstHost + " where the workers look for it; keep srun's default "
                                          "block distribution (no -m cyclic / arbitrary for launch --slurm)"));
    return serve(f.plan, f.security, f.listen,
                 [&](const CoordinatorEndpoints& bound) { printAttachHelp(task, f, bound); });
}

// Slurm gives a step's tasks on a node the node's GPUs in CUDA_VISIBLE_DEVICES; each worker takes one.
void bindGpu(const SlurmTask& task, const WorkFlags& work) {
    if (work.backend == "cpu") return;
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    auto gpu = gpuForLocalTask(task.localId, visible ? visible : "");
    if (!gpu) return;
    std::fprintf(stderr, "worker task %u: GPU %s of CUDA_VISIBLE_DEVICES=%s (SLURM_LOCALID %u)\n", task.rank,
                 gpu->c_str(), visible, task.localId);
    setenv("CUDA_VISIBLE_DEVICES", gpu->c_str(), 1);  // before anything starts CUDA in this process
}

// The coordinator writes the credentials file when it starts; workers on any node wait for it.
Status awaitCredentials(const std::string& path, double timeoutSeconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
    while (!std::filesystem::exists(path)) {  // SIGTERM (scancel) ends a waiting worker as it ends a working one
        if (std::chrono::steady_clock::now() > deadline)
            return unavailable(fmt::format(
                "no credentials file {} after {:g} s: the coordinator (task 0) did not start, or that folder is "
                "not shared by the nodes; pass --credentials FILE on a shared filesystem, or a longer "
                "--startup-timeout", path, timeoutSeconds));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return Status::ok();
}

// A worker task that is the user's command (--worker-command): this task becomes `sh -c COMMAND` with
// the run's place in its environment, so srun's signals reach the script itself.
int execWorkerCommand(const SlurmTask& task, const LaunchFlags& f, const std::string& connect) {
    const wire::RunLayout& layout = f.plan.layout();
    WorkerPlace place = workerPlace(f.plan, connect, f.security.insecure ? "" : f.security.credentials, f.security.dataPlane);
    place.rank = task.rank - 1 - shardProcesses(layout) - layout.aggregators();
    place.localRank = task.localId;
    for (const std::string& entry : workerCommandEnvironment(place)) {
        const size_t name = entry.find('=');
        setenv(entry.substr(0, name).c_str(), entry.c_str() + name + 1, 1);
    }
    std::fflush(nullptr);
    execl(kWorkerShell, "sh", "-c", layout.worker_command().c_str(), static_cast<char*>(nullptr));
    return printError(unavailable(fmt::format("cannot run {}: {}", kWorkerShell, std::strerror(errno))), 127);
}

int runWorkerTask(const SlurmTask& task, LaunchFlags& f) {
    bindGpu(task, f.work);
    if (!f.security.insecure)
        if (Status s = awaitCredentials(f.security.credentials, f.startupTimeout); !s) return printError(s, 3);
    const std::string connect = fmt::format("tcp://{}:{}", task.firstHost, f.listen.dataPort);
    if (!f.plan.layout().worker_command().empty()) return execWorkerCommand(task, f, connect);
    f.work.options.connect = connect;
    f.work.options.registerTimeoutSeconds = f.startupTimeout;  // the coordinator loads its data before it listens
    return work(f.work, f.security);
}

// A relay task (a group aggregator for the workers the coordinator sends it, or a parameter shard
// that takes the next range of the model): on its node, on a free port; `serveRelay` runs it.
int runRelayTask(const SlurmTask& task, LaunchFlags& f, int (*serveRelay)(const RelayFlags&)) {
    if (!f.security.insecure)
        if (Status s = awaitCredentials(f.security.credentials, f.startupTimeout); !s) return printError(s, 3);
    RelayFlags relay;
    relay.options.connect = fmt::format("tcp://{}:{}", task.firstHost, f.listen.dataPort);
    relay.options.bindHost = f.listen.bind;
    relay.options.registerTimeoutSeconds = f.startupTimeout;
    relay.security = f.security;
    return serveRelay(relay);
}

int launch(LaunchFlags& f, bool credentialsGiven, bool workersGiven) {
    if (f.slurm == !f.hostsFile.empty())
        return printError(invalidArgument("launch needs one of --slurm (run it with srun inside a Slurm allocation) "
                                          "or --hosts FILE (from this machine, over ssh), not both"));
    if (!f.hostsFile.empty()) return launchOnHosts(f, credentialsGiven, workersGiven);
    auto task = slurmTaskFromEnvironment();
    if (!task) return printError(task.status());
    if (task->tasks < 2)
        return printError(invalidArgument("the step has " + std::to_string(task->tasks) +
                                          " task; launch --slurm needs at least 2 (a coordinator and a worker): "
                                          "srun --ntasks N+1 for N workers"));
    if (Status s = checkRun(*task, f, workersGiven); !s) return printError(s);
    if (!credentialsGiven) f.security.credentials = jobCredentialsPath(*task);
    f.security.credentials = std::filesystem::absolute(f.security.credentials).string();
    switch (roleOfTask(task->rank, f.plan.layout())) {
    case TaskRole::Coordinator: return runCoordinatorTask(*task, f);
    case TaskRole::Shard: return runRelayTask(*task, f, serveShard);
    case TaskRole::Aggregator: return runRelayTask(*task, f, aggregate);
    case TaskRole::Worker: break;
    }
    return runWorkerTask(*task, f);
}

}  // namespace

void addLaunchCommand(CLI::App& app, int& exitCode) {
    auto f = std::make_shared<LaunchFlags>();
    f->listen.bind = "0.0.0.0";  // workers come from other nodes
    CLI::App* cmd = app.add_subcommand(
        "launch", "Run a whole cluster from one command: in every task of a Slurm job step (task 0 coordinates, "
                  "the others work: srun syncscope-engine launch --slurm ...; packaging/slurm/syncscope.sbatch), "
                  "or here with workers started over ssh on the hosts of a file (launch --hosts FILE ...)");
    cmd->add_flag("--slurm", f->slurm, "Take this task's role from SLURM_PROCID, SLURM_NTASKS, SLURM_STEP_NODELIST "
                                       "and SLURM_LOCALID (start it with srun)");
    addHostsFlags(*cmd, *f);
    addRunOptions(*cmd, f->run);
    addListenFlags(*cmd, f->listen);
    addSecurityFlags(*cmd, f->security, true);
    SlurmTask placeholders;
    placeholders.jobId = "$SLURM_JOB_ID";
    placeholders.submitDir = "$SLURM_SUBMIT_DIR";
    cmd->get_option("--credentials")->default_str(jobCredentialsPath(placeholders));
    addWorkerComputeFlags(*cmd, f->work);
    addWorkerCommandOption(*cmd, f->run);
    cmd->add_option("--aggregators", f->run.aggregators,
                    "With --slurm: tasks 1 to this run group aggregators (the coordinator deals the workers to them: "
                    "by group in grouped mode, by id in bsp), the rest work")
        ->capture_default_str();
    cmd->add_option("--startup-timeout", f->startupTimeout,
                    "Seconds a worker waits for the coordinator's credentials file and its answer")
        ->check(CLI::Range(1.0, 86400.0))->capture_default_str();
    cmd->footer("With --slurm, the credentials file must lie in a folder every node sees; --workers defaults "
                "to the step's tasks less one (and less the tasks of --aggregators or --shards, 1 to that count). With --hosts, the coordinator runs here, --credentials defaults to "
                "a new file for the run in this folder (removed when it ends), and --workers to the file's sum.");
    cmd->callback([f, cmd, &exitCode] {
        exitCode = launch(*f, cmd->count("--credentials") > 0, cmd->count("--workers") > 0);
    });
}

}  // namespace syncscope::engine
