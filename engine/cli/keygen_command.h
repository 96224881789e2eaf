// `syncscope-engine keygen`: writes the credentials file of one role (worker, steer or view) from
// a coordinator's credentials, to hand to the workers, a steering console or a class's consoles.
#pragma once

#include <CLI/CLI.hpp>

namespace syncscope::engine {

void addKeygenCommand(CLI::App& app, int& exitCode);

}  // namespace syncscope::engine
