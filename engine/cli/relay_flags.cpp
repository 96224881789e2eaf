// The relay commands' shared flags (see relay_flags.h).
#include "engine/cli/relay_flags.h"

#include <cstdio>

#include "engine/cli/report_fd_flag.h"
#include "engine/core/process_signals.h"
#include "engine/net/process_report.h"

namespace syncscope::engine {

void addRelayFlags(CLI::App& cmd, RelayFlags& f) {
    cmd.add_option("--connect", f.options.connect, "The coordinator's data endpoint, e.g. tcp://host:5555")->required();
    cmd.add_option("--bind", f.options.bindHost, "Address its workers connect to (0.0.0.0 for a cluster)")->capture_default_str();
    cmd.add_option("--port", f.options.port, "Port for its workers (0: any free port)")->check(CLI::Range(0, 65535))->capture_default_str();
    cmd.add_option("--advertise", f.options.advertise,
                   "The endpoint workers dial when it is not the bound one (e.g. tcp://node7:6000)");
    cmd.add_option("--coordinator-timeout", f.options.coordinatorTimeoutSeconds,
                   "Seconds of silence from the coordinator before it is given up (it answers every heartbeat)")
        ->check(CLI::Range(1.0, 3600.0))
        ->capture_default_str();
    cmd.add_option("--register-timeout", f.options.registerTimeoutSeconds,
                   "Seconds to wait for the coordinator's answer to its registration (a standby shard waits "
                   "this long for a place to fall vacant)")
        ->check(CLI::Range(1.0, 86400.0))
        ->capture_default_str();
    addReportFdFlag(cmd, f.reportFd, "where it listens");
    addSecurityFlags(cmd, f.security, true);
}

Status announceRelay(const RelayFlags& flags, const char* prefix, const std::string& endpoint) {
    std::printf("%s%s\n", prefix, endpoint.c_str());
    std::fflush(stdout);
    if (flags.reportFd < 0) return Status::ok();
    wire::ProcessReport report;
    report.set_relay_endpoint(endpoint);
    return writeProcessReport(flags.reportFd, report);
}

Status prepareRelay(RelayOptions& options, const SecurityFlags& security, const std::string& what) {
    auto credentials = relayCredentials(security, options.bindHost, what);
    if (!credentials) return credentials.status();
    options.credentials = std::move(*credentials);
    if (options.credentials) options.credentialsPath = security.credentials;
    options.plainDataPlane = security.plainDataPlane();
    options.interrupted = &catchInterrupts();
    return Status::ok();
}

}  // namespace syncscope::engine
