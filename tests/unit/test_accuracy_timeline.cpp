// AccuracyTimeline and RunMetrics' time to target on hand-made ticks: an evaluation names the model
// it tested (Tick.test_version), which was current before the tick that shows the result; the time
// to a target is when that model was current, interpolated between evaluations, not when it was known.
#include <gtest/gtest.h>

#include "engine/telemetry/accuracy_timeline.h"
#include "engine/telemetry/run_metrics.h"

using namespace syncscope;
using engine::AccuracyTimeline;

namespace {

// Ticks at 10 Hz from t = 0.1 s, version = 10 x time (one update a tick). Every `every` ticks an
// evaluation of the version `lag` ticks back becomes known, its accuracy `accuracy(model time)`.
std::vector<wire::Tick> ticks(double seconds, int every, int lag, const std::function<double(double)>& accuracy) {
    std::vector<wire::Tick> out;
    double shown = -1;
    uint64_t shownVersion = 0;
    for (int i = 1; i <= static_cast<int>(seconds * 10); ++i) {
        wire::Tick& t = out.emplace_back();
        t.set_time_s(0.1 * i);
        t.set_state(wire::RUN_RUNNING);
        t.set_version(static_cast<uint64_t>(i));
        if (i % every == 0 && i > lag) {
            shownVersion = static_cast<uint64_t>(i - lag);
            shown = accuracy(0.1 * double(shownVersion));
        }
        t.set_test_version(shownVersion);
        t.set_test_accuracy(shown);
    }
    return out;
}

AccuracyTimeline timelineOf(const std::vector<wire::Tick>& ticks) {
    AccuracyTimeline timeline;
    for (const wire::Tick& t : ticks) timeline.add(t);
    return timeline;
}

}  // namespace

// Accuracy rising 10 points a second, evaluated once a second, each result known 1 s after its model:
// 0.85 is reached by the model at 8.5 s; the first tick showing an evaluation >= 0.85 is at 10 s.
TEST(TestAccuracyTimeline, placesTheTargetAtTheModelsTimeBetweenEvaluations) {
    const auto linear = [](double t) { return 0.1 * t; };
    const AccuracyTimeline timeline = timelineOf(ticks(12, 10, 10, linear));
    ASSERT_EQ(timeline.evaluations().size(), 11u);  // known at 2, 3, ..., 12 s, of the models of 1..11 s
    EXPECT_NEAR(timeline.evaluations()[0].modelTime, 1.0, 1e-9);
    EXPECT_NEAR(timeline.evaluations()[0].knownTime, 2.0, 1e-9);
    EXPECT_NEAR(*timeline.timeReached(0.85), 8.5, 1e-9);
    EXPECT_NEAR(*timeline.timeReached(0.9), 9.0, 1e-9);  // an evaluation exactly at it
    EXPECT_FALSE(timeline.timeReached(1.2).has_value());
    // Only models current at or after a time (a mode switched to then): the first one there counts.
    EXPECT_NEAR(*timeline.timeReached(0.3, 5.0), 5.0, 1e-9);
    // The accuracy at a time is the newest evaluated model's then, though known only a second later.
    EXPECT_NEAR(*timeline.accuracyAt(5.5), 0.5, 1e-9);
    EXPECT_FALSE(timeline.accuracyAt(0.5).has_value());
}

// A tick repeats the newest evaluation until the next: repeats are one evaluation, and a fall in
// accuracy (noise) before the crossing is the point the crossing is interpolated from.
TEST(TestAccuracyTimeline, countsEachEvaluationOnceAndInterpolatesFromTheLastBelow) {
    const auto noisy = [](double t) { return t < 4.5 ? 0.5 : t < 5.5 ? 0.82 : t < 6.5 ? 0.78 : 0.86; };
    const AccuracyTimeline timeline = timelineOf(ticks(8, 10, 0, noisy));
    ASSERT_EQ(timeline.evaluations().size(), 8u);
    // 0.8: between 0.5 at 4 s and 0.82 at 5 s. 0.84: between 0.78 at 6 s and 0.86 at 7 s (6.75 s).
    EXPECT_NEAR(*timeline.timeReached(0.8), 4.0 + (0.8 - 0.5) / (0.82 - 0.5), 1e-9);
    EXPECT_NEAR(*timeline.timeReached(0.84), 6.0 + (0.84 - 0.78) / (0.86 - 0.78), 1e-9);
}

// A version between two ticks (several updates a tick) is placed between their times.
TEST(TestAccuracyTimeline, placesAVersionBetweenTheTicksAroundIt) {
    std::vector<wire::Tick> t(3);
    t[0].set_time_s(1.0), t[0].set_version(10), t[0].set_test_accuracy(-1);
    t[1].set_time_s(2.0), t[1].set_version(30), t[1].set_test_accuracy(-1);
    t[2].set_time_s(3.0), t[2].set_version(40), t[2].set_test_version(15), t[2].set_test_accuracy(0.9);
    const AccuracyTimeline timeline = timelineOf(t);
    ASSERT_EQ(timeline.evaluations().size(), 1u);
    EXPECT_NEAR(timeline.evaluations()[0].modelTime, 1.25, 1e-9);
    EXPECT_NEAR(timeline.evaluations()[0].knownTime, 3.0, 1e-9);
}

// A coordinator killed at 6 s (version 60) and resumed from its checkpoint of 4 s (version 40): the
// recording goes on from 4 s and version 40. The evaluation of version 50 before the kill (at 0.55,
// of a model that was lost) does not count; the retrained version 50 reaches 0.5 at 5.5 s after
// the resume's own clock (a slower stretch: 0.2 s a version).
TEST(TestAccuracyTimeline, aResumedRunForgetsWhatCameAfterItsCheckpoint) {
    std::vector<wire::Tick> before = ticks(6, 10, 10, [](double t) { return 0.1 * t + 0.05; });
    ASSERT_NEAR(before.back().test_accuracy(), 0.55, 1e-9);  // version 50's, known at 6 s
    AccuracyTimeline timeline = timelineOf(before);
    EXPECT_NEAR(*timeline.timeReached(0.5), 4.5, 1e-9);  // before the kill: version 45's time
    for (int i = 1; i <= 30; ++i) {  // resumed: 4 s + 0.1 s a tick, version 40 + i / 2
        wire::Tick t;
        t.set_time_s(4.0 + 0.1 * i);
        t.set_version(40 + static_cast<uint64_t>(i / 2));
        t.set_test_version(i >= 20 ? 40 + static_cast<uint64_t>((i - 10) / 2) : 50);
        t.set_test_accuracy(i >= 20 ? 0.01 * double(40 + (i - 10) / 2) : 0.55);
        timeline.add(t);
    }
    // Version 45 (0.45) at 5.0 s, version 50 (0.50) at 6.0 s of the resumed clock; nothing of before counts.
    EXPECT_NEAR(*timeline.timeReached(0.5), 6.0, 1e-9);
}

// The run's figures count from its start event and use the model's time: with results known 1 s
// late the time to target would have been 9.5 s (10.5 - 1), not 7.5 s (8.5 - 1).
TEST(TestAccuracyTimeline, aRunsTimeToTargetIsWhenItsModelGotThere) {
    engine::RunMetricsScan scan;
    wire::Record start;
    start.mutable_event()->set_kind(wire::EVENT_START);
    start.mutable_event()->set_time_s(1.0);
    scan.add(start);
    for (const wire::Tick& t : ticks(12, 10, 10, [](double t) { return 0.1 * t; })) {
        wire::Record r;
        *r.mutable_tick() = t;
        scan.add(r);
    }
    const auto m = scan.finish("hand-made", 0.85, 5.0);
    ASSERT_TRUE(m.isOk()) << m.status().message();
    ASSERT_TRUE(m->timeToTarget.has_value());
    EXPECT_NEAR(*m->timeToTarget, 8.5 - 1.0, 1e-9);
    // At 5 s from the start (6 s) the model then was tested at 60%; the coordinator knew 50% then.
    EXPECT_NEAR(m->accuracyAtFixedTime, 0.6, 1e-9);
}
