// launch --hosts (see hosts_launch.h): read the hosts file into the plan's placement, make or load
// the run's credentials, and hand the run to the Cluster, which serves here, copies the worker keys to
// each host and starts the hosts' workers over ssh once the coordinator listens. runCluster()
// follows it: a host whose workers cannot run stops the run; at the end (the run's stop condition, a
// console's stop, Ctrl-C) the workers learn of it from the coordinator, and the ssh sessions of any
// host whose workers are still there are closed, which stops them.
#include "engine/cli/hosts_launch.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "engine/cli/attach_help.h"
#include "engine/cli/cli_errors.h"
#include "engine/cli/cluster_run.h"
#include "engine/launch/hosts_file.h"
#include "engine/launch/ssh_commands.h"

namespace syncscope::engine {
namespace {

Status planRun(const std::vector<HostEntry>& hosts, LaunchFlags& f, bool workersGiven) {
    const unsigned workers = totalWorkers(hosts);
    if (workersGiven && f.run.workers != workers)
        return invalidArgument(fmt::format("--workers {} disagrees with the {} workers of {}; leave --workers out, or "
                                           "change the counts in the file", f.run.workers, workers, f.hostsFile));
    f.run.workers = workers;
    if (Status s = checkInsecureBind(f.security, f.listen.bind); !s) return s;
    if (splitCommand(f.ssh).empty()) return invalidArgument("--ssh is empty; give the ssh command, e.g. --ssh ssh");
    wire::Placement& place = f.run.placement;
    place.set_kind(wire::Placement::PLACE_HOSTS);
    for (const HostEntry& h : hosts) {
        wire::HostWorkers& entry = *place.add_hosts();
        entry.set_host(h.host);
        entry.set_workers(h.workers);
    }
    place.set_ssh_command(f.ssh);
    place.set_remote_engine(f.remoteEngine);
    f.run.workerThreads = f.work.options.threads;  // the plan's, for a --worker-command's OMP_NUM_THREADS and the like
    auto plan = toRunPlan(f.run);
    if (!plan) return plan.status();
    f.plan = std::move(*plan);
    return Status::ok();
}

std::string hostsSummary(const std::vector<HostEntry>& hosts) {
    std::string text;
    for (const HostEntry& h : hosts) text += fmt::format("{}{} {}", text.empty() ? "" : ", ", h.host, h.workers);
    return text;
}

}  // namespace

void addHostsFlags(CLI::App& cmd, LaunchFlags& f) {
    cmd.add_option("--hosts", f.hostsFile,
                   "Start the workers over ssh on the hosts of FILE (one a line: HOST [WORKERS], # comments); the "
                   "coordinator runs here")
        ->type_name("FILE");
    cmd.add_option("--ssh", f.ssh, "With --hosts: the ssh command and its options, split on blanks "
                                   "(e.g. 'ssh -F cluster.ssh_config'); BatchMode=yes is always added")
        ->capture_default_str();
    cmd.add_option("--engine", f.remoteEngine, "With --hosts: syncscope-engine's path on the hosts (default: this "
                                               "engine's path)")
        ->type_name("PATH");
}

int launchOnHosts(LaunchFlags& f, bool credentialsGiven, bool workersGiven) {
    auto hosts = readHostsFile(f.hostsFile);
    if (!hosts) return printError(hosts.status());
    if (Status s = planRun(*hosts, f, workersGiven); !s) return printError(s);
    Cluster cluster;
    bool createdCredentials = false;
    if (!f.security.insecure) {
        if (!credentialsGiven) f.security.credentials = fmt::format("syncscope-launch-{}.credentials", getpid());
        f.security.credentials = std::filesystem::absolute(f.security.credentials).string();
        auto all = Credentials::loadOrCreate(f.security.credentials, &createdCredentials);
        if (!all) return printError(invalidArgument("--credentials: " + all.status().message()));
        cluster.secureWith(std::move(*all), f.security.credentials, f.security.dataPlane);
    }
    ClusterRunSettings settings;
    settings.listen = {f.listen.bind, f.listen.dataPort, f.listen.controlPort, f.listen.telemetryPort};
    settings.workerArguments = {"--backend", f.work.backend, "--threads", std::to_string(f.work.options.threads),
                                "--coordinator-timeout", fmt::format("{:g}", f.work.options.coordinatorTimeoutSeconds)};
    settings.interruptedExit = 0;  // Ctrl-C is how a person ends a launched run that has no stop condition
    // The workers learn of the end at their next exchange, or when the coordinator stops answering.
    settings.stopGraceSeconds = f.work.options.coordinatorTimeoutSeconds + 5;
    settings.onStarted = [&](Cluster& started) {
        const std::string here = started.reachableHost();
        std::printf("hosts: coordinator here, on %s; %u workers on %zu host%s (%s) connect to %s\n", here.c_str(),
                    f.run.workers, hosts->size(), hosts->size() == 1 ? "" : "s", hostsSummary(*hosts).c_str(),
                    onHost(started.endpoints().data, here).c_str());
        printConsoleAttach(here, started.endpoints(), f.security);
        std::fflush(stdout);
    };
    const int exitCode = runCluster(cluster, f.plan, settings);  // stops every process it started
    if (createdCredentials) std::filesystem::remove(f.security.credentials);
    return exitCode;
}

}  // namespace syncscope::engine
