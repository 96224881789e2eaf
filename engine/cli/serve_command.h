// `syncscope-engine serve`: a coordinator process, and `work`: a worker process.
#pragma once

#include <CLI/CLI.hpp>

namespace syncscope::engine {

void addServeCommand(CLI::App& app, int& exitCode);
void addWorkCommand(CLI::App& app, int& exitCode);

}  // namespace syncscope::engine
