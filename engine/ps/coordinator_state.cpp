// CoordinatorState (see coordinator_state.h): the run's clock, schedule, progress and header.
#include "engine/ps/coordinator_state.h"

#include <fmt/format.h>

#include <cmath>
#include <random>

#include "engine/core/version.h"
#include "engine/model/model_zoo.h"
#include "engine/net/protocol.h"

namespace syncscope::engine {

CoordinatorState::CoordinatorState(const CoordinatorOptions& opts, std::vector<float> initial, uint64_t trainingSetSize)
    : options(opts),
      trainCount(0),
      store(std::move(initial), SgdSettings{opts.spec.learning_rate(), opts.spec.momentum(), opts.spec.weight_decay()}),
      mode(opts.mode),
      startTime(Clock::now()) {
    options.spec.set_parameter_count(store.size());
    options.spec.set_eval_interval_seconds(options.evalIntervalSeconds);
    setTrainCount(trainingSetSize);
    awaitingInitialParameters = external();
    runId = std::random_device{}() * 0x100000000ULL + std::random_device{}();
    startUnixMs = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                            std::chrono::system_clock::now().time_since_epoch())
                                            .count());
}

bool CoordinatorState::external() const { return options.spec.model() == kExternalModel; }

void CoordinatorState::setTrainCount(uint64_t count) {
    trainCount = count;
    options.spec.set_train_examples(count);
}

double CoordinatorState::epochsDone() const {
    return trainCount > 0 ? double(totals.samples) / double(trainCount) : 0.0;
}

double CoordinatorState::elapsedSeconds() const {
    return std::chrono::duration<double>(Clock::now() - startTime).count();
}

double CoordinatorState::trainingSeconds() const {
    return trainingSecondsBefore + (started ? std::chrono::duration<double>(Clock::now() - trainingStart).count() : 0.0);
}

float CoordinatorState::scheduledLearningRate() const {
    const float base = store.sgd().learningRate;
    if (!options.cosineSchedule || options.maxEpochs <= 0) return base;
    const double done = std::min(1.0, epochsDone() / options.maxEpochs);
    return static_cast<float>(0.5 * base * (1.0 + std::cos(M_PI * done)));
}

double CoordinatorState::progress() const {
    if (state == wire::RUN_STOPPED) return 1.0;
    double p = 0.0;
    if (options.maxSeconds > 0) p = std::max(p, trainingSeconds() / options.maxSeconds);
    if (options.maxEpochs > 0) p = std::max(p, epochsDone() / options.maxEpochs);
    if (options.targetAccuracy > 0 && lastEvaluation) p = std::max(p, lastEvaluation->accuracy / options.targetAccuracy);
    return std::min(1.0, p);
}

std::string CoordinatorState::stopReason() const {
    if (state == wire::RUN_STOPPED || !started) return {};
    if (options.maxSeconds > 0 && trainingSeconds() >= options.maxSeconds)
        return fmt::format("time limit of {:.0f} s reached", options.maxSeconds);
    if (options.maxEpochs > 0 && epochsDone() >= options.maxEpochs)
        return fmt::format("{:.2f} epochs done", options.maxEpochs);
    if (options.targetAccuracy > 0 && lastEvaluation && lastEvaluation->accuracy >= options.targetAccuracy)
        return fmt::format("test accuracy {:.2f}% reached the target {:.2f}%", 100 * lastEvaluation->accuracy,
                           100 * options.targetAccuracy);
    return {};
}

std::string CoordinatorState::authentication() const {
    if (!options.credentials) return "none";
    return options.plainDataPlane ? "curve, data plane plain" : "curve";
}

wire::RecordingHeader CoordinatorState::header() const {
    wire::RecordingHeader h;
    h.set_protocol_major(kProtocolMajor);
    h.set_protocol_minor(kProtocolMinor);
    *h.mutable_spec() = options.spec;
    *h.mutable_mode() = mode;
    h.set_start_unix_ms(startUnixMs);
    h.set_run_id(runId);
    h.set_expected_workers(options.expectedWorkers);
    h.set_writer(std::string(kSyncScopeVersion));
    return h;
}

}  // namespace syncscope::engine
