// Trainer: single-process training of a Model on a dataset split, epoch by epoch, with a
// progress callback and a test evaluation after each epoch. Workers reuse its pieces, not it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "engine/model/evaluator.h"
#include "engine/model/fashion_mnist.h"
#include "engine/model/model.h"
#include "engine/model/sgd_optimizer.h"

namespace syncscope::engine {

enum class LrSchedule { Constant, Cosine };

struct TrainConfig {
    int epochs = 10;
    int batch = 64;
    SgdSettings sgd;
    LrSchedule schedule = LrSchedule::Cosine;
    uint64_t seed = 1;
    int trainLimit = 0;  ///< use only the first N training samples (0: all), for quick runs
};

struct TrainProgress {
    int epoch = 0, epochs = 0;
    long long step = 0, stepsPerEpoch = 0;
    float learningRate = 0.0f;
    double recentLoss = 0.0;          ///< mean training loss over the last few steps
    const Evaluation* test = nullptr;  ///< set once per epoch, after its evaluation
};

using ProgressCallback = std::function<void(const TrainProgress&)>;

/// Learning rate at `step` of `totalSteps` under the schedule (cosine decays to zero at the end).
float scheduledLearningRate(const TrainConfig& config, long long step, long long totalSteps);

/// Trains `model` on `train`, evaluating on `test` after each epoch; returns the final evaluation.
Evaluation train(Model& model, const ImageDataset& train, const ImageDataset& test, const TrainConfig& config,
                 const ProgressCallback& onProgress);

}  // namespace syncscope::engine
