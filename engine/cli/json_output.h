// --json on the engine's commands: one JSON object of results on standard output (one line), so a
// script can read it; progress bars, notes and warnings stay on standard error.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>

namespace syncscope::engine {

/// Adds the --json flag to `command`, setting `json`.
void addJsonFlag(CLI::App& command, bool& json);

/// Prints `result` as one line on standard output and flushes it.
void printJson(const nlohmann::json& result);

/// Where a command's human-readable results go: standard error under --json, else standard output.
inline std::FILE* textOutput(bool json) { return json ? stderr : stdout; }

}  // namespace syncscope::engine
