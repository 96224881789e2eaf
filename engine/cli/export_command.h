// `syncscope-engine export REC --format csv|jsonl|tfevents|trace`: a run recording for other tools.
#pragma once

#include <CLI/CLI.hpp>

namespace syncscope::engine {

/// Adds the `export` subcommand to app; its callback writes the export and records the exit code.
void addExportCommand(CLI::App& app, int& exitCode);

}  // namespace syncscope::engine
