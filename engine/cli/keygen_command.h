// `syncscope-engine keygen`: writes the credentials file of one role (worker, steer or view) from
// a coordinator's credentials, to hand to the workers, a steering console or a class's consoles;
// with --name, a worker's keys of its own. `revoke --name` takes such a worker's keys back.
#pragma once

#include <CLI/CLI.hpp>

namespace syncscope::engine {

void addKeygenCommand(CLI::App& app, int& exitCode);
void addRevokeCommand(CLI::App& app, int& exitCode);

}  // namespace syncscope::engine
