// syncscope-engine: the engine's command line: train, serve, work, run, aggregate, shard, launch,
// export, experiment, keygen, plan.
#include <CLI/CLI.hpp>

#include <string>

#include "engine/cli/aggregate_command.h"
#include "engine/cli/experiment_command.h"
#include "engine/cli/export_command.h"
#include "engine/cli/keygen_command.h"
#include "engine/cli/plan_command.h"
#include "engine/cli/launch_command.h"
#include "engine/cli/run_command.h"
#include "engine/cli/serve_command.h"
#include "engine/cli/shard_command.h"
#include "engine/cli/train_command.h"
#include "engine/core/process_signals.h"

int main(int argc, char** argv) {
    // A console that started this process may let it outlive the console (its "keep running" answer).
    syncscope::engine::allowOutlivingParent();
    CLI::App app{"SyncScope engine: distributed training on Fashion-MNIST"};
    app.set_version_flag("--version", std::string("syncscope-engine ") + SYNCSCOPE_VERSION);
    app.require_subcommand(1);
    int exitCode = 0;
    syncscope::engine::addTrainCommand(app, exitCode);
    syncscope::engine::addServeCommand(app, exitCode);
    syncscope::engine::addWorkCommand(app, exitCode);
    syncscope::engine::addRunCommand(app, exitCode);
    syncscope::engine::addAggregateCommand(app, exitCode);
    syncscope::engine::addShardCommand(app, exitCode);
    syncscope::engine::addLaunchCommand(app, exitCode);
    syncscope::engine::addExportCommand(app, exitCode);
    syncscope::engine::addExperimentCommand(app, exitCode);
    syncscope::engine::addKeygenCommand(app, exitCode);
    syncscope::engine::addRevokeCommand(app, exitCode);
    syncscope::engine::addPlanCommand(app, exitCode);
    CLI11_PARSE(app, argc, argv);
    return exitCode;
}
