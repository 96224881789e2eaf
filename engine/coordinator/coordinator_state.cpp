// CoordinatorState (see coordinator_state.h): the run's clock, schedule, progress and header.
#include "engine/coordinator/coordinator_state.h"

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
      store(std::move(initial), SgdSettings{opts.plan.spec().learning_rate(), opts.plan.spec().momentum(), opts.plan.spec().weight_decay()}),
      mode(opts.plan.mode()),
      startTime(Clock::now()) {
    options.plan.mutable_spec()->set_parameter_count(store.size());
    store.setBufferCount(options.plan.spec().buffer_count());
    setTrainCount(trainingSetSize);
    awaitingInitialParameters = external();
    runId = std::random_device{}() * 0x100000000ULL + std::random_device{}();
    startUnixMs = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                            std::chrono::system_clock::now().time_since_epoch())
                                            .count());
}

bool CoordinatorState::external() const { return options.plan.spec().model() == kExternalModel; }

void CoordinatorState::setTrainCount(uint64_t count) {
    trainCount = count;
    options.plan.mutable_spec()->set_train_examples(count);
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
    if (!options.plan.stop().cosine_schedule() || options.plan.stop().max_epochs() <= 0) return base;
    const double done = std::min(1.0, epochsDone() / options.plan.stop().max_epochs());
    return static_cast<float>(0.5 * base * (1.0 + std::cos(M_PI * done)));
}

double CoordinatorState::progress() const {
    if (state == wire::RUN_STOPPED) return 1.0;
    double p = 0.0;
    if (options.plan.stop().max_seconds() > 0) p = std::max(p, trainingSeconds() / options.plan.stop().max_seconds());
    if (options.plan.stop().max_epochs() > 0) p = std::max(p, epochsDone() / options.plan.stop().max_epochs());
    if (options.plan.stop().target_accuracy() > 0 && lastEvaluation) p = std::max(p, lastEvaluation->accuracy / options.plan.stop().target_accuracy());
    return std::min(1.0, p);
}

std::string CoordinatorState::stopReason() const {
    if (state == wire::RUN_STOPPED || !started) return {};
    if (options.plan.stop().max_seconds() > 0 && trainingSeconds() >= options.plan.stop().max_seconds())
        return fmt::format("time limit of {:.0f} s reached", options.plan.stop().max_seconds());
    if (options.plan.stop().max_epochs() > 0 && epochsDone() >= options.plan.stop().max_epochs())
        return fmt::format("{:.2f} epochs done", options.plan.stop().max_epochs());
    if (options.plan.stop().target_accuracy() > 0 && lastEvaluation && lastEvaluation->accuracy >= options.plan.stop().target_accuracy())
        return fmt::format("test accuracy {:.2f}% reached the target {:.2f}%", 100 * lastEvaluation->accuracy,
                           100 * options.plan.stop().target_accuracy());
    return {};
}

std::string CoordinatorState::authentication() const {
    if (!options.credentials) return "none";
    return options.plainDataPlane ? "curve, data plane plain" : "curve, data plane sealed";
}

wire::RecordingHeader CoordinatorState::header() const {
    wire::RecordingHeader h;
    h.set_protocol_major(kProtocolMajor);
    h.set_protocol_minor(kProtocolMinor);
    *h.mutable_spec() = options.plan.spec();
    *h.mutable_mode() = mode;
    h.set_start_unix_ms(startUnixMs);
    h.set_run_id(runId);
    h.set_expected_workers(options.plan.layout().workers());
    h.set_writer(std::string(kSyncScopeVersion));
    return h;
}

}  // namespace syncscope::engine
