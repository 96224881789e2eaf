// `syncscope-engine train`: flags, data loading, the training loop's progress bar and the result.
#include "engine/cli/train_command.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "engine/backend/backend.h"
#include "engine/cli/cli_errors.h"
#include "engine/cli/cli_validators.h"
#include "engine/cli/json_output.h"
#include "engine/core/progress_bar.h"
#include "engine/model/fashion_mnist.h"
#include "engine/model/model_zoo.h"
#include "engine/model/trainer.h"

namespace syncscope::engine {
namespace {

struct TrainOptions {
    std::string model = "mlp";
    std::string backend = "auto";
    std::string data = defaultFashionMnistDir();
    std::string schedule = "cosine";
    int threads = 0;
    bool json = false;
    TrainConfig config;
};

// FNV-1a over the parameter bytes: two runs print the same value iff they ended bit-for-bit equal.
unsigned long long parameterChecksum(const std::vector<float>& params) {
    unsigned long long hash = 1469598103934665603ULL;
    const auto* bytes = reinterpret_cast<const unsigned char*>(params.data());
    for (size_t i = 0; i < params.size() * sizeof(float); ++i) hash = (hash ^ bytes[i]) * 1099511628211ULL;
    return hash;
}

int runTraining(const TrainOptions& opt) {
    auto kind = parseBackendKind(opt.backend);
    if (!kind) return printError(kind.status());
    std::string notice;
    auto backend = createBackend(*kind, opt.threads, &notice);
    if (!backend)  // the library names the backend; the command line names its flag
        return printError(invalidArgument("--backend " + opt.backend + ": " + backend.status().message() +
                                          " (--backend cpu or auto)"));
    if (!notice.empty()) std::fprintf(stderr, "note: %s\n", notice.c_str());

    auto data = loadFashionMnist(opt.data);
    if (!data) return printError(withDataFlag(data.status()));
    auto model = createModel(**backend, opt.model, opt.config.batch, opt.config.seed);
    if (!model) return printError(model.status());

    std::fprintf(stderr, "training %s (%zu parameters) on %s backend, %d train / %d test images\n", opt.model.c_str(),
                 (*model)->parameterCount(), (*backend)->name().c_str(), data->train.count, data->test.count);
    ProgressBar bar;
    double lastLoss = 0.0;
    const auto start = std::chrono::steady_clock::now();
    auto onProgress = [&](const TrainProgress& p) {
        char suffix[128];
        if (p.test) {
            std::snprintf(suffix, sizeof suffix, "epoch %d/%d  loss %.4f  test acc %.2f%%", p.epoch, p.epochs,
                          lastLoss, 100.0 * p.test->accuracy());
            bar.keep(p.step, p.stepsPerEpoch, suffix);
            return;
        }
        lastLoss = p.recentLoss;
        std::snprintf(suffix, sizeof suffix, "epoch %d/%d  loss %.4f  lr %.4f", p.epoch, p.epochs, lastLoss,
                      p.learningRate);
        bar.update(p.step, p.stepsPerEpoch, suffix);
    };
    const Evaluation result = train(**model, data->train, data->test, opt.config, onProgress);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char checksum[17];
    std::snprintf(checksum, sizeof checksum, "%016llx", parameterChecksum((*model)->downloadParameters()));
    if (opt.json) {
        printJson({{"command", "train"}, {"model", opt.model}, {"backend", (*backend)->name()},
                   {"epochs", opt.config.epochs}, {"test_accuracy", result.accuracy()}, {"correct", result.correct},
                   {"total", result.total}, {"test_loss", result.meanLoss}, {"seconds", seconds},
                   {"parameter_checksum", checksum}});
        return 0;
    }
    std::printf("test accuracy: %.2f%% (%d/%d), test loss %.4f, %.1f s\n", 100.0 * result.accuracy(), result.correct,
                result.total, result.meanLoss, seconds);
    std::printf("parameter checksum: %s\n", checksum);
    return 0;
}

}  // namespace

void addTrainCommand(CLI::App& app, int& exitCode) {
    auto opt = std::make_shared<TrainOptions>();
    CLI::App* cmd = app.add_subcommand("train", "Train a model on Fashion-MNIST in this process and print test accuracy");
    cmd->add_option("--model", opt->model, "Model to train")->check(CLI::IsMember({"mlp", "cnn"}))->capture_default_str();
    cmd->add_option("--epochs", opt->config.epochs, "Passes over the training set")->check(positive("--epochs"))->capture_default_str();
    cmd->add_option("--batch", opt->config.batch, "Mini-batch size")->check(positive("--batch"))->capture_default_str();
    cmd->add_option("--lr", opt->config.sgd.learningRate, "Initial learning rate")->check(positive("--lr"))->capture_default_str();
    cmd->add_option("--momentum", opt->config.sgd.momentum, "SGD momentum")->check(halfOpen("--momentum", 0, 1))->capture_default_str();
    cmd->add_option("--weight-decay", opt->config.sgd.weightDecay, "L2 weight decay")->check(halfOpen("--weight-decay", 0, 1))->capture_default_str();
    cmd->add_option("--schedule", opt->schedule, "Learning-rate schedule")->check(CLI::IsMember({"constant", "cosine"}))->capture_default_str();
    cmd->add_option("--seed", opt->config.seed, "Seed for initialisation and shuffling")->capture_default_str();
    cmd->add_option("--threads", opt->threads, "CPU threads (0: all cores)")->check(CLI::Range(0, 1024))->capture_default_str();
    cmd->add_option("--backend", opt->backend, "Compute backend")->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
    cmd->add_option("--data", opt->data, "Folder with the Fashion-MNIST IDX .gz files")->capture_default_str();
    cmd->add_option("--train-limit", opt->config.trainLimit, "Train on the first N images only (0: all)")->check(CLI::Range(0, 1 << 30));
    addJsonFlag(*cmd, opt->json);
    cmd->callback([opt, &exitCode] {
        opt->config.schedule = opt->schedule == "constant" ? LrSchedule::Constant : LrSchedule::Cosine;
        exitCode = runTraining(*opt);
    });
}

}  // namespace syncscope::engine
