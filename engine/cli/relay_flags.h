// The flags and set-up the relay commands share (`aggregate`, `shard`: server processes between the
// workers and a coordinator): where they connect and listen, their credentials, and Ctrl-C.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "engine/cli/security_flags.h"
#include "engine/relay/relay_process.h"

namespace syncscope::engine {

struct RelayFlags {
    RelayOptions options;
    SecurityFlags security;
    int reportFd = -1;  ///< --report-fd: where it listens, as a ProcessReport
};

/// Registers --connect (required), --bind, --port, --advertise, --report-fd and the security flags.
void addRelayFlags(CLI::App& cmd, RelayFlags& flags);
/// The relay's credentials (the coordinator's file; none with --insecure, loopback only), its data
/// plane and its interrupt flag, into `options`; `what` names it in errors ("parameter shard").
Status prepareRelay(RelayOptions& options, const SecurityFlags& security, const std::string& what);
/// Tells where the relay listens: `prefix` and the endpoint on stdout, for people, and a ProcessReport
/// on --report-fd when one was given, for the program that started it.
Status announceRelay(const RelayFlags& flags, const char* prefix, const std::string& endpoint);

}  // namespace syncscope::engine
