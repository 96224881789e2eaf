// The security flags every command that talks to a coordinator shares: which credentials file,
// whether the data plane is encrypted or only authenticated, and --insecure (loopback only).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "engine/net/credentials.h"

namespace syncscope::engine {

struct SecurityFlags {
    std::string credentials = defaultCredentialsPath();
    std::string dataPlane = "encrypted";  ///< or "authenticated"
    bool insecure = false;

    bool plainDataPlane() const { return dataPlane == "authenticated"; }
};

/// Registers --credentials, --data-plane and --insecure; `forServer` changes their help.
void addSecurityFlags(CLI::App& cmd, SecurityFlags& flags, bool forServer);
/// Refuses --insecure unless `bindHost` is a loopback address.
Status checkInsecureBind(const SecurityFlags& flags, const std::string& bindHost);
/// A coordinator's credentials: loaded, or created (0600) when the file is missing; none with --insecure,
/// which is refused unless `bindHost` is a loopback address.
Result<std::optional<Credentials>> serverCredentials(const SecurityFlags& flags, const std::string& bindHost);
/// The credentials of a server process between workers and a coordinator (a group aggregator, a
/// parameter shard, named by `what`): the coordinator's own file, whose key serves the workers and
/// whose worker pair joins the coordinator; none with --insecure (loopback only).
Result<std::optional<Credentials>> relayCredentials(const SecurityFlags& flags, const std::string& bindHost,
                                                    const std::string& what);
/// A client's credentials for `role`: the file must hold that role's key pair (or, for workers on an
/// authenticated data plane, the worker token); none with --insecure.
Result<std::optional<Credentials>> clientCredentials(const SecurityFlags& flags, Role role);

}  // namespace syncscope::engine
