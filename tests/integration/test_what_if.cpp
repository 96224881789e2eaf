// What-if predictions in a real run: 4 worker processes, worker 3 eight times slower, bsp. Once a
// second the ticks carry every mode's prediction from the run's own measurements (Tick.what_if); with
// one straggler the modes that stop waiting for it (asp, ksync, grouped, elastic) must be predicted
// faster than bsp, the barrier modes without staleness, and once the evaluations have a trend, a
// time to the target.
#include <gtest/gtest.h>

#include <map>
#include <string>

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
