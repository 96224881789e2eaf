// `syncscope-engine train`: single-process training on Fashion-MNIST with a progress bar.
#pragma once

#include <CLI/CLI.hpp>

namespace syncscope::engine {

/// Adds the `train` subcommand to app; its callback runs the training and records the exit code.
void addTrainCommand(CLI::App& app, int& exitCode);

}  // namespace syncscope::engine
