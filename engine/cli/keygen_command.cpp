// keygen and revoke (see keygen_command.h).
#include "engine/cli/keygen_command.h"

#include <cstdio>
#include <memory>

#include "engine/cli/cli_errors.h"
#include "engine/net/credentials.h"

namespace syncscope::engine {
namespace {

struct KeygenFlags {
    std::string credentials = defaultCredentialsPath(), role, out, name;
};

int keygen(const KeygenFlags& f) {
    auto role = parseRole(f.role);
    if (!role) return printError(role.status());
    if (!f.name.empty() && *role != Role::Worker)
        return printError(invalidArgument("--name issues a worker's own keys (--role worker); steer and view "
                                          "files share their role's pair"));
    bool created = false;
    auto all = Credentials::loadOrCreate(f.credentials, &created);
    if (!all) return printError(invalidArgument("--credentials: " + all.status().message()));
    if (f.name.empty()) {
        if (Status s = all->forRole(*role).save(f.out); !s) return printError(s);
        std::fprintf(stderr, "%s%s: the %s role's keys for the coordinator of %s (mode 0600; hand it over privately)\n",
                     created ? ("created " + f.credentials + "; ").c_str() : "", f.out.c_str(), f.role.c_str(),
                     f.credentials.c_str());
        return 0;
    }
    auto own = all->issueNamedWorker(f.name);
    if (!own) return printError(invalidArgument("--name: " + own.status().message()));
    // The worker's file first: a coordinator's file never names keys nobody holds.
    if (Status s = own->save(f.out); !s) return printError(s);
    if (Status s = all->save(f.credentials); !s) return printError(s);
    std::fprintf(stderr,
                 "%s%s: keys of their own for the worker '%s' of the coordinator of %s (mode 0600; hand it over "
                 "privately). A running coordinator admits them within a second; `syncscope-engine revoke --name %s` "
                 "cuts that worker off\n",
                 created ? ("created " + f.credentials + "; ").c_str() : "", f.out.c_str(), f.name.c_str(),
                 f.credentials.c_str(), f.name.c_str());
    return 0;
}

struct RevokeFlags {
    std::string credentials = defaultCredentialsPath(), name;
};

int revoke(const RevokeFlags& f) {
    auto all = Credentials::load(f.credentials);
    if (!all) return printError(invalidArgument("--credentials: " + all.status().message()));
    if (all->serverSecret.empty())
        return printError(invalidArgument("--credentials " + f.credentials +
                                          " is a client's file; revoke in the coordinator's (the one `serve` made)"));
    if (!all->namedWorkers.erase(f.name)) {
        std::string known;
        for (const auto& [name, worker] : all->namedWorkers) known += (known.empty() ? "" : ", ") + name;
        return printError(invalidArgument(
            "no worker is named '" + f.name + "' in " + f.credentials + " (" +
            (known.empty() ? std::string("it names none: workers sharing the worker role's file are revoked only by new "
                                         "credentials for the whole run")
                           : "it names " + known) +
            ")"));
    }
    if (Status s = all->save(f.credentials); !s) return printError(s);
    std::fprintf(stderr,
                 "revoked the keys of worker '%s' in %s: a running coordinator, and relays reading this file, cut "
                 "its connections off within about a second and refuse it from then on\n",
                 f.name.c_str(), f.credentials.c_str());
    return 0;
}

}  // namespace

void addKeygenCommand(CLI::App& app, int& exitCode) {
    auto f = std::make_shared<KeygenFlags>();
    CLI::App* cmd = app.add_subcommand("keygen", "Write the credentials file of one role (worker, steer, view) for a coordinator");
    cmd->add_option("--credentials", f->credentials, "The coordinator's credentials (created when missing)")->capture_default_str();
    cmd->add_option("--role", f->role, "worker (data plane), steer (every command) or view (watch only)")
        ->required()->check(CLI::IsMember({"worker", "steer", "view"}));
    cmd->add_option("--out", f->out, "The file to write (mode 0600)")->required();
    cmd->add_option("--name", f->name,
                    "A worker's own keys under this name (recorded in the coordinator's file), so that `revoke` can "
                    "cut that one worker off");
    cmd->callback([f, &exitCode] { exitCode = keygen(*f); });
}

void addRevokeCommand(CLI::App& app, int& exitCode) {
    auto f = std::make_shared<RevokeFlags>();
    CLI::App* cmd = app.add_subcommand("revoke", "Revoke a named worker's keys (from keygen --name); a running "
                                                 "coordinator cuts that worker off");
    cmd->add_option("--credentials", f->credentials, "The coordinator's credentials")->capture_default_str();
    cmd->add_option("--name", f->name, "The worker's name given to keygen --name")->required();
    cmd->callback([f, &exitCode] { exitCode = revoke(*f); });
}

}  // namespace syncscope::engine
