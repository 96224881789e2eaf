// What `launch` prints once its coordinator listens: where a console attaches, and with which
// credentials. One place for the words, whichever way (Slurm or ssh) the cluster was placed.
#pragma once

#include <string>

#include "engine/cli/security_flags.h"
#include "engine/net/endpoints_line.h"

namespace syncscope::engine {

/// Prints the `attach a console: ...` lines for a coordinator that bound `bound` on `host`.
void printConsoleAttach(const std::string& host, const CoordinatorEndpoints& bound, const SecurityFlags& security);

}  // namespace syncscope::engine
