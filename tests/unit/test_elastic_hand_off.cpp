// Elastic's hand-off of a late worker's batch (Falcon: "transferring blocked tasks from stragglers
// to pioneers"), driven by the fake run of tests/unit/fake_policy_context.h: four equal workers, one
// slowed 10x for one iteration. With the hand-off the waiting three compute its samples and the round
// closes without it; with elastic_wait_for_late the round waits, as plain BSP does. Every step checks
// that each gradient pushed is applied, dropped or pending.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/policy/elastic_policy.h"
#include "engine/plan/mode_catalog.h"
#include "fake_policy_context.h"

using namespace syncscope;
using namespace syncscope::engine;
using syncscope::engine::testing::FakeRun;

namespace {

constexpr double kSpeed = 3200;  // samples/s: a 64-sample batch in 20 ms, plus 1 ms of communication

// Workers 0-3 at kSpeed for 3 s (their compute lines measured), then worker 0's next iterations 10x
// slower for `slowFor` seconds, then 1 s more at full speed.
struct SlowedRun {
    explicit SlowedRun(bool waitForLate, double slowFor = 0.1, double factor = 10) : run(mode(waitForLate)) {
        for (int i = 0; i < 4; ++i) run.addWorker(kSpeed);
        run.simulate(3.0);
        slowedAt = run.time();
        run.setSpeed(0, kSpeed / factor);
        run.simulate(slowFor);
        run.setSpeed(0, kSpeed);
        run.simulate(1.0);
    }
    static wire::ModeSettings mode(bool waitForLate) {
        wire::ModeSettings m = defaultModeSettings(wire::ELASTIC);
        m.set_elastic_wait_for_late(waitForLate);
        return m;
    }
    /// The longest time between two updates after the slowdown began, in seconds.
    double longestGap() const {
        double last = slowedAt, gap = 0;
        for (const auto& r : run.releases())
            if (r.time > slowedAt) gap = std::max(gap, r.time - last), last = r.time;
        return gap;
    }
    size_t updatesAfter(double t) const { return run.updates().size() - versionAt(t); }
    uint64_t versionAt(double t) const {
        uint64_t v = 0;
        for (const auto& r : run.releases())
            if (r.time <= t) v = std::max(v, r.version);
        return v;
    }
    FakeRun run;
    double slowedAt = 0;
};

}  // namespace

TEST(TestElasticHandOff, theWaitingWorkersComputeALateWorkersBatch) {
    SlowedRun handOff(false), wait(true);
    // A share is a release of less than a batch, to a worker that has pushed in that round.
    const auto& releases = handOff.run.releases();
    const auto shares = std::count_if(releases.begin(), releases.end(), [](const auto& r) { return r.batch < FakeRun::kBatch; });
    ASSERT_GE(shares, 3) << "no late worker's batch was handed off";
    EXPECT_EQ(std::count_if(wait.run.releases().begin(), wait.run.releases().end(),
                            [](const auto& r) { return r.batch < FakeRun::kBatch; }),
              0);
    // The round closed without worker 0, on the same samples: someone contributed twice, and the
    // round's samples are at least the four batches.
    bool sawHandOffRound = false;
    for (const auto& u : handOff.run.updates()) {
        std::map<uint32_t, int> per;
        uint32_t samples = 0;
        for (const auto& c : u.contributions) ++per[c.worker_id()], samples += c.batch_size();
        if (per.count(0) || std::none_of(per.begin(), per.end(), [](const auto& p) { return p.second > 1; })) continue;
        sawHandOffRound = true;
        EXPECT_GE(samples, 4 * FakeRun::kBatch);
        float weights = 0;
        for (const auto& c : u.contributions) weights += c.weight();
        EXPECT_NEAR(weights, 1.0f, 1e-5);  // still the batch-weighted average
    }
    EXPECT_TRUE(sawHandOffRound);
    // Its own late gradient is dropped, saying why; waiting drops nothing.
    const auto& drops = handOff.run.drops();
    ASSERT_TRUE(std::any_of(drops.begin(), drops.end(), [](const auto& d) {
        return d.worker == 0 && d.reason.find("handed to workers that were waiting") != std::string::npos;
    }));
    EXPECT_TRUE(wait.run.drops().empty());
    // The round waits about kHandOffAfter x an iteration (21 ms) and a share (about 7 ms), not the
    // 201 ms of the slowed iteration.
    EXPECT_LT(handOff.longestGap(), 0.08) << "the hand-off did not shorten the wait";
    EXPECT_GT(wait.longestGap(), 0.19);
    EXPECT_GT(handOff.updatesAfter(handOff.slowedAt), wait.updatesAfter(wait.slowedAt));
    // Reported as a hand-off event naming the late worker.
    const auto& events = handOff.run.events();
    EXPECT_TRUE(std::any_of(events.begin(), events.end(), [](const auto& e) {
        return e.kind() == wire::EVENT_HAND_OFF && e.detail().find("worker 0 (") != std::string::npos;
    }));
}

// A worker slowed for longer is handed off round after round, and every gradient is still accounted
// for (the fake run checks after each step); at full speed again it takes part as before.
TEST(TestElasticHandOff, aLongerSlowdownIsHandedOffEveryRoundAndRecovers) {
    SlowedRun handOff(false, 1.0), wait(true, 1.0);
    const auto& last = handOff.run.updates().back();
    EXPECT_TRUE(std::any_of(last.contributions.begin(), last.contributions.end(), [](const auto& c) { return c.worker_id() == 0; }))
        << "worker 0 does not take part again at full speed";
    // Waiting, the slowed second has a round per slowed iteration (201 ms); handing off, a round every
    // ~50 ms (its own batch, the wait until worker 0 is 2 x late, a share).
    const auto during = [](const SlowedRun& r) { return r.versionAt(r.slowedAt + 1.0) - r.versionAt(r.slowedAt); };
    EXPECT_LE(during(wait), 7u);
    EXPECT_GE(during(handOff), 3 * during(wait));
    // Each slowed gradient of worker 0 (computed on a version whose round closed without it, some
    // rounds ago) is dropped as handed off, and every other drop is a share the round did not need; also when
    // it arrives after its round's hand-off and is sent that round's version again (the fake run is
    // periodic: slowdowns from 4x to 14x put its arrivals at every point of a round).
    for (double factor = 4.0; factor <= 14.0; factor += 0.25) {
        SCOPED_TRACE(factor);
        const SlowedRun slowed(false, 1.0, factor);
        ASSERT_FALSE(slowed.run.drops().empty());
        for (const auto& d : slowed.run.drops()) {
            if (d.worker == 0)
                EXPECT_NE(d.reason.find("was handed to workers that were waiting"), std::string::npos) << d.reason;
            else  // a share, when worker 0's own gradient came in time after all
                EXPECT_NE(d.reason.find("not needed: that worker's own gradient came in time"), std::string::npos) << d.reason;
        }
    }
}

// The slack barrier never waits for a round, so it hands nothing off.
TEST(TestElasticHandOff, theSlackBarrierHandsNothingOff) {
    wire::ModeSettings mode = defaultModeSettings(wire::ELASTIC);
    mode.set_elastic_slack(true);
    FakeRun run(mode);
    for (int i = 0; i < 4; ++i) run.addWorker(kSpeed);
    run.simulate(3.0);
    run.setSpeed(0, kSpeed / 10);
    run.simulate(1.0);
    EXPECT_FALSE(run.policy().timerDue().has_value());
    EXPECT_TRUE(std::none_of(run.releases().begin(), run.releases().end(), [](const auto& r) { return r.batch < FakeRun::kBatch; }));
}
