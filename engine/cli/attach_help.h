// What `launch` prints once its coordinator listens: where a console attaches, and with which
// credentials. One place for the words, whichever way (Slurm or ssh) the cluster was placed.
#pragma once

#include <string>

#include "engine/cli/security_flags.h"
#include "engine/net/endpoints_line.h"

namespace syncscope::engine {

/// "tcp://0.0.0.0:5556" -> "tcp://node07:5556": where other machines reach what the coordinator bound.
std::string onHost(const std::string& endpoint, const std::string& host);
/// Prints the `attach a console: ...` lines for a coordinator that bound `bound` on `host`.
void printConsoleAttach(const std::string& host, const CoordinatorEndpoints& bound, const SecurityFlags& security);

}  // namespace syncscope::engine
