// ShardState, a parameter shard without its sockets: an update of gradient ranges is the SGD step
// the coordinator's own store would take on their scaled sum; a pull of version v gets v (kept for
// workers released on it or pinned by the coordinator, waited for when it is still to come); a
// rollback restores the range as a new version; a coordinator out of step is an error, never a
// silent wrong model; a worker flooding it with ranges loses its oldest.
#include <gtest/gtest.h>
#include <zmq.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "engine/model/gradient_checks.h"
#include "engine/model/parameter_store.h"
#include "engine/relay/shard_state.h"
#include "tests/unit/test_support.h"

using namespace syncscope;
using namespace syncscope::engine;

namespace {

constexpr size_t kRange = 1000;
constexpr uint64_t kToken = 77;

std::vector<float> ramp(float start, float step) {
    std::vector<float> v(kRange);
    for (size_t i = 0; i < kRange; ++i) v[i] = start + step * static_cast<float>(i % 97);
    return v;
}

zmq::message_t frameOf(const std::vector<float>& values) { return zmq::message_t(values.data(), values.size() * 4); }

wire::ShardPush pushOf(uint32_t worker, uint64_t sequence, uint64_t baseVersion) {
    wire::ShardPush push;
    push.set_worker_id(worker);
    push.set_session_token(kToken);
    push.set_sequence(sequence);
    push.set_base_version(baseVersion);
    return push;
}

wire::GradientTerm termOf(uint32_t worker, uint64_t sequence, float scale) {
    wire::GradientTerm term;
    term.set_worker_id(worker);
    term.set_session_token(kToken);
    term.set_sequence(sequence);
    term.set_scale(scale);
    return term;
}

wire::ShardUpdate updateOf(uint64_t version, float lr, std::vector<wire::GradientTerm> terms, uint32_t released = 0) {
    wire::ShardUpdate update;
    update.set_version(version);
    update.set_learning_rate(lr);
    for (auto& t : terms) *update.add_terms() = t;
    update.set_released(released);
    return update;
}

ShardState::Pull pullOf(uint32_t worker, uint64_t version) {
    return {std::to_string(worker), version, worker, ShardState::Clock::now()};
}

SgdSettings sgd() { return {0.05f, 0.9f, 5e-4f}; }

}  // namespace

TEST(TestShardState, anUpdateIsTheStoresStepOnTheScaledSum) {
    const std::vector<float> initial = ramp(0.1f, 0.01f), momentum = ramp(-0.02f, 0.001f);
    ShardState shard(initial, momentum, 5, sgd());
    ParameterStore reference(initial, sgd());
    reference.restore(initial, momentum, 5);
    const std::vector<float> a = ramp(1.0f, -0.03f), b = ramp(-0.5f, 0.02f), c = ramp(0.25f, 0.0f);
    const wire::SliceReceived received = shard.addSlice(pushOf(1, 1, 5), frameOf(a));
    ASSERT_TRUE(received.finite());
    double squares = 0;
    for (float x : a) squares += double(x) * x;
    ASSERT_FUZZY_EQ(received.sum_of_squares(), squares);
    shard.addSlice(pushOf(2, 1, 5), frameOf(b));
    shard.addSlice(pushOf(3, 9, 4), frameOf(c));
    std::vector<ShardState::Answer> answers;
    // Two updates as bsp (an average) and asp (one gradient as it came) would make them.
    ASSERT_TRUE(shard.apply(updateOf(6, 0.05f, {termOf(1, 1, 0.25f), termOf(2, 1, 0.75f)}), &answers));
    ASSERT_TRUE(shard.apply(updateOf(7, 0.02f, {termOf(3, 9, 1.0f)}), &answers));
    std::vector<float> average(kRange, 0.0f);
    for (size_t i = 0; i < kRange; ++i) average[i] += 0.25f * a[i];
    for (size_t i = 0; i < kRange; ++i) average[i] += 0.75f * b[i];
    reference.apply(average.data(), 0.05f);
    reference.apply(c.data(), 0.02f);
    ASSERT_EQ(shard.version(), uint64_t(7));
    ASSERT_EQ(*shard.current(), *reference.snapshot());  // bit for bit
    ASSERT_EQ(shard.stats().updates, uint64_t(2));
    ASSERT_EQ(shard.stats().terms, uint64_t(3));

    std::vector<float> poisoned = a;
    poisoned[10] = std::nanf("");
    ASSERT_TRUE(!shard.addSlice(pushOf(1, 2, 7), frameOf(poisoned)).finite());
}

TEST(TestShardState, aPullOfVersionVIsAnsweredWithV) {
    const std::vector<float> initial = ramp(0.1f, 0.01f);
    ShardState shard(initial, std::vector<float>(kRange, 0.0f), 0, sgd());
    // Three workers released on version 0; one pulls before the next update, two after it.
    auto first = shard.pull(pullOf(1, 0));
    ASSERT_TRUE(first && first->version == 0);
    shard.addSlice(pushOf(1, 1, 0), frameOf(ramp(1.0f, 0.0f)));
    std::vector<ShardState::Answer> answers;
    ASSERT_TRUE(shard.apply(updateOf(1, 0.1f, {termOf(1, 1, 1.0f)}, 3), &answers));
    ASSERT_TRUE(answers.empty());
    ASSERT_EQ(shard.stats().mostVersionsKept, size_t(1));
    for (uint32_t worker : {2u, 3u}) {
        auto late = shard.pull(pullOf(worker, 0));
        ASSERT_TRUE(late);
        ASSERT_EQ(late->version, uint64_t(0));
        ASSERT_EQ(*late->values, initial);  // version 0's values, not version 1's
    }
    // Every worker it was kept for has it: a fourth pull of 0 gets what there is, and says so.
    auto extra = shard.pull(pullOf(4, 0));
    ASSERT_TRUE(extra);
    ASSERT_EQ(extra->version, uint64_t(1));
    ASSERT_TRUE(*extra->values != initial);
    ASSERT_EQ(shard.stats().pullsExact, uint64_t(3));
    ASSERT_EQ(shard.stats().pullsOther, uint64_t(1));
}

// A grouped round's version: pinned, it is there for any number of pulls, through any number of
// updates and past the expiry of kept versions, until unpinned; a pin of a version the shard is not
// at is the coordinator out of step.
TEST(TestShardState, aPinnedVersionStaysUntilUnpinned) {
    const std::vector<float> initial = ramp(0.1f, 0.01f);
    ShardState shard(initial, std::vector<float>(kRange, 0.0f), 4, sgd());
    std::vector<ShardState::Answer> answers;
    wire::ShardUpdate first = updateOf(5, 0.1f, {termOf(1, 1, 1.0f)});
    first.add_pin(4);
    shard.addSlice(pushOf(1, 1, 4), frameOf(ramp(1.0f, 0.0f)));
    ASSERT_TRUE(shard.apply(first, &answers));
    shard.addSlice(pushOf(1, 2, 5), frameOf(ramp(0.5f, 0.0f)));
    ASSERT_TRUE(shard.apply(updateOf(6, 0.1f, {termOf(1, 2, 1.0f)}), &answers));
    std::vector<ShardState::Answer> expired;
    shard.expire(ShardState::Clock::now() + 2 * ShardState::kKeepFor, &expired);
    for (uint32_t worker : {2u, 3u, 4u}) {
        auto pinned = shard.pull(pullOf(worker, 4));
        ASSERT_TRUE(pinned);
        ASSERT_EQ(pinned->version, uint64_t(4));
        ASSERT_EQ(*pinned->values, initial);
    }
    wire::ShardUpdate unpin;
    unpin.add_unpin(4);
    ASSERT_TRUE(shard.apply(unpin, &answers));
    auto after = shard.pull(pullOf(5, 4));
    ASSERT_TRUE(after && after->version == 6);  // gone: the newest, said so
    wire::ShardUpdate wrong;
    wrong.add_pin(5);
    ASSERT_TRUE(!shard.apply(wrong, &answers));
}

// A rollback: the coordinator puts the range back as a new version; kept and pinned versions go, and
// a pull that waited for a version up to it gets the restored values.
TEST(TestShardState, aRestoreReplacesTheRangeAsANewVersion) {
    ShardState shard(ramp(0.1f, 0.01f), std::vector<float>(kRange, 0.0f), 2, sgd());
    std::vector<ShardState::Answer> answers;
    wire::ShardUpdate pin;
    pin.add_pin(2);
    ASSERT_TRUE(shard.apply(pin, &answers));
    ASSERT_TRUE(!shard.pull(pullOf(1, 3)));  // waits for version 3
    const std::vector<float> restored = ramp(-0.3f, 0.002f), momentum = ramp(0.01f, 0.0f);
    shard.restore(restored, momentum, 3, &answers);
    ASSERT_EQ(shard.version(), uint64_t(3));
    ASSERT_EQ(answers.size(), size_t(1));
    ASSERT_EQ(answers[0].version, uint64_t(3));
    ASSERT_EQ(*answers[0].values, restored);
    auto old = shard.pull(pullOf(2, 2));  // no longer pinned
    ASSERT_TRUE(old && old->version == 3);
    const SharedFloats both = shard.currentWithMomentum();
    ASSERT_EQ(std::vector<float>(both->begin() + kRange, both->end()), momentum);
}

TEST(TestShardState, aPullBeforeItsVersionWaitsForIt) {
    ShardState shard(ramp(0.1f, 0.01f), std::vector<float>(kRange, 0.0f), 0, sgd());
    ASSERT_TRUE(!shard.pull(pullOf(1, 1)));  // the worker heard of version 1 before this shard did
    ASSERT_EQ(shard.stats().pullsWaited, uint64_t(1));
    shard.addSlice(pushOf(2, 1, 0), frameOf(ramp(1.0f, 0.0f)));
    std::vector<ShardState::Answer> answers;
    ASSERT_TRUE(shard.apply(updateOf(1, 0.1f, {termOf(2, 1, 1.0f)}, 0), &answers));
    ASSERT_EQ(answers.size(), size_t(1));
    ASSERT_EQ(answers[0].identity, std::string("1"));
    ASSERT_EQ(answers[0].version, uint64_t(1));
    ASSERT_EQ(*answers[0].values, *shard.current());
}

TEST(TestShardState, aCoordinatorOutOfStepIsAnError) {
    ShardState shard(ramp(0.1f, 0.01f), std::vector<float>(kRange, 0.0f), 3, sgd());
    shard.addSlice(pushOf(1, 1, 3), frameOf(ramp(1.0f, 0.0f)));
    std::vector<ShardState::Answer> answers;
    const Status skipped = shard.apply(updateOf(5, 0.1f, {termOf(1, 1, 1.0f)}), &answers);
    ASSERT_TRUE(!skipped);
    ASSERT_TRUE(skipped.message().find("update 5") != std::string::npos) << skipped.message().c_str();
    const Status missing = shard.apply(updateOf(4, 0.1f, {termOf(1, 1, 1.0f), termOf(9, 1, 1.0f)}), &answers);
    ASSERT_TRUE(!missing);
    ASSERT_TRUE(missing.message().find("worker 9") != std::string::npos) << missing.message().c_str();
    ASSERT_EQ(shard.version(), uint64_t(3));  // nothing applied by halves
}

TEST(TestShardState, droppedRangesAreLetGo) {
    ShardState shard(ramp(0.1f, 0.01f), std::vector<float>(kRange, 0.0f), 0, sgd());
    shard.addSlice(pushOf(1, 1, 0), frameOf(ramp(1.0f, 0.0f)));
    wire::ShardUpdate forget;
    *forget.add_forget() = termOf(1, 1, 0);
    std::vector<ShardState::Answer> answers;
    ASSERT_TRUE(shard.apply(forget, &answers));
    ASSERT_EQ(shard.stats().forgotten, uint64_t(1));
    ASSERT_EQ(shard.version(), uint64_t(0));
    ASSERT_TRUE(!shard.apply(updateOf(1, 0.1f, {termOf(1, 1, 1.0f)}), &answers));  // gone
}

TEST(TestShardState, aFloodingWorkerLosesItsOldestRange) {
    ShardState shard(ramp(0.1f, 0.01f), std::vector<float>(kRange, 0.0f), 0, sgd());
    const std::vector<float> g = ramp(1.0f, 0.0f);
    for (uint64_t s = 1; s <= ShardState::kMaxPendingPerWorker + 1; ++s) shard.addSlice(pushOf(1, s, 0), frameOf(g));
    shard.addSlice(pushOf(2, 1, 0), frameOf(g));  // another worker's are its own
    ASSERT_EQ(shard.stats().evicted, uint64_t(1));
    std::vector<ShardState::Answer> answers;
    ASSERT_TRUE(!shard.apply(updateOf(1, 0.1f, {termOf(1, 1, 1.0f)}), &answers));
    ASSERT_TRUE(shard.apply(updateOf(1, 0.1f, {termOf(1, 2, 1.0f), termOf(2, 1, 1.0f)}), &answers));
}

TEST(TestShardState, keptVersionsAndWaitingPullsExpire) {
    ShardState shard(ramp(0.1f, 0.01f), std::vector<float>(kRange, 0.0f), 0, sgd());
    shard.addSlice(pushOf(1, 1, 0), frameOf(ramp(1.0f, 0.0f)));
    std::vector<ShardState::Answer> answers;
    ASSERT_TRUE(shard.apply(updateOf(1, 0.1f, {termOf(1, 1, 1.0f)}, 1), &answers));  // version 0 kept for one worker
    ASSERT_TRUE(!shard.pull(pullOf(5, 4)));                                         // waits for version 4
    const auto later = ShardState::Clock::now() + ShardState::kKeepFor + std::chrono::seconds(1);
    shard.expire(later, &answers);
    ASSERT_EQ(answers.size(), size_t(1));  // the waiting pull gets what there is
    ASSERT_EQ(answers[0].version, uint64_t(1));
    auto stale = shard.pull(pullOf(2, 0));  // the worker that died before it pulled version 0
    ASSERT_TRUE(stale);
    ASSERT_EQ(stale->version, uint64_t(1));
}

// The one-pass check (gradient_checks.h) sees a NaN or an infinity wherever it is, in any of its
// eight lanes or the tail, and takes the largest finite floats as finite.
TEST(TestShardState, everyValueIsChecked) {
    std::vector<float> values(8 * 5 + 3, 0.5f);
    ASSERT_TRUE(allFinite(values.data(), values.size()));
    ASSERT_FUZZY_EQ(sumOfSquares(values.data(), values.size()), 0.25 * values.size());
    for (size_t at = 0; at < values.size(); ++at)
        for (float bad : {std::nanf(""), INFINITY, -INFINITY}) {
            std::vector<float> spoiled = values;
            spoiled[at] = bad;
            ASSERT_TRUE(!allFinite(spoiled.data(), spoiled.size())) << "value " << bad << " at " << at;
        }
    const std::vector<float> huge(1000, 3.4e38f);
    ASSERT_TRUE(allFinite(huge.data(), huge.size()));
}
