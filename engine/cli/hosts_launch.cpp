// launch --hosts (see hosts_launch.h): read the hosts file, make or load the run's credentials, copy
// the worker keys to each host, serve here, and once the coordinator listens start the hosts' workers;
// a thread relays their output and stops the run when a host's workers cannot run. At the end (the
// run's stop condition, a console's stop, Ctrl-C) the workers get the stop, and the ssh sessions of
// any host whose workers are still there are closed, which stops them.
#include "engine/cli/hosts_launch.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "engine/cli/attach_help.h"
#include "engine/cli/cli_errors.h"
#include "engine/launch/remote_workers.h"
#include "engine/launch/ssh_commands.h"
#include "engine/core/process_launcher.h"
#include "engine/core/process_signals.h"

namespace syncscope::engine {
namespace {

constexpr int kHostFailureExit = 3;

// Where the hosts reach this machine: the address --bind names, or this machine's name when it binds all.
std::string coordinatorHost(const std::string& bind) {
    if (bind != "0.0.0.0" && bind != "*" && bind != "::" && !bind.empty()) return bind;
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return name;
}

// The worker role's file, as bytes to send: written 0600 beside the run's file, read, removed.
Result<std::string> workerCredentialsFile(const Credentials& all, const std::string& runFile) {
    const std::string path = runFile + ".worker-copy";
    if (Status s = all.forRole(Role::Worker).save(path); !s) return s;
    std::ifstream file(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << file.rdbuf();
    std::filesystem::remove(path);
    if (bytes.str().empty()) return unavailable("cannot read back the worker credentials written to " + path);
    return bytes.str();
}

Status checkRun(const std::vector<HostEntry>& hosts, LaunchFlags& f, bool workersGiven) {
    const unsigned workers = totalWorkers(hosts);
    if (workersGiven && f.run.workers != workers)
        return invalidArgument(fmt::format("--workers {} disagrees with the {} workers of {}; leave --workers out, or "
                                           "change the counts in the file", f.run.workers, workers, f.hostsFile));
    f.run.workers = workers;
    if (Status s = checkInsecureBind(f.security, f.listen.bind); !s) return s;
    if (splitCommand(f.ssh).empty()) return invalidArgument("--ssh is empty; give the ssh command, e.g. --ssh ssh");
    auto plan = toRunPlan(f.run);
    if (!plan) return plan.status();
    f.plan = std::move(*plan);
    return Status::ok();
}

std::vector<std::string> workCommand(const LaunchFlags& f, const std::string& dataEndpoint) {
    std::vector<std::string> command{f.remoteEngine.empty() ? selfExecutable() : f.remoteEngine, "work", "--connect",
                                     dataEndpoint, "--backend", f.work.backend, "--threads",
                                     std::to_string(f.work.options.threads), "--coordinator-timeout",
                                     fmt::format("{:g}", f.work.options.coordinatorTimeoutSeconds)};
    if (f.security.insecure) command.push_back("--insecure");
    else command.insert(command.end(), {"--data-plane", f.security.dataPlane});  // --credentials: each host's copy
    return command;
}

std::string hostsSummary(const std::vector<HostEntry>& hosts) {
    std::string text;
    for (const HostEntry& h : hosts) text += fmt::format("{}{} {}", text.empty() ? "" : ", ", h.host, h.workers);
    return text;
}

// The hosts' sessions while the coordinator runs: output relayed, a failed host stops the run.
class HostsWatch {
public:
    explicit HostsWatch(RemoteWorkers& remote) : m_remote(remote) {}
    ~HostsWatch() { finish(); }
    const std::atomic<bool>& stop() const { return m_stop; }
    int exitCode() const { return m_exitCode.load(); }

    void fail(const std::string& message) {
        printError(unavailable(message + "; stopping the run"));
        m_exitCode = kHostFailureExit;
        m_stop = true;
    }
    void begin() {
        m_thread = std::thread([this] {
            while (!m_done.load()) {
                for (const RemoteWorkers::Failure& failure : m_remote.poll(std::chrono::milliseconds(100)))
                    fail(failure.message);
                if (catchInterrupts().load()) m_stop = true;
            }
        });
    }
    void finish() {
        m_done = true;
        if (m_thread.joinable()) m_thread.join();
    }

private:
    RemoteWorkers& m_remote;  ///< the thread's alone until finish()
    std::atomic<bool> m_stop{false}, m_done{false};
    std::atomic<int> m_exitCode{0};
    std::thread m_thread;
};

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
    if (Status s = checkRun(*hosts, f, workersGiven); !s) return printError(s);
    const std::string here = coordinatorHost(f.listen.bind);
    bool createdCredentials = false;
    std::string workerFile;
    if (!f.security.insecure) {
        if (!credentialsGiven) f.security.credentials = fmt::format("syncscope-launch-{}.credentials", getpid());
        f.security.credentials = std::filesystem::absolute(f.security.credentials).string();
        auto all = Credentials::loadOrCreate(f.security.credentials, &createdCredentials);
        if (!all) return printError(invalidArgument("--credentials: " + all.status().message()));
        auto bytes = workerCredentialsFile(*all, f.security.credentials);
        if (!bytes) return printError(bytes.status());
        workerFile = std::move(*bytes);
    }
    int exitCode = 0;
    {
        RemoteWorkers remote(splitCommand(f.ssh), *hosts);
        if (Status s = f.security.insecure ? Status::ok() : remote.copyCredentials(workerFile); !s)
            exitCode = printError(s);
        HostsWatch watch(remote);
        const auto startWorkers = [&](const CoordinatorEndpoints& bound) {
            std::printf("hosts: coordinator here, on %s; %u workers on %zu host%s (%s) connect to %s\n", here.c_str(),
                        f.run.workers, hosts->size(), hosts->size() == 1 ? "" : "s", hostsSummary(*hosts).c_str(),
                        onHost(bound.data, here).c_str());
            printConsoleAttach(here, bound, f.security);
            std::fflush(stdout);
            if (Status s = remote.start(workCommand(f, onHost(bound.data, here))); !s) watch.fail(s.message());
            watch.begin();
        };
        if (exitCode == 0) exitCode = serve(f.plan, f.security, f.listen, startWorkers, &watch.stop());
        watch.finish();
        // The workers learn of the end at their next exchange, or when the coordinator stops answering.
        remote.stop(f.work.options.coordinatorTimeoutSeconds + 5);
        if (watch.exitCode() != 0) exitCode = watch.exitCode();
    }
    if (createdCredentials) std::filesystem::remove(f.security.credentials);
    return exitCode;
}

}  // namespace syncscope::engine
