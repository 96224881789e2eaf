// What-if predictions in a real run: 4 worker processes, worker 3 eight times slower, bsp. Once a
// second the ticks carry every mode's prediction from the run's own measurements (Tick.what_if); with
// one straggler the modes that stop waiting for it (asp, ksync, grouped, elastic) must be predicted
// faster than bsp, the barrier modes without staleness, and once the evaluations have a trend, a
// time to the target.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tests/integration/engine_process.h"
#include "tests/unit/test_helpers.h"
#include "tests/integration/recording_helpers.h"

using namespace syncscope;
using namespace syncscope::testing;

TEST(TestWhatIf, aBspRunWithAStragglerPredictsEveryMode) {
    TempDir dir;
    const std::string recording = dir.filePath("run.ssrec");
    const EngineRun run = runEngine({"run", "--workers", "4", "--model", "mlp", "--mode", "bsp", "--slowdown", "3:8",
                                     "--max-seconds", "12", "--eval-interval", "1", "--record", recording, "--data",
                                     SYNCSCOPE_FASHION_MNIST_DIR});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const engine::Recording r = loadRecording(recording);
    int ticks = 0, predictions = 0, withTarget = 0;
    double first = -1, last = -1;
    wire::WhatIf newest;
    for (const wire::Record& record : r.records) {
        if (!record.has_tick() || record.tick().state() != wire::RUN_RUNNING) continue;
        ++ticks;
        if (!record.tick().has_what_if()) continue;
        ++predictions;
        newest = record.tick().what_if();
        (first < 0 ? first : last) = record.tick().time_s();
        for (const wire::AutoCandidate& c : newest.options()) withTarget += c.seconds_to_target() > 0;
    }
    ASSERT_GT(predictions, 5) << "of " << ticks << " ticks";
    // About once a second: a tick of ten.
    EXPECT_LT(predictions, ticks / 5);
    EXPECT_GT(predictions, static_cast<int>((last - first) / 1.5));
    EXPECT_EQ(newest.current_label(), "bsp");
    EXPECT_GT(newest.calibration(), 0.0);
    std::map<std::string, wire::AutoCandidate> byLabel;
    for (const wire::AutoCandidate& c : newest.options()) byLabel[c.label()] = c;
    for (const char* label : {"bsp", "asp", "ksync K=3", "kasync K=2", "grouped G=2 by speed", "elastic"})
        ASSERT_TRUE(byLabel.count(label)) << label << " missing from\n" << newest.DebugString();
    const double bsp = byLabel["bsp"].samples_per_s();
    EXPECT_GT(bsp, 0.0);
    for (const char* faster : {"asp", "ksync K=3", "grouped G=2 by speed", "elastic"})
        EXPECT_GT(byLabel[faster].samples_per_s(), 1.2 * bsp) << faster << "\n" << newest.DebugString();
    for (const char* barrier : {"bsp", "ksync K=3", "elastic"}) EXPECT_EQ(byLabel[barrier].mean_staleness(), 0.0) << barrier;
    EXPECT_NEAR(byLabel["asp"].mean_staleness(), 3.0, 1e-9);
    EXPECT_GT(newest.target_accuracy(), 0.5);
    EXPECT_FALSE(newest.target_from_plan());
    EXPECT_GT(withTarget, 0) << "no prediction had a time to the target";
}

// The calibration measures the running mode's applied samples/s over seconds, not per tick: where
// every worker computes for longer than a tick (150 ms here, 700 ms for the straggler, as a CNN on a
// starved core), a round's pushes and its update land in different ticks (counted per tick, the rate
// came out at a quarter to a third of the truth, and every option's prediction with it: PyTorch
// workers' residual CNN in seeds-reproduction). The running mode's prediction is its measured rate.
TEST(TestWhatIf, theRunningModesPredictionIsItsMeasuredRate) {
    TempDir dir;
    const std::string recording = dir.filePath("run.ssrec");
    const EngineRun run = runEngine({"run", "--workers", "4", "--model", "mlp", "--mode", "bsp", "--slowdown", "0:1:150",
                                     "--slowdown", "1:1:150", "--slowdown", "2:1:150", "--slowdown", "3:1:700",
                                     "--max-seconds", "12", "--eval-interval", "2", "--record", recording, "--data",
                                     SYNCSCOPE_FASHION_MNIST_DIR});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const engine::Recording r = loadRecording(recording);
    std::vector<std::pair<double, double>> updates;  // (time, samples applied)
    double predicted = 0, at = 0;
    for (const wire::Record& record : r.records) {
        if (record.has_update()) {
            double samples = 0;
            for (const wire::Contribution& c : record.update().contributions()) samples += c.batch_size();
            updates.emplace_back(record.update().time_s(), samples);
        }
        if (record.has_tick() && record.tick().has_what_if() && record.tick().time_s() > 8)
            for (const wire::AutoCandidate& c : record.tick().what_if().options())
                if (c.label() == "bsp") predicted = c.samples_per_s(), at = record.tick().time_s();
    }
    ASSERT_GT(predicted, 0.0) << "no bsp prediction after 8 s";
    double applied = 0;  // the 6 s before the prediction
    for (const auto& [t, samples] : updates) applied += (t > at - 6 && t <= at) ? samples : 0;
    const double measured = applied / 6;
    EXPECT_NEAR(predicted / measured, 1.0, 0.2) << "predicted " << predicted << " samples/s, measured " << measured;
}
