// syncscope-engine: the engine's command line (train now; serve, work and run join it later).
#include <CLI/CLI.hpp>

#include "engine/cli/train_command.h"

int main(int argc, char** argv) {
    CLI::App app{"SyncScope engine: distributed training on Fashion-MNIST"};
    app.require_subcommand(1);
    int exitCode = 0;
    syncscope::engine::addTrainCommand(app, exitCode);
    CLI11_PARSE(app, argc, argv);
    return exitCode;
}
