// `syncscope-engine run`: a local cluster (coordinator + N workers) with a progress bar.
#pragma once

#include <CLI/CLI.hpp>

namespace syncscope::engine {

void addRunCommand(CLI::App& app, int& exitCode);

}  // namespace syncscope::engine
