// `run`: a Cluster on this machine with its own private credentials, followed by runCluster().
#include "engine/cli/run_command.h"

#include <algorithm>

#include "engine/cli/cli_errors.h"
#include "engine/cli/cluster_run.h"
#include "engine/cli/json_output.h"
#include "engine/cli/run_options.h"
#include "engine/model/model_zoo.h"
#include "engine/plan/run_plan.h"

namespace syncscope::engine {
namespace {

int runLocal(const RunOptions& options, bool json) {
    auto plan = toRunPlan(options);
    if (!plan) return printError(plan.status());
    if (plan->spec().model() == kExternalModel && plan->layout().worker_command().empty())
        return printError(invalidArgument(std::string("`run` starts native workers, which cannot train --model ") +
                                          kExternalModel + "; give the command that starts one of your workers with "
                                          "--worker-command \"python3 train.py ...\" (python/), or start the "
                                          "coordinator with `serve --model " + kExternalModel + " --parameters N`"));
    Cluster cluster;
    if (Status s = cluster.secure(); !s) return printError(s);  // its own private credentials
    const wire::RunLayout& layout = plan->layout();
    ClusterRunSettings settings;
    settings.workerArguments = {"--backend", layout.worker_backend().empty() ? "auto" : layout.worker_backend(),
                                "--threads", std::to_string(std::max(1u, layout.worker_threads()))};
    settings.json = json;
    return runCluster(cluster, *plan, settings);
}

}  // namespace

void addRunCommand(CLI::App& app, int& exitCode) {
    auto options = std::make_shared<RunOptions>();
    auto json = std::make_shared<bool>(false);
    CLI::App* cmd = app.add_subcommand("run", "Train with a local cluster: a coordinator and --workers worker processes");
    addPlacementOptions(*cmd, *options);
    addRunOptions(*cmd, *options, true);
    addJsonFlag(*cmd, *json);
    cmd->callback([=, &exitCode] { exitCode = runLocal(*options, *json); });
}

}  // namespace syncscope::engine
