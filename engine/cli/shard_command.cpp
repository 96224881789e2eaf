// `shard`: flags into a ParameterShard, its endpoint line, and what it did at the end.
#include "engine/cli/shard_command.h"

#include <cstdio>
#include <memory>

#include "engine/cli/cli_errors.h"
#include "engine/core/process_signals.h"

namespace syncscope::engine {
namespace {

struct ShardFlags {
    ShardOptions options;
    SecurityFlags security;
};

unsigned long long n(uint64_t value) { return static_cast<unsigned long long>(value); }

}  // namespace

int serveShard(ShardOptions options, const SecurityFlags& security) {
    auto credentials = relayCredentials(security, options.bindHost, "parameter shard");
    if (!credentials) return printError(credentials.status());
    options.credentials = std::move(*credentials);
    options.plainDataPlane = security.plainDataPlane();
    options.interrupted = &catchInterrupts();
    ParameterShard shard(options);
    if (Status s = shard.start(); !s) return printError(s, 3);
    std::printf("%s%s\n", kShardLinePrefix, shard.endpoint().c_str());
    std::fflush(stdout);
    std::fprintf(stderr, "shard %u: parameters [%llu, %llu) of the model, for workers at %s\n", shard.range().index(),
                 n(shard.range().begin()), n(shard.range().end()), shard.endpoint().c_str());
    const Status status = shard.run();
    const ShardStats s = shard.stats();
    std::fprintf(stderr,
                 "shard %u: %llu updates of %llu gradient ranges (%llu received, %llu dropped, %llu let go unused); "
                 "pulls: %llu of the version asked, %llu waited for it, %llu of another version; at most %zu "
                 "versions kept for workers still to pull\n",
                 shard.range().index(), n(s.updates), n(s.terms), n(s.slices), n(s.forgotten), n(s.evicted),
                 n(s.pullsExact), n(s.pullsWaited), n(s.pullsOther), s.mostVersionsKept);
    return status ? 0 : printError(status, 3);
}

void addShardCommand(CLI::App& app, int& exitCode) {
    auto flags = std::make_shared<ShardFlags>();
    CLI::App* cmd = app.add_subcommand(
        "shard", "Run a parameter shard: it holds one range of the model of the coordinator at --connect "
                 "(serve --shards S), and its workers push and pull that range here");
    cmd->add_option("--connect", flags->options.connect, "The coordinator's data endpoint, e.g. tcp://host:5555")->required();
    cmd->add_option("--bind", flags->options.bindHost, "Address its workers connect to (0.0.0.0 for a cluster)")->capture_default_str();
    cmd->add_option("--port", flags->options.port, "Port for its workers (0: any free port)")->check(CLI::Range(0, 65535))->capture_default_str();
    cmd->add_option("--advertise", flags->options.advertise,
                    "The endpoint workers dial when it is not the bound one (e.g. tcp://node7:6100)");
    addSecurityFlags(*cmd, flags->security, true);
    cmd->callback([=, &exitCode] { exitCode = serveShard(flags->options, flags->security); });
}

}  // namespace syncscope::engine
