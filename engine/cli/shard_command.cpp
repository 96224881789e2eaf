// `shard`: flags into a ParameterShard, its endpoint line, and what it did at the end.
#include "engine/cli/shard_command.h"

#include <cstdio>
#include <memory>

#include "engine/cli/cli_errors.h"
#include "engine/cli/relay_flags.h"
#include "engine/net/endpoints_line.h"

namespace syncscope::engine {
namespace {

unsigned long long n(uint64_t value) { return static_cast<unsigned long long>(value); }

}  // namespace

int serveShard(const RelayFlags& flags) {
    RelayOptions options = flags.options;
    if (Status s = prepareRelay(options, flags.security, "parameter shard"); !s) return printError(s);
    ParameterShard shard(options);
    if (Status s = shard.start(); !s) return printError(s, 3);
    if (Status s = announceRelay(flags, kShardLinePrefix, shard.endpoint()); !s) return printError(s, 3);
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
    auto flags = std::make_shared<RelayFlags>();
    CLI::App* cmd = app.add_subcommand(
        "shard", "Run a parameter shard: it holds one range of the model of the coordinator at --connect "
                 "(serve --shards S), and its workers push and pull that range here");
    addRelayFlags(*cmd, *flags);
    cmd->callback([=, &exitCode] { exitCode = serveShard(*flags); });
}

}  // namespace syncscope::engine
