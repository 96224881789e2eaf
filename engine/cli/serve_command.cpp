// `serve` and `work`: thin wrappers that turn flags into Coordinator / runWorker calls.
#include "engine/cli/serve_command.h"

#include <cstdio>
#include <memory>

#include "engine/cli/cli_errors.h"
#include "engine/cli/final_report.h"
#include "engine/cli/run_options.h"
#include "engine/cli/security_flags.h"
#include "engine/core/process_signals.h"
#include "engine/ps/local_cluster.h"
#include "engine/ps/worker.h"

namespace syncscope::engine {
namespace {

int serve(const RunOptions& run, const SecurityFlags& security, const std::string& bind, int dataPort, int controlPort,
          int telemetryPort) {
    auto options = toCoordinatorOptions(run);
    if (!options) return printError(options.status());
    auto credentials = serverCredentials(security, bind);
    if (!credentials) return printError(credentials.status());
    options->credentials = std::move(*credentials);
    options->plainDataPlane = security.plainDataPlane();
    options->bindHost = bind;
    options->dataPort = dataPort;
    options->controlPort = controlPort;
    options->telemetryPort = telemetryPort;
    options->interrupted = &catchInterrupts();
    auto coordinator = Coordinator::create(*options);
    if (!coordinator && !run.resumeDir.empty())
        return printError(withFlagHint(coordinator.status(), "the checkpoint folder is given with --resume DIR"));
    if (!coordinator) return printError(withDataFlag(coordinator.status()));
    if (Status s = (*coordinator)->bind(); !s) return printError(s);
    std::printf("%s\n", formatEndpointsLine((*coordinator)->endpoints()).c_str());
    std::fflush(stdout);
    const std::optional<EvaluationResult> final = (*coordinator)->run();
    if (final)
        std::fputs(formatFinalReport(final->accuracy, final->version).c_str(), stdout);
    else
        std::fputs("final test accuracy: unknown (no evaluator reported on the final model)\n", stdout);
    return 0;
}

}  // namespace

void addServeCommand(CLI::App& app, int& exitCode) {
    auto run = std::make_shared<RunOptions>();
    auto bind = std::make_shared<std::string>("127.0.0.1");
    auto security = std::make_shared<SecurityFlags>();
    auto ports = std::make_shared<std::array<int, 3>>(std::array<int, 3>{5555, 5556, 5557});
    CLI::App* cmd = app.add_subcommand("serve", "Run a coordinator (parameter server) that workers connect to");
    addRunOptions(*cmd, *run);
    cmd->add_option("--bind", *bind, "Address to listen on (loopback by default; 0.0.0.0 for a cluster)")->capture_default_str();
    cmd->add_option("--data-port", (*ports)[0], "Port for workers (0: any free port)")->check(CLI::Range(0, 65535))->capture_default_str();
    cmd->add_option("--control-port", (*ports)[1], "Port for consoles' commands")->check(CLI::Range(0, 65535))->capture_default_str();
    cmd->add_option("--telemetry-port", (*ports)[2], "Port for telemetry subscribers")->check(CLI::Range(0, 65535))->capture_default_str();
    addSecurityFlags(*cmd, *security, true);
    cmd->callback([=, &exitCode] { exitCode = serve(*run, *security, *bind, (*ports)[0], (*ports)[1], (*ports)[2]); });
}

void addWorkCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<WorkerOptions>();
    auto backend = std::make_shared<std::string>("auto");
    auto security = std::make_shared<SecurityFlags>();
    CLI::App* cmd = app.add_subcommand("work", "Run a worker that trains for the coordinator at --connect");
    addSecurityFlags(*cmd, *security, false);
    cmd->add_option("--connect", options->connect, "The coordinator's data endpoint, e.g. tcp://host:5555")->required();
    cmd->add_option("--backend", *backend, "Compute backend")->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
    cmd->add_option("--threads", options->threads, "CPU threads for this worker")->check(CLI::Range(1, 1024))->capture_default_str();
    cmd->add_option("--data", options->dataDir, "Fashion-MNIST folder on this node (default: the coordinator's)");
    cmd->add_flag("--retry", options->retry, "If the coordinator goes away, wait for it and rejoin");
    cmd->add_option("--coordinator-timeout", options->coordinatorTimeoutSeconds, "Seconds without heartbeat replies before giving up")
        ->check(CLI::Range(0.2, 600.0))->capture_default_str();
    cmd->callback([=, &exitCode] {
        options->backend = parseBackendKind(*backend).value();
        auto credentials = clientCredentials(*security, Role::Worker);
        if (!credentials) {
            exitCode = printError(credentials.status());
            return;
        }
        options->credentials = std::move(*credentials);
        options->plainDataPlane = security->plainDataPlane();
        const Status status = runWorker(*options);
        exitCode = status ? 0 : printError(status, 3);
    });
}

}  // namespace syncscope::engine
