// `syncscope-engine plan`: the run plan's defaults as protobuf text, and the engine's check of a plan
// file. A program that starts coordinators (the Python package) builds its plan from these defaults
// instead of keeping its own copy, and `serve --plan` runs the file.
#pragma once

#include <CLI/CLI.hpp>

namespace syncscope::engine {

void addPlanCommand(CLI::App& app, int& exitCode);

}  // namespace syncscope::engine
