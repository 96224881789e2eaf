// `aggregate`: flags into an Aggregator, its endpoint line, and what it did at the end.
#include "engine/cli/aggregate_command.h"

#include <cstdio>
#include <memory>
#include <string>

#include "engine/cli/cli_errors.h"
#include "engine/cli/security_flags.h"
#include "engine/core/process_signals.h"
#include "engine/ps/aggregator.h"

namespace syncscope::engine {
namespace {

struct AggregateFlags {
    AggregatorOptions options;
    SecurityFlags security;
};

}  // namespace

int aggregate(AggregatorOptions options, const SecurityFlags& security) {
    auto credentials = relayCredentials(security, options.bindHost, "group aggregator");
    if (!credentials) return printError(credentials.status());
    options.credentials = std::move(*credentials);
    options.plainDataPlane = security.plainDataPlane();
    options.interrupted = &catchInterrupts();
    Aggregator aggregator(options);
    if (Status s = aggregator.start(); !s) return printError(s, 3);
    std::printf("%s%s\n", kAggregatorLinePrefix, aggregator.endpoint().c_str());
    std::fflush(stdout);
    const Status status = aggregator.run();
    const AggregatorStats& s = aggregator.stats();
    std::fprintf(stderr,
                 "aggregator: %llu gradients in %llu sums (%llu sent before every member arrived), parameters fanned "
                 "out to %llu workers from %llu messages, %llu messages relayed one by one\n",
                 static_cast<unsigned long long>(s.summed), static_cast<unsigned long long>(s.sums),
                 static_cast<unsigned long long>(s.partialSums), static_cast<unsigned long long>(s.fannedOut),
                 static_cast<unsigned long long>(s.fanouts), static_cast<unsigned long long>(s.relayed));
    return status ? 0 : printError(status, 3);
}

void addAggregateCommand(CLI::App& app, int& exitCode) {
    auto flags = std::make_shared<AggregateFlags>();
    CLI::App* cmd = app.add_subcommand(
        "aggregate", "Run a group aggregator: workers connect to it, it sums their rounds for the coordinator at --connect");
    cmd->add_option("--connect", flags->options.connect, "The coordinator's data endpoint, e.g. tcp://host:5555")->required();
    cmd->add_option("--bind", flags->options.bindHost, "Address its workers connect to (0.0.0.0 for a cluster)")->capture_default_str();
    cmd->add_option("--port", flags->options.port, "Port for its workers (0: any free port)")->check(CLI::Range(0, 65535))->capture_default_str();
    cmd->add_option("--advertise", flags->options.advertise,
                    "The endpoint workers dial when it is not the bound one (e.g. tcp://node7:6000)");
    addSecurityFlags(*cmd, flags->security, true);
    cmd->callback([=, &exitCode] { exitCode = aggregate(flags->options, flags->security); });
}

}  // namespace syncscope::engine
