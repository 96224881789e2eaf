// `syncscope-engine shard`: a parameter shard process (see engine/relay/parameter_shard.h) that holds
// one range of a coordinator's model for the workers of a run started with `serve --shards S`.
#pragma once

#include <CLI/CLI.hpp>

#include "engine/cli/relay_flags.h"
#include "engine/relay/parameter_shard.h"

namespace syncscope::engine {

void addShardCommand(CLI::App& app, int& exitCode);

/// Runs a shard until its run ends (its endpoint line first, what it did last); returns the
/// process's exit code, having printed any error.
int serveShard(const RelayFlags& flags);

}  // namespace syncscope::engine
