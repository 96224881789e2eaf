// An external model's buffers (RunSpec.buffer_count: BatchNorm's running statistics at the end of the
// flat layout) are set, not stepped: an update makes them the batch-weighted mean of its gradients'
// values, whatever the gradients' scales, with no learning rate, momentum or weight decay. The
// coordinator's store (through GradientAccumulator, also for a group aggregator's sum) and a parameter
// shard (from ShardUpdate's terms) agree; the norm a gradient is checked against leaves them out, and a
// non-finite buffer still makes the gradient non-finite.
#include <gtest/gtest.h>
#include <zmq.hpp>

#include <cmath>
#include <vector>

#include "engine/model/gradient_checks.h"
#include "engine/model/parameter_store.h"
#include "engine/policy/gradient_accumulator.h"
#include "engine/relay/shard_state.h"

using namespace syncscope;
using namespace syncscope::engine;

namespace {

constexpr size_t kCount = 1000, kBuffers = 100, kBegin = kCount - kBuffers;

std::vector<float> ramp(float start, float step) {
    std::vector<float> v(kCount);
    for (size_t i = 0; i < kCount; ++i) v[i] = start + step * static_cast<float>(i % 97);
    return v;
}

SgdSettings sgd() { return {0.05f, 0.9f, 5e-4f}; }

wire::GradientTerm termOf(uint32_t worker, float scale, uint32_t batch) {
    wire::GradientTerm term;
    term.set_worker_id(worker);
    term.set_sequence(1);
    term.set_scale(scale);
    term.set_batch_size(batch);
    return term;
}

}  // namespace

TEST(TestModelBuffers, anUpdateStepsTheParametersAndSetsTheBuffersToTheirBatchWeightedMean) {
    const std::vector<float> initial = ramp(0.1f, 0.01f), a = ramp(1.0f, -0.03f), b = ramp(-0.5f, 0.02f);
    ParameterStore store(initial, sgd());
    store.setBufferCount(kBuffers);
    ASSERT_EQ(store.bufferBegin(), kBegin);
    GradientAccumulator sum(kCount, false, store.bufferBegin());
    // A staleness-weighted sum (scales 0.5 and 0.25), then averaged: the buffers ignore both.
    sum.add(GradientIn{1, 0, a.data(), 32, 0}, 0.5f);
    sum.add(GradientIn{2, 0, b.data(), 96, 0}, 0.25f);
    sum.scale(0.5f);
    store.apply(sum.dense(), 0.05f);

    ParameterStore reference(std::vector<float>(initial.begin(), initial.begin() + kBegin), sgd());
    std::vector<float> step(kBegin);
    for (size_t i = 0; i < kBegin; ++i) step[i] = 0.5f * (0.5f * a[i] + 0.25f * b[i]);
    reference.apply(step.data(), 0.05f);
    const std::vector<float>& now = *store.snapshot();
    for (size_t i = 0; i < kBegin; ++i) ASSERT_FLOAT_EQ(now[i], (*reference.snapshot())[i]) << i;
    for (size_t i = kBegin; i < kCount; ++i) ASSERT_NEAR(now[i], (32.0f * a[i] + 96.0f * b[i]) / 128.0f, 1e-6f) << i;
    // No momentum is kept for the buffers: a second update with one gradient sets them to its values.
    std::vector<float> parameters, momentum;
    store.exportState(&parameters, &momentum);
    for (size_t i = kBegin; i < kCount; ++i) ASSERT_EQ(momentum[i], 0.0f);
    store.apply(a.data(), 0.05f);
    for (size_t i = kBegin; i < kCount; ++i) ASSERT_EQ((*store.snapshot())[i], a[i]);
}

TEST(TestModelBuffers, anAggregatorsSumWeighsItsBuffersByItsMembersBatches) {
    const std::vector<float> a = ramp(1.0f, -0.03f), b = ramp(-0.5f, 0.02f);
    std::vector<float> weighted(kCount);  // what an aggregator sends: batch x values of 2 members of 16
    for (size_t i = 0; i < kCount; ++i) weighted[i] = 16.0f * a[i] + 16.0f * a[i];
    GradientSum group{0, 0, weighted.data(), {GradientIn{1, 0, nullptr, 16, 0}, GradientIn{2, 0, nullptr, 16, 0}}};
    GradientAccumulator sum(kCount, false, kBegin);
    sum.add(group);
    sum.add(GradientIn{3, 0, b.data(), 32, 0}, 32.0f);
    sum.scale(1.0f / 64.0f);
    for (size_t i = 0; i < kBegin; ++i) ASSERT_NEAR(sum.dense()[i], (32.0f * a[i] + 32.0f * b[i]) / 64.0f, 1e-5f);
    for (size_t i = kBegin; i < kCount; ++i) ASSERT_NEAR(sum.dense()[i], (a[i] + b[i]) / 2.0f, 1e-5f);
}

TEST(TestModelBuffers, aShardSetsItsPartOfTheBuffersAsTheCoordinatorWould) {
    const std::vector<float> initial = ramp(0.1f, 0.01f), a = ramp(1.0f, -0.03f), b = ramp(-0.5f, 0.02f);
    ShardState shard(initial, std::vector<float>(kCount, 0.0f), 0, sgd());
    shard.setBufferCount(kBuffers);
    ParameterStore store(initial, sgd());
    store.setBufferCount(kBuffers);
    for (uint32_t worker : {1u, 2u}) {
        wire::ShardPush push;
        push.set_worker_id(worker);
        push.set_sequence(1);
        const std::vector<float>& values = worker == 1 ? a : b;
        shard.addSlice(push, zmq::message_t(values.data(), values.size() * sizeof(float)));
    }
    wire::ShardUpdate update;
    update.set_version(1);
    update.set_learning_rate(0.05f);
    *update.add_terms() = termOf(1, 0.25f, 32);
    *update.add_terms() = termOf(2, 0.75f, 96);
    std::vector<ShardState::Answer> answers;
    ASSERT_TRUE(shard.apply(update, &answers));
    GradientAccumulator sum(kCount, false, kBegin);
    sum.add(GradientIn{1, 0, a.data(), 32, 0}, 0.25f);
    sum.add(GradientIn{2, 0, b.data(), 96, 0}, 0.75f);
    store.apply(sum.dense(), 0.05f);
    const std::vector<float>&ours = *shard.current(), &theirs = *store.snapshot();
    for (size_t i = 0; i < kCount; ++i) ASSERT_NEAR(ours[i], theirs[i], 1e-6f) << i;
}

TEST(TestModelBuffers, theNormLeavesTheBuffersOutButNotTheirNaNs) {
    std::vector<float> values(kCount, 0.0f);
    values[0] = 3.0f;
    values[1] = 4.0f;
    values[kBegin] = 1000.0f;  // a running variance
    GradientSquares checked = gradientSquares(values.data(), kCount, kBegin);
    ASSERT_TRUE(checked.finite);
    ASSERT_DOUBLE_EQ(checked.squares, 25.0);
    values[kCount - 1] = std::nanf("");
    checked = gradientSquares(values.data(), kCount, kBegin);
    ASSERT_FALSE(checked.finite);
    ASSERT_TRUE(gradientSquares(values.data(), kBegin, kBegin).finite);  // no buffers: the whole is gradient
}
