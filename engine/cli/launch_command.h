// `syncscope-engine launch --slurm`: one command for every task of a Slurm job step; task 0 runs
// the coordinator (as `serve`), the others run workers (as `work`) that connect to it. With
// `--hosts FILE` instead, the Cluster runs the coordinator here and the workers over ssh (hosts_launch.h).
#pragma once

#include <CLI/CLI.hpp>

namespace syncscope::engine {

void addLaunchCommand(CLI::App& app, int& exitCode);

}  // namespace syncscope::engine
