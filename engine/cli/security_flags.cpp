// Security flags (see security_flags.h).
#include "engine/cli/security_flags.h"

#include <cstdio>

namespace syncscope::engine {

void addSecurityFlags(CLI::App& cmd, SecurityFlags& f, bool forServer) {
    cmd.add_option("--credentials", f.credentials,
                   forServer ? "Credentials file (created 0600 when missing; hand out role files made by keygen)"
                             : "Credentials file holding this client's role keys (from keygen, or the coordinator's)")
        ->capture_default_str();
    cmd.add_option("--data-plane", f.dataPlane,
                   "encrypted (CURVE) or authenticated (workers' token checked, tensors in the clear: for a "
                   "trusted cluster fabric)")
        ->check(CLI::IsMember({"encrypted", "authenticated"}))
        ->capture_default_str();
    cmd.add_flag("--insecure", f.insecure,
                 forServer ? "No authentication at all: anyone who can reach the ports may steer (loopback binds only)"
                           : "Connect without authentication (to a coordinator run with --insecure)");
}

Status checkInsecureBind(const SecurityFlags& f, const std::string& bindHost) {
    if (f.insecure && !isLoopbackHost(bindHost))
        return invalidArgument("--insecure may only listen on loopback (--bind 127.0.0.1), not on " + bindHost +
                               ": on a network, anyone could steer the run");
    return Status::ok();
}

Result<std::optional<Credentials>> serverCredentials(const SecurityFlags& f, const std::string& bindHost) {
    if (Status s = checkInsecureBind(f, bindHost); !s) return s;
    if (f.insecure) return std::optional<Credentials>();
    bool created = false;
    auto credentials = Credentials::loadOrCreate(f.credentials, &created);
    if (!credentials) return invalidArgument("--credentials: " + credentials.status().message());
    std::fprintf(stderr, "credentials: %s%s; give workers `syncscope-engine keygen --credentials %s --role worker`\n",
                 f.credentials.c_str(), created ? " (created)" : "", f.credentials.c_str());
    return std::optional<Credentials>(std::move(*credentials));
}

Result<std::optional<Credentials>> relayCredentials(const SecurityFlags& f, const std::string& bindHost,
                                                    const std::string& what) {
    if (Status s = checkInsecureBind(f, bindHost); !s) return s;
    if (f.insecure) return std::optional<Credentials>();
    auto credentials = Credentials::load(f.credentials);
    if (!credentials) return credentials.status();
    if (credentials->serverSecret.empty() || !credentials->clients.count(Role::Worker))
        return invalidArgument("a " + what + " serves workers with the coordinator's key and joins it as a worker: give "
                               "it the coordinator's credentials file (the one `serve` made, or `keygen`), not a "
                               "client's (" + f.credentials + ")");
    return std::optional<Credentials>(std::move(*credentials));
}

Result<std::optional<Credentials>> clientCredentials(const SecurityFlags& f, Role role) {
    if (f.insecure) return std::optional<Credentials>();
    auto credentials = Credentials::load(f.credentials);
    if (!credentials)
        return invalidArgument("--credentials: " + credentials.status().message() +
                               " (ask whoever runs the coordinator for a " + roleName(role) +
                               " file: `syncscope-engine keygen --role " + roleName(role) +
                               "`; or pass --insecure for a coordinator without authentication)");
    const bool hasPair = credentials->clients.count(role) > 0;
    const bool hasToken = role == Role::Worker && f.plainDataPlane() && !credentials->workerToken.empty();
    if (!hasPair && !hasToken)
        return invalidArgument("--credentials " + f.credentials + " holds no " + roleName(role) + " keys");
    return std::optional<Credentials>(std::move(*credentials));
}

}  // namespace syncscope::engine
