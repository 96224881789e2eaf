// keygen (see keygen_command.h).
#include "engine/cli/keygen_command.h"

#include <cstdio>
#include <memory>

#include "engine/cli/cli_errors.h"
#include "engine/net/credentials.h"

namespace syncscope::engine {
namespace {

struct KeygenFlags {
    std::string credentials = defaultCredentialsPath(), role, out;
};

int keygen(const KeygenFlags& f) {
    auto role = parseRole(f.role);
    if (!role) return printError(role.status());
    bool created = false;
    auto all = Credentials::loadOrCreate(f.credentials, &created);
    if (!all) return printError(invalidArgument("--credentials: " + all.status().message()));
    if (Status s = all->forRole(*role).save(f.out); !s) return printError(s);
    std::fprintf(stderr, "%s%s: the %s role's keys for the coordinator of %s (mode 0600; hand it over privately)\n",
                 created ? ("created " + f.credentials + "; ").c_str() : "", f.out.c_str(), f.role.c_str(),
                 f.credentials.c_str());
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
    cmd->callback([f, &exitCode] { exitCode = keygen(*f); });
}

}  // namespace syncscope::engine
