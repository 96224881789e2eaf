// `syncscope-engine serve`: a coordinator process, and `work`: a worker process. Their flags and
// bodies are shared with `launch`, which runs one or the other in each task of an allocation.
#pragma once

#include <CLI/CLI.hpp>
#include <atomic>
#include <functional>
#include <string>

#include "engine/cli/run_options.h"
#include "engine/cli/security_flags.h"
#include "engine/net/endpoints_line.h"
#include "engine/worker/worker.h"

namespace syncscope::engine {

void addServeCommand(CLI::App& app, int& exitCode);
void addWorkCommand(CLI::App& app, int& exitCode);

/// Where a coordinator listens: --bind and the three ports.
struct ListenFlags {
    std::string bind = "127.0.0.1";
    int dataPort = 5555, controlPort = 5556, telemetryPort = 5557;
    int reportFd = -1;  ///< serve --report-fd: where it listens and how the run ended, as ProcessReports
};
/// Registers --bind, --data-port, --control-port and --telemetry-port (defaults: the fields' values).
void addListenFlags(CLI::App& cmd, ListenFlags& flags);

/// Runs a coordinator for `plan` (a validated one) until its run ends; `onListening` is called once it listens (after the
/// endpoints line). The run stops gracefully when `stop` turns true (default: on SIGINT or SIGTERM,
/// catchInterrupts()). Returns the process's exit code, having printed any error.
int serve(const wire::RunPlan& plan, const SecurityFlags& security, const ListenFlags& listen,
          const std::function<void(const CoordinatorEndpoints&)>& onListening = {},
          const std::atomic<bool>* stop = nullptr);

/// A worker's compute flags as given: --backend, --threads, --coordinator-timeout.
struct WorkFlags {
    WorkerOptions options;
    std::string backend = "auto";
};
void addWorkerComputeFlags(CLI::App& cmd, WorkFlags& flags);

/// Runs a worker for the coordinator at flags.options.connect; returns the exit code.
int work(WorkFlags flags, const SecurityFlags& security);

}  // namespace syncscope::engine
