// `syncscope-engine experiment`: the seeds' protocol (modes × straggler delays × seeds), each run a
// local cluster recorded to a file, summarised as medians in CSV, Markdown and (syncscope-plot) PNG.
#pragma once

#include <CLI/CLI.hpp>

namespace syncscope::engine {

void addExperimentCommand(CLI::App& app, int& exitCode);

}  // namespace syncscope::engine
