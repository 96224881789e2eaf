// `syncscope-engine aggregate`: a group aggregator process (see engine/ps/aggregator.h) between a
// coordinator and the workers that connect to it.
#pragma once

#include <CLI/CLI.hpp>

namespace syncscope::engine {

void addAggregateCommand(CLI::App& app, int& exitCode);

}  // namespace syncscope::engine
