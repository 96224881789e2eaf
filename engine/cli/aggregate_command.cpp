// `aggregate`: flags into an Aggregator, its endpoint line, and what it did at the end.
#include "engine/cli/aggregate_command.h"

#include <cstdio>
#include <memory>
#include <string>

#include "engine/cli/cli_errors.h"
#include "engine/cli/relay_flags.h"
#include "engine/net/endpoints_line.h"
#include "engine/relay/aggregator.h"

namespace syncscope::engine {

int aggregate(const RelayFlags& flags) {
    RelayOptions options = flags.options;
    if (Status s = prepareRelay(options, flags.security, "group aggregator"); !s) return printError(s);
    Aggregator aggregator(options);
    if (Status s = aggregator.start(); !s) return printError(s, 3);
    if (Status s = announceRelay(flags, kAggregatorLinePrefix, aggregator.endpoint()); !s) return printError(s, 3);
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
    auto flags = std::make_shared<RelayFlags>();
    CLI::App* cmd = app.add_subcommand(
        "aggregate", "Run a group aggregator: workers connect to it, it sums their rounds for the coordinator at --connect");
    addRelayFlags(*cmd, *flags);
    cmd->callback([=, &exitCode] { exitCode = aggregate(*flags); });
}

}  // namespace syncscope::engine
