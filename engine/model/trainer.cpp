// Trainer: shuffled mini-batches (seeded), SGD steps and per-epoch evaluation.
#include "engine/model/trainer.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "engine/core/rng.h"
#include "engine/model/batch_feeder.h"
#include "engine/model/training_step.h"

namespace syncscope::engine {

float scheduledLearningRate(const TrainConfig& config, long long step, long long totalSteps) {
    const float base = config.sgd.learningRate;
    if (config.schedule == LrSchedule::Constant || totalSteps <= 0) return base;
    const double progress = std::min(1.0, static_cast<double>(step) / static_cast<double>(totalSteps));
    return static_cast<float>(0.5 * base * (1.0 + std::cos(M_PI * progress)));
}

Evaluation train(Model& model, const ImageDataset& train, const ImageDataset& test, const TrainConfig& config,
                 const ProgressCallback& onProgress) {
    Backend& backend = model.backend();
    const int samples = config.trainLimit > 0 ? std::min(config.trainLimit, train.count) : train.count;
    const long long stepsPerEpoch = (samples + config.batch - 1) / config.batch;
    const long long totalSteps = stepsPerEpoch * config.epochs;

    BatchFeeder feeder(backend, train, config.batch);
    SgdOptimizer optimizer(backend, model.parameterCount(), config.sgd);
    TrainingStep trainingStep(model, optimizer, feeder.images(), feeder.labels());
    Rng rng(config.seed ^ 0x5eed5eedULL);
    std::vector<int32_t> order(samples);
    std::iota(order.begin(), order.end(), 0);

    Evaluation last;
    long long step = 0;
    double lossWindow = 0.0;
    int lossCount = 0;
    for (int epoch = 1; epoch <= config.epochs; ++epoch) {
        rng.shuffle(order);
        for (long long s = 0; s < stepsPerEpoch; ++s, ++step) {
            const size_t first = static_cast<size_t>(s) * config.batch;
            const int n = feeder.stage(order, first, std::min<int>(config.batch, samples - static_cast<int>(first)));
            const float lr = scheduledLearningRate(config, step, totalSteps);
            trainingStep.run(n, lr);
            const float loss = model.meanLoss(n);
            lossWindow += loss;
            ++lossCount;
            if (onProgress && (s % 20 == 19 || s + 1 == stepsPerEpoch)) {
                onProgress({epoch, config.epochs, s + 1, stepsPerEpoch, lr, lossWindow / lossCount, nullptr});
                lossWindow = 0.0;
                lossCount = 0;
            }
        }
        last = evaluate(model, test);
        if (onProgress)
            onProgress({epoch, config.epochs, stepsPerEpoch, stepsPerEpoch,
                        scheduledLearningRate(config, step, totalSteps), 0.0, &last});
    }
    return last;
}

}  // namespace syncscope::engine
