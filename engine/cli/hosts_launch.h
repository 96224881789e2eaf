// `launch --hosts FILE`: the coordinator runs in this process, on the machine where the command is
// typed; each host of the file runs its workers, started over ssh (RemoteWorkers). The run's
// credentials are made here when not given, and each host gets only the worker role's keys.
#pragma once

#include <CLI/CLI.hpp>

#include "engine/cli/launch_flags.h"

namespace syncscope::engine {

/// Registers --hosts, --ssh and --engine.
void addHostsFlags(CLI::App& cmd, LaunchFlags& flags);
/// Runs the whole cluster; returns the exit code, having printed any error.
int launchOnHosts(LaunchFlags& flags, bool credentialsGiven, bool workersGiven);

}  // namespace syncscope::engine
