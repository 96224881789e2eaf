// `serve` and `work`: thin wrappers that turn flags into Coordinator / runWorker calls.
#include "engine/cli/serve_command.h"

#include <cstdio>
#include <memory>

#include "engine/cli/cli_errors.h"
#include "engine/cli/report_fd_flag.h"
#include "engine/cli/final_report.h"
#include "engine/cli/run_options.h"
#include "engine/cli/security_flags.h"
#include "engine/core/process_signals.h"
#include "engine/net/process_report.h"
#include "engine/worker/worker.h"

namespace syncscope::engine {

int serve(const wire::RunPlan& plan, const SecurityFlags& security, const ListenFlags& listen,
          const std::function<void(const CoordinatorEndpoints&)>& onListening, const std::atomic<bool>* stop) {
    CoordinatorOptions options = coordinatorOptionsFor(plan);
    auto credentials = serverCredentials(security, listen.bind);
    if (!credentials) return printError(credentials.status());
    options.credentials = std::move(*credentials);
    if (options.credentials) options.credentialsPath = security.credentials;
    options.plainDataPlane = security.plainDataPlane();
    options.bindHost = listen.bind;
    options.dataPort = listen.dataPort;
    options.controlPort = listen.controlPort;
    options.telemetryPort = listen.telemetryPort;
    options.interrupted = &catchInterrupts();  // installs the handlers, also when `stop` is given
    if (stop) options.interrupted = stop;
    auto coordinator = Coordinator::create(options);
    if (!coordinator && plan.checkpoints().resume())
        return printError(withFlagHint(coordinator.status(), "the checkpoint folder is given with --resume DIR"));
    if (!coordinator) return printError(withDataFlag(coordinator.status()));
    if (Status s = (*coordinator)->bind(); !s) return printError(s);
    const CoordinatorEndpoints& bound = (*coordinator)->endpoints();
    std::printf("%s\n", formatEndpointsLine(bound).c_str());
    if (listen.reportFd >= 0) {
        wire::ProcessReport report;
        report.mutable_listening()->set_data(bound.data);
        report.mutable_listening()->set_control(bound.control);
        report.mutable_listening()->set_telemetry(bound.telemetry);
        if (Status s = writeProcessReport(listen.reportFd, report); !s) return printError(s);
    }
    if (onListening) onListening((*coordinator)->endpoints());
    std::fflush(stdout);
    const std::optional<EvaluationResult> final = (*coordinator)->run();
    const std::string& failure = (*coordinator)->failure();
    if (listen.reportFd >= 0) {
        wire::ProcessReport report;
        wire::RunResult& result = *report.mutable_result();
        result.set_evaluated(final.has_value() && failure.empty());
        if (final) {
            result.set_test_accuracy(final->accuracy);
            result.set_model_version(final->version);
        }
        result.set_failure(failure);
        (void)writeProcessReport(listen.reportFd, report);  // a starting process that is gone wants none
    }
    if (!failure.empty()) {
        std::fputs("final test accuracy: unknown (the run could not go on)\n", stdout);
        return printError(unavailable(failure), 3);
    }
    if (final)
        std::fputs(formatFinalReport(final->accuracy, final->version).c_str(), stdout);
    else
        std::fputs("final test accuracy: unknown (no evaluator reported on the final model)\n", stdout);
    return 0;
}

void addListenFlags(CLI::App& cmd, ListenFlags& f) {
    cmd.add_option("--bind", f.bind, "Address to listen on (loopback by default; 0.0.0.0 for a cluster)")->capture_default_str();
    cmd.add_option("--data-port", f.dataPort, "Port for workers (0: any free port)")->check(CLI::Range(0, 65535))->capture_default_str();
    cmd.add_option("--control-port", f.controlPort, "Port for consoles' commands")->check(CLI::Range(0, 65535))->capture_default_str();
    cmd.add_option("--telemetry-port", f.telemetryPort, "Port for telemetry subscribers")->check(CLI::Range(0, 65535))->capture_default_str();
}

void addWorkerComputeFlags(CLI::App& cmd, WorkFlags& f) {
    cmd.add_option("--backend", f.backend, "Compute backend")->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
    cmd.add_option("--threads", f.options.threads, "CPU threads for this worker")->check(CLI::Range(1, 1024))->capture_default_str();
    cmd.add_option("--coordinator-timeout", f.options.coordinatorTimeoutSeconds, "Seconds without heartbeat replies before giving up")
        ->check(CLI::Range(0.2, 600.0))->capture_default_str();
}

int work(WorkFlags f, const SecurityFlags& security) {
    f.options.backend = parseBackendKind(f.backend).value();
    auto credentials = clientCredentials(security, Role::Worker);
    if (!credentials) return printError(credentials.status());
    // Only the worker role's keys: a coordinator's whole file (as `launch` hands over) holds its secret too.
    if (*credentials) *credentials = (*credentials)->forRole(Role::Worker);
    f.options.credentials = std::move(*credentials);
    f.options.plainDataPlane = security.plainDataPlane();
    const Status status = runWorker(f.options);
    return status ? 0 : printError(status, 3);
}

void addServeCommand(CLI::App& app, int& exitCode) {
    auto run = std::make_shared<RunOptions>();
    auto listen = std::make_shared<ListenFlags>();
    auto security = std::make_shared<SecurityFlags>();
    CLI::App* cmd = app.add_subcommand("serve", "Run a coordinator (parameter server) that workers connect to");
    addRunOptions(*cmd, *run, true);
    addListenFlags(*cmd, *listen);
    addReportFdFlag(*cmd, listen->reportFd, "where it listens and how the run ended");
    addSecurityFlags(*cmd, *security, true);
    cmd->callback([=, &exitCode] {
        auto plan = toRunPlan(*run);
        exitCode = plan ? serve(*plan, *security, *listen) : printError(plan.status());
    });
}

void addWorkCommand(CLI::App& app, int& exitCode) {
    auto flags = std::make_shared<WorkFlags>();
    auto security = std::make_shared<SecurityFlags>();
    CLI::App* cmd = app.add_subcommand("work", "Run a worker that trains for the coordinator at --connect");
    addSecurityFlags(*cmd, *security, false);
    cmd->add_option("--connect", flags->options.connect, "The coordinator's data endpoint, e.g. tcp://host:5555")->required();
    addWorkerComputeFlags(*cmd, *flags);
    cmd->add_option("--data", flags->options.dataDir, "Fashion-MNIST folder on this node (default: the coordinator's)");
    cmd->add_flag("--retry", flags->options.retry, "If the coordinator goes away, wait for it and rejoin");
    cmd->add_option("--register-timeout", flags->options.registerTimeoutSeconds,
                    "Seconds of silence from the coordinator before a registration is given up (a coordinator that "
                    "waits for its parameter shards says every second that it lives)")
        ->check(CLI::Range(0.5, 86400.0))
        ->capture_default_str();
    cmd->callback([=, &exitCode] { exitCode = work(*flags, *security); });
}

}  // namespace syncscope::engine
