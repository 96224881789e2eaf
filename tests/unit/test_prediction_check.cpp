// checkPredictions on hand-made recordings: the newest prediction before a switch against the
// applied samples/s measured after it (past the settle time), and the time to the target.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/telemetry/prediction_check.h"

using namespace syncscope;
using engine::checkPredictions;

namespace {

struct Runner {
    std::vector<wire::Record> records;
    double time = 0;
    uint64_t samples = 0, pushed = 0, applied = 0;
    double appliedSamples = 0;
    double appliedSamplesShare = -1;  ///< >= 0: ticks carry applied_samples (1.13), this share of the samples
    uint64_t version = 0;             ///< one update a tick; each tick's evaluation is of its own version

    // `seconds` of ticks at 10 Hz in `mode`, `samplesPerS` pushed (batch 10) and the share `applied`;
    // accuracy from `accuracy(time)`; a what-if each second from `whatIf` (if any).
    void run(wire::SyncMode mode, double seconds, double samplesPerS, double appliedShare,
             const std::function<double(double)>& accuracy, const std::function<wire::WhatIf()>& whatIf = {}) {
        for (int i = 0; i < static_cast<int>(seconds * 10); ++i) {
            time += 0.1;
            const uint64_t n = static_cast<uint64_t>(samplesPerS / 10 / 10);
            samples += n * 10;
            pushed += n;
            applied += static_cast<uint64_t>(std::llround(n * appliedShare));
            wire::Tick* t = records.emplace_back().mutable_tick();
            t->set_time_s(time);
            t->set_state(wire::RUN_RUNNING);
            t->mutable_mode()->set_mode(mode);
            t->set_samples_total(samples);
            t->set_pushed(pushed);
            t->set_applied(applied);
            if (appliedSamplesShare >= 0) {
                appliedSamples += double(n * 10) * appliedSamplesShare;
                t->set_applied_samples(appliedSamples);
            }
            t->set_version(++version);
            t->set_test_version(version);
            t->set_test_accuracy(accuracy(time));
            if (whatIf && i % 10 == 9) *t->mutable_what_if() = whatIf();
        }
    }
};

wire::WhatIf prediction(const std::string& running, double aspSamples, double aspSeconds) {
    wire::WhatIf w;
    w.set_current_label(running);
    w.set_target_accuracy(0.8);
    for (const auto& [label, samples, seconds] : {std::tuple{std::string("bsp"), 1000.0, 10.0},
                                                  std::tuple{std::string("asp"), aspSamples, aspSeconds}}) {
        wire::AutoCandidate* c = w.add_options();
        c->set_label(label);
        c->set_samples_per_s(samples);
        c->set_seconds_to_target(seconds);
    }
    return w;
}

// Where a step in accuracy between two evaluations 0.1 s apart passes `target`: the time to a target
// is placed by linear interpolation in accuracy between the evaluations' models (AccuracyTimeline).
double crossing(double before, double accuracyBefore, double accuracyAfter, double target) {
    return before + 0.1 * (target - accuracyBefore) / (accuracyAfter - accuracyBefore);
}

}  // namespace

TEST(TestPredictionCheck, comparesTheNewestPredictionWithTheModeSwitchedTo) {
    Runner r;
    const auto accuracy = [](double t) { return t < 8.95 ? 0.7 : 0.81; };  // the target at 9 s
    r.run(wire::BSP, 5, 1000, 1.0, accuracy, [] { return prediction("bsp", 2000, 3.0); });
    // asp: 2000 samples/s pushed, 90% applied = 1800 applied/s; the first 2 s are not measured.
    r.run(wire::ASP, 7, 2000, 0.9, accuracy, [] { return prediction("asp", 1900, 1.0); });
    const auto checks = checkPredictions(r.records);
    ASSERT_EQ(checks.size(), 1u);
    const auto& c = checks[0];
    EXPECT_EQ(c.from, "bsp");
    EXPECT_EQ(c.to, "asp");
    EXPECT_NEAR(c.switchedAt, 5.1, 1e-9);
    EXPECT_EQ(c.predictedSamplesPerS, 2000.0);
    EXPECT_NEAR(c.measuredSamplesPerS, 1800.0, 1.0);
    EXPECT_NEAR(c.samplesError(), 200.0 / 1800.0, 1e-3);
    const double measured = crossing(8.9, 0.7, 0.81, 0.8) - 5.1;  // 3.89 s
    EXPECT_NEAR(c.measuredSecondsToTarget, measured, 1e-6);
    EXPECT_NEAR(c.timeError(), (3.0 - measured) / measured, 1e-6);
}

// Elastic drops a late worker's small batch and unneeded shares: half the gradients but a tenth of
// the samples. The coordinator's own count of applied samples (1.13) is taken where the ticks have
// it; the share of gradients applied, the only measure of older recordings, would say 1,000.
TEST(TestPredictionCheck, takesTheAppliedSamplesTheCoordinatorCounted) {
    Runner r;
    const auto flat = [](double) { return 0.5; };
    r.appliedSamplesShare = 0.9;
    r.run(wire::BSP, 5, 1000, 1.0, flat, [] { return prediction("bsp", 2000, -1); });
    r.run(wire::ASP, 7, 2000, 0.5, flat, [] { return prediction("asp", 1900, -1); });
    const auto checks = checkPredictions(r.records);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_NEAR(checks[0].measuredSamplesPerS, 1800.0, 1.0);

    Runner older = r;  // the same run as a recording from before 1.13
    for (wire::Record& record : older.records) record.mutable_tick()->clear_applied_samples();
    const auto fallback = checkPredictions(older.records);
    ASSERT_EQ(fallback.size(), 1u);
    EXPECT_NEAR(fallback[0].measuredSamplesPerS, 1000.0, 1.0);
}

TEST(TestPredictionCheck, leavesOutWhatCannotBeChecked) {
    const auto flat = [](double) { return 0.5; };
    Runner shortStretch;  // 4 s in asp: 2 s settle + 2 s measured < kMinMeasuredSeconds
    shortStretch.run(wire::BSP, 5, 1000, 1.0, flat, [] { return prediction("bsp", 2000, -1); });
    shortStretch.run(wire::ASP, 4, 2000, 1.0, flat, [] { return prediction("asp", 2000, -1); });
    EXPECT_TRUE(checkPredictions(shortStretch.records).empty());

    Runner fromAuto;  // auto's choice is its own; it is not a prediction to check
    fromAuto.run(wire::AUTO, 5, 1000, 1.0, flat, [] { return prediction("auto", 2000, -1); });
    fromAuto.run(wire::ASP, 8, 2000, 1.0, flat, [] { return prediction("asp", 2000, -1); });
    EXPECT_TRUE(checkPredictions(fromAuto.records).empty());

    Runner noTarget;  // no forecast, target not reached: samples checked, the time not
    noTarget.run(wire::BSP, 5, 1000, 1.0, flat, [] { return prediction("bsp", 2000, -1); });
    noTarget.run(wire::ASP, 8, 2000, 1.0, flat, [] { return prediction("asp", 2000, -1); });
    const auto checks = checkPredictions(noTarget.records);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_NEAR(checks[0].samplesError(), 0.0, 1e-9);
    EXPECT_TRUE(std::isnan(checks[0].timeError()));
}

TEST(TestPredictionCheck, aRunsPredictionsForAnotherRunsModeAgainstThatRun) {
    // Run A (bsp) predicts asp at 2000 samples/s and, once its accuracy is 0.5 (at 4 s), 6 s to 0.8.
    Runner a;
    a.run(wire::BSP, 8, 1000, 1.0, [](double t) { return t < 3.95 ? 0.3 : 0.5; }, [] { return prediction("bsp", 2000, 6.0); });
    for (wire::Record& r : a.records)  // no forecast before the accuracy reaches 0.5
        if (r.tick().has_what_if() && r.tick().test_accuracy() < 0.5)
            r.mutable_tick()->mutable_what_if()->mutable_options(1)->set_seconds_to_target(-1);
    // Run B (asp, the same cell): 1600 applied samples/s; 0.5 at about 3 s, 0.8 at about 8 s: 5 s, not 6.
    Runner b;
    b.run(wire::ASP, 10, 2000, 0.8, [](double t) { return t < 2.95 ? 0.3 : t < 7.95 ? 0.6 : 0.85; },
          [] { return prediction("asp", 1000, 1.0); });
    const auto c = engine::checkPredictionAcross(a.records, b.records);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->from, "bsp");
    EXPECT_EQ(c->to, "asp");
    EXPECT_EQ(c->predictedSamplesPerS, 2000.0);
    EXPECT_NEAR(c->measuredSamplesPerS, 1600.0, 1.0);
    EXPECT_NEAR(c->samplesError(), 0.25, 1e-3);
    EXPECT_NEAR(c->switchedAt, 4.0, 1e-6);  // the first forecast
    EXPECT_EQ(c->predictedSecondsToTarget, 6.0);
    const double measured = crossing(7.9, 0.6, 0.85, 0.8) - crossing(2.9, 0.3, 0.6, 0.5);  // 5.01 s
    EXPECT_NEAR(c->measuredSecondsToTarget, measured, 1e-6);
    EXPECT_NEAR(c->timeError(), (6.0 - measured) / measured, 1e-6);
    // Backwards: B's predictions for bsp (1000) against A's 1000 applied samples/s; A never reached 0.8.
    const auto back = engine::checkPredictionAcross(b.records, a.records);
    ASSERT_TRUE(back.has_value());
    EXPECT_NEAR(back->samplesError(), 0.0, 1e-3);
    EXPECT_TRUE(std::isnan(back->timeError()));
    // A run against itself, or one with no what-ifs, is no check.
    EXPECT_FALSE(engine::checkPredictionAcross(a.records, a.records).has_value());
    Runner silent;
    silent.run(wire::ASP, 10, 2000, 1.0, [](double) { return 0.5; });
    EXPECT_FALSE(engine::checkPredictionAcross(a.records, silent.records).has_value());

    const auto summary = engine::summarisePredictions({*c, *back, *c});
    ASSERT_EQ(summary.size(), 2u);
    EXPECT_EQ(summary[0].option, "asp");
    EXPECT_EQ(summary[0].samplesChecks, 2u);
    EXPECT_NEAR(summary[0].samplesBias, 0.25, 1e-3);
    EXPECT_NEAR(summary[0].timeAbsError, (6.0 - measured) / measured, 1e-6);
    EXPECT_EQ(summary[1].timeChecks, 0u);
    EXPECT_TRUE(std::isnan(summary[1].timeAbsError));
}
