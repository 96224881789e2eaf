// `syncscope-engine aggregate`: a group aggregator process (see engine/relay/aggregator.h) between a
// coordinator and the workers that connect to it.
#pragma once

#include <CLI/CLI.hpp>

#include "engine/cli/relay_flags.h"
#include "engine/relay/aggregator.h"

namespace syncscope::engine {

void addAggregateCommand(CLI::App& app, int& exitCode);

/// Runs an aggregator until its run ends (its endpoint line first, what it did last); returns the
/// process's exit code, having printed any error. `launch --slurm` runs one in its aggregator tasks.
int aggregate(const RelayFlags& flags);

}  // namespace syncscope::engine
