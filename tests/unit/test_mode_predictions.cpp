// The what-if model (engine/policy/mode_predictions.h) on a synthetic speed profile worked out by
// hand, the auto controller reading the same predictions, and the accuracy forecast on a known
// power-law learning curve.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/policy/accuracy_forecast.h"
#include "engine/policy/auto_predictor.h"
#include "engine/policy/elastic_policy.h"
#include "engine/policy/grouping.h"
#include "engine/policy/mode_predictions.h"
#include "engine/plan/mode_catalog.h"

using namespace syncscope::engine;
namespace wire = syncscope::wire;

namespace {

constexpr uint32_t kBatch = 64;

// Pushes at the run's batch computed at `speed` samples/s (the proportional model: no fixed part).
void measureAt(WorkerRecord& w, double speed) {
    for (int i = 0; i < 3; ++i) w.recordCompute(kBatch, 1000.0 * kBatch / speed);
}

// Three workers at 1000 samples/s, one at 250, no communication time: t = 64, 64, 64, 256 ms.
WorkerRegistry oneStraggler() {
    WorkerRegistry workers;
    for (int i = 0; i < 4; ++i) {
        WorkerRecord& w = workers.add("w" + std::to_string(i), {}, kBatch);
        w.state = wire::WORKER_COMPUTING;
        measureAt(w, i == 3 ? 250.0 : 1000.0);
    }
    return workers;
}

wire::AutoCandidate predicted(const WorkerRegistry& workers, wire::SyncMode mode, uint32_t k = 0) {
    wire::ModeSettings s = defaultModeSettings(mode);
    if (k) s.set_k(k);
    if (mode == wire::GROUPED) s.set_group_by(wire::GROUP_BY_SPEED);
    return predictOption(workers, kBatch, s);
}

}  // namespace

TEST(TestModePredictions, eachModeOnOneStragglerAsWorkedOutByHand) {
    const WorkerRegistry workers = oneStraggler();
    // bsp: 4 x 64 samples every 256 ms.
    EXPECT_NEAR(predicted(workers, wire::BSP).samples_per_s(), 1000.0, 1e-6);
    EXPECT_EQ(predicted(workers, wire::BSP).mean_staleness(), 0.0);
    // asp and kasync: every worker at its own pace, 3000 + 250.
    EXPECT_NEAR(predicted(workers, wire::ASP).samples_per_s(), 3250.0, 1e-6);
    EXPECT_NEAR(predicted(workers, wire::ASP).mean_staleness(), 3.0, 1e-9);
    EXPECT_NEAR(predicted(workers, wire::KASYNC).samples_per_s(), 3250.0, 1e-6);
    EXPECT_NEAR(predicted(workers, wire::KASYNC).mean_staleness(), 2.0, 1e-9);  // N / K, K = N/2
    // ksync K=3 (the default from 4 workers): the three fast ones set the pace.
    EXPECT_NEAR(predicted(workers, wire::KSYNC).samples_per_s(), 3000.0, 1e-6);
    EXPECT_EQ(predicted(workers, wire::KSYNC).label(), "ksync K=3");
    // ssp: the slowest sets the clocks; staleness 3 x mean(t) / max(t) = 3 x 112 / 256.
    EXPECT_NEAR(predicted(workers, wire::SSP).samples_per_s(), 1000.0, 1e-6);
    EXPECT_NEAR(predicted(workers, wire::SSP).mean_staleness(), 3.0 * 112.0 / 256.0, 1e-9);
    // grouped by speed, G=2: [0 1 2] applies 192 samples every 64 ms, [3] 64 every 256 ms; each
    // group's update is as stale as the other's updates during its round.
    const wire::AutoCandidate g = predicted(workers, wire::GROUPED);
    EXPECT_EQ(g.label(), "grouped G=2 by speed");
    EXPECT_NEAR(g.samples_per_s(), 3250.0, 1e-6);
    EXPECT_NEAR(g.mean_staleness(), (3000.0 * 0.25 + 250.0 * 4.0) / 3250.0, 1e-9);
    // elastic: batches in proportion to speed (78.8 and 19.7), one barrier of 256 / 3250 s.
    EXPECT_NEAR(predicted(workers, wire::ELASTIC).samples_per_s(), 3250.0, 1e-6);
    EXPECT_EQ(predicted(workers, wire::ELASTIC).mean_staleness(), 0.0);
    // Effective samples/s: each step of staleness costs kStalenessCost of a sample's worth.
    EXPECT_NEAR(predicted(workers, wire::ASP).effective(), 3250.0 / (1.0 + 3.0 * kStalenessCost), 1e-6);
}

TEST(TestModePredictions, communicationTimeAndElasticRangeCount) {
    WorkerRegistry workers = oneStraggler();
    for (auto& [id, w] : workers.all()) w.typicalCommMs = 16.0;  // t = 80, 80, 80, 272 ms
    EXPECT_NEAR(predicted(workers, wire::BSP).samples_per_s(), 4.0 * 64 / 0.272, 1e-6);
    // A worker 100 times slower gets the smallest batch elastic allows (64 / 8), and sets the round.
    workers.all().at(3).compute = {};
    measureAt(workers.all().at(3), 10.0);
    workers.all().at(3).typicalCommMs = 0.0;
    // The three fast ones share the other 248 samples of a round (82.7 each, 99 ms with comm).
    const double slowBatch = 64.0 / 8, round = slowBatch / 10.0;
    EXPECT_NEAR(predicted(workers, wire::ELASTIC).samples_per_s(), 4.0 * 64 / round, 1e-6);
}

TEST(TestModePredictions, whatIfOffersEveryModeTheWorkersAllow) {
    const auto labels = [](size_t n) {
        WorkerRegistry workers;
        for (size_t i = 0; i < n; ++i) {
            WorkerRecord& w = workers.add("w" + std::to_string(i), {}, kBatch);
            w.state = wire::WORKER_COMPUTING;
            measureAt(w, 100.0 + static_cast<double>(i));
        }
        std::set<std::string> out;
        for (const wire::ModeSettings& s : whatIfSettings(n)) out.insert(predictOption(workers, kBatch, s).label());
        return out;
    };
    EXPECT_EQ(labels(2), (std::set<std::string>{"bsp", "ssp s=" + std::to_string(defaultModeSettings(wire::SSP).staleness_bound()), "asp", "elastic"}));
    EXPECT_EQ(labels(4).size(), size_t(7));
    EXPECT_TRUE(labels(4).count("kasync K=2") && labels(4).count("ksync K=3") && labels(4).count("grouped G=2 by speed"));
    EXPECT_TRUE(labels(8).count("ksync K=7") && labels(8).count("kasync K=4"));
}

// The auto controller weighs its options with the same numbers the what-if curves show.
TEST(TestModePredictions, autoWeighsTheSamePredictions) {
    const WorkerRegistry workers = oneStraggler();
    const std::vector<wire::AutoCandidate> candidates = predictCandidates(workers, kBatch);
    ASSERT_FALSE(candidates.empty());
    for (const wire::AutoCandidate& c : candidates) {
        const wire::AutoCandidate same = predictOption(workers, kBatch, c.settings());
        EXPECT_EQ(c.label(), same.label());
        EXPECT_DOUBLE_EQ(c.samples_per_s(), same.samples_per_s()) << c.label();
        EXPECT_DOUBLE_EQ(c.effective(), same.effective()) << c.label();
    }
    EXPECT_EQ(decideMode(workers, kBatch, "bsp").chosen().label(), "ksync K=3");
}

TEST(TestAccuracyForecast, solvesAPowerLawCurveForItsTarget) {
    // error = 0.6 x (samples / 1000)^-0.4
    const auto accuracy = [](double samples) { return 1.0 - 0.6 * std::pow(samples / 1000.0, -0.4); };
    AccuracyForecast f;
    EXPECT_FALSE(f.samplesTo(0.9, 1000.0));
    for (double x : {2e3, 4e3, 8e3}) f.add(x, accuracy(x));
    const double target = 0.85, exact = 1000.0 * std::pow(0.15 / 0.6, -1.0 / 0.4);  // 32,000 samples
    ASSERT_TRUE(f.samplesTo(target, 8e3));
    EXPECT_NEAR(*f.samplesTo(target, 8e3), exact - 8e3, 1.0);
    EXPECT_EQ(*f.samplesTo(accuracy(4e3), 8e3), 0.0);  // reached already
    EXPECT_FALSE(f.samplesTo(0.99, 8e3));  // 10^6.5 samples: beyond kMaxExtrapolation
    // Only the newest kFitPoints count: a curve that stops improving gives no forecast.
    for (size_t i = 0; i < AccuracyForecast::kFitPoints; ++i) f.add(1e4 + 1e3 * i, 0.80);
    EXPECT_FALSE(f.samplesTo(0.85, 2e4));
}

// A learning curve flattens towards a floor (convex in log-log): a line fitted through the mean
// point passes below the newest evaluation there and would call a target no evaluation has reached
// "reached already". The forecast goes on from the newest evaluation.
TEST(TestAccuracyForecast, aFlatteningCurveDoesNotReachTheTargetEarly) {
    const auto accuracy = [](double samples) { return 0.9 - 0.9 * std::pow(samples / 1000.0, -0.8); };
    AccuracyForecast f;
    for (double x : {1e3, 2e3, 4e3, 8e3, 16e3}) f.add(x, accuracy(x));
    const double target = accuracy(16e3) + 0.01;  // a point above every evaluation
    const auto left = f.samplesTo(target, 16e3);
    ASSERT_TRUE(left);
    EXPECT_GT(*left, 500.0) << "a target above every evaluation is not reached yet";
    EXPECT_LT(*left, 16e3);
}

// The compute-time line: proportional until two batch sizes far enough apart are seen, then the
// fitted fixed part and per-sample part; preempted pushes (outliers) do not move it; a line that
// would fall with the batch or start below zero is not believed.
TEST(TestComputeTimeModel, fitsAFixedPartOnceTwoBatchSizesAreSeen) {
    ComputeTimeModel m;
    EXPECT_FALSE(m.measured());
    for (int i = 0; i < 10; ++i) m.record(64, 20.0 + 0.5 * 64);
    EXPECT_NEAR(m.fixedMs(), 0.0, 1e-12);                    // one size: proportional
    EXPECT_NEAR(m.milliseconds(64), 52.0, 1e-9);
    EXPECT_NEAR(m.samplesPerSecond(), 64 / 0.052, 1e-6);
    m.record(60, 20.0 + 0.5 * 60);                           // 64 / 60 < kSpreadToFit: still proportional
    EXPECT_NEAR(m.fixedMs(), 0.0, 1e-12);
    for (int i = 0; i < 10; ++i) m.record(32, 20.0 + 0.5 * 32);
    m.record(32, 500.0);                                     // one preempted push
    EXPECT_NEAR(m.fixedMs(), 20.0, 0.5);
    EXPECT_NEAR(m.perSampleMs(), 0.5, 0.01);
    EXPECT_NEAR(m.milliseconds(128), 84.0, 1.0);

    ComputeTimeModel falling;                               // noise: bigger batches faster
    for (int i = 0; i < 5; ++i) falling.record(32, 30.0), falling.record(64, 25.0);
    EXPECT_NEAR(falling.fixedMs(), 0.0, 1e-12);
    EXPECT_GT(falling.perSampleMs(), 0.0);

    ComputeTimeModel window;                                 // the oldest pushes leave the window
    for (size_t i = 0; i < ComputeTimeModel::kWindow; ++i) window.record(16, 16.0);
    for (size_t i = 0; i < ComputeTimeModel::kWindow; ++i) window.record(64, 64.0 * 2);
    EXPECT_EQ(window.recent().size(), ComputeTimeModel::kWindow);
    EXPECT_NEAR(window.milliseconds(16), 32.0, 1e-9);
    EXPECT_EQ(window.recent().front().batch, 64u);

    // A CPU-time model remembers sizes that left the window: elastic keeps a throttled worker at one
    // small size for many pushes, and its time at the run's batch must still come from a line.
    ComputeTimeModel cpu(ComputeTimeModel::kSizesKeptForCpu), plain;
    for (ComputeTimeModel* model : {&cpu, &plain}) {
        for (size_t i = 0; i < ComputeTimeModel::kWindow; ++i) model->record(64, 1.5 + 0.14 * 64);
        for (size_t i = 0; i < 3 * ComputeTimeModel::kWindow; ++i) model->record(10, 1.5 + 0.14 * 10);
    }
    EXPECT_NEAR(cpu.milliseconds(64), 1.5 + 0.14 * 64, 1e-9);
    EXPECT_NEAR(plain.milliseconds(64), (1.5 + 0.14 * 10) * 6.4, 1e-9);  // through zero: 2x too high
    EXPECT_NEAR(cpu.samplesPerSecond(), plain.samplesPerSecond(), 1e-9);  // the speed is the window's
    // It keeps kSizesKeptForCpu sizes, forgetting the ones seen longest ago (64, then 10): the line
    // is then the new sizes' alone.
    for (uint32_t b = 11; b < 11 + ComputeTimeModel::kSizesKeptForCpu; ++b) cpu.record(b, 3.0 + 0.14 * b);
    EXPECT_NEAR(cpu.fixedMs(), 3.0, 1e-9);
    EXPECT_NEAR(cpu.perSampleMs(), 0.14, 1e-9);
}

// Bursts: 4 workers whose iterations take 64 ms, one in ten 320 ms (3 of their last 30 pushes). The
// median is 64 ms for everyone, but a round waits for its slowest: with probability 1 - 0.9^4 someone
// bursts, so a bsp round takes 64 x (0.9^4 + 5 x (1 - 0.9^4)) = 152 ms on average, not 64; ksync K=3
// waits for the third shortest (a round has two or more bursts with probability 5.2%: 75.4 ms), and
// asp, where no one waits for anyone, keeps each worker's own pace.
TEST(TestModePredictions, aBarrierPaysForEveryWorkersBursts) {
    WorkerRegistry workers;
    for (int i = 0; i < 4; ++i) {
        WorkerRecord& w = workers.add("w" + std::to_string(i), {}, kBatch);
        w.state = wire::WORKER_COMPUTING;
        for (int p = 0; p < 30; ++p) w.recordCompute(kBatch, p % 10 == 3 ? 320.0 : 64.0);
    }
    const double p = 0.9 * 0.9 * 0.9 * 0.9, bspRound = 0.064 * (p + 5 * (1 - p));
    EXPECT_NEAR(predicted(workers, wire::BSP).samples_per_s(), 4 * 64 / bspRound, 0.08 * 4 * 64 / bspRound);
    const double twoOrMore = 1 - p - 4 * 0.1 * 0.9 * 0.9 * 0.9, ksyncRound = 0.064 * (1 - twoOrMore) + 0.320 * twoOrMore;
    EXPECT_NEAR(predicted(workers, wire::KSYNC).samples_per_s(), 3 * 64 / ksyncRound, 0.05 * 3 * 64 / ksyncRound);
    EXPECT_NEAR(predicted(workers, wire::ASP).samples_per_s(), 4 * 1000.0, 1e-6);  // 4 x 64 per 64 ms (medians)
    // The same prediction on every call (a fixed seed). Elastic waiting for the late pays the same
    // bursts as bsp; with the hand-off, a round with one burst ends when the three waiting have
    // computed a third of a batch each after the burst is 2 x 64 ms late (149.3 ms, not 320), with
    // two when the two waiting have computed one batch each (192 ms); three or more are not handed off
    // (the late outnumber the waiting): 96.0 ms on average.
    EXPECT_EQ(predicted(workers, wire::BSP).samples_per_s(), predicted(workers, wire::BSP).samples_per_s());
    wire::ModeSettings waits = defaultModeSettings(wire::ELASTIC);
    waits.set_elastic_wait_for_late(true);
    const wire::AutoCandidate waiting = predictOption(workers, kBatch, waits);
    EXPECT_EQ(waiting.label(), "elastic waiting for the late");
    EXPECT_NEAR(waiting.samples_per_s(), 4 * 64 / bspRound, 0.08 * 4 * 64 / bspRound);
    const double one = 4 * 0.1 * 0.9 * 0.9 * 0.9, two = 6 * 0.01 * 0.81;
    const double handOffRound = p * 0.064 + one * (0.128 + 0.064 / 3) + two * (0.128 + 0.064) + (1 - p - one - two) * 0.320;
    EXPECT_NEAR(predicted(workers, wire::ELASTIC).samples_per_s(), 4 * 64 / handOffRound, 0.05 * 4 * 64 / handOffRound);
}

// A worker under a CPU quota (engine/core/cpu_limit.h): it computes a batch at full speed on quota it
// saved while waiting and is throttled in a later iteration, so its compute times say 1000 samples/s
// like the others' while its CPU time per iteration (64 ms) over its limit (a quarter of a CPU) says
// 256 ms: it is oneStraggler()'s worker 3, and every prediction and elastic's balance must say so.
TEST(TestModePredictions, aWorkerUnderACpuQuotaIsTimedByItsCpuTimeOverTheLimit) {
    WorkerRegistry workers;
    for (int i = 0; i < 4; ++i) {
        WorkerRecord& w = workers.add("w" + std::to_string(i), {}, kBatch);
        w.state = wire::WORKER_COMPUTING;
        measureAt(w, 1000.0);
    }
    WorkerRecord& limited = workers.all().at(3);
    EXPECT_NEAR(predicted(workers, wire::BSP).samples_per_s(), 4000.0, 1e-6);  // before it reports its CPU
    for (int p = 0; p < 3; ++p) limited.recordCpu(kBatch, 64.0, 0.25);
    EXPECT_NEAR(limited.quotaBoundMs(kBatch), 256.0, 1e-9);
    EXPECT_NEAR(limited.iterationMs(kBatch), 256.0, 1e-9);
    EXPECT_NEAR(limited.batchWithin(128.0), 32.0, 1e-9);  // 1 ms of CPU per sample, 0.25 ms a ms
    EXPECT_NEAR(workers.all().at(0).batchWithin(128.0), 128.0, 1e-9);
    // The numbers of eachModeOnOneStragglerAsWorkedOutByHand.
    EXPECT_NEAR(predicted(workers, wire::BSP).samples_per_s(), 1000.0, 1e-6);
    EXPECT_NEAR(predicted(workers, wire::ASP).samples_per_s(), 3250.0, 1e-6);
    EXPECT_NEAR(predicted(workers, wire::KSYNC).samples_per_s(), 3000.0, 1e-6);
    EXPECT_NEAR(predicted(workers, wire::ELASTIC).samples_per_s(), 3250.0, 1e-6);
    const std::map<uint32_t, double> batches = balancedBatches(workers, {0, 1, 2, 3}, kBatch);
    EXPECT_NEAR(batches.at(3), 256.0 * 250 / 3250, 1e-6);  // 19.7 of the round's 256 samples
    EXPECT_NEAR(batches.at(0), 256.0 * 1000 / 3250, 1e-6);
    // A limit it does not reach (2 CPUs for a process that uses one) changes nothing.
    for (int p = 0; p < 3; ++p) limited.recordCpu(kBatch, 64.0, 2.0);
    EXPECT_NEAR(limited.iterationMs(kBatch), 64.0, 1e-9);
    EXPECT_NEAR(predicted(workers, wire::BSP).samples_per_s(), 4000.0, 1e-6);
    // Nor does a worker that reports no limit (0), or one from before protocol 1.14 (no CPU times).
    limited.recordCpu(kBatch, 64.0, 0.0);
    EXPECT_EQ(limited.quotaBoundMs(kBatch), 0.0);
}

// Grouping by speed reads what a worker sustains: under a CPU quota its compute times say it is as
// fast as the fastest (elastic's small batch runs on saved quota), its quota says a tenth of the
// slow ones: it gets the straggler's group of its own.
TEST(TestModePredictions, groupingBySpeedSeesAWorkersCpuQuota) {
    WorkerRegistry workers;
    for (int i = 0; i < 4; ++i) {
        WorkerRecord& w = workers.add("w" + std::to_string(i), {}, kBatch);
        w.state = wire::WORKER_COMPUTING;
        measureAt(w, i < 2 ? 5000.0 : 1000.0);
        w.computeSpeed = w.compute.samplesPerSecond();
    }
    const auto groups = [&] { return assignGroups(workers, 2, wire::GROUP_BY_SPEED, {}); };
    EXPECT_EQ(groups(), (std::map<uint32_t, uint32_t>{{0, 0}, {1, 0}, {2, 1}, {3, 1}}));
    WorkerRecord& limited = workers.all().at(0);
    for (int p = 0; p < 3; ++p) limited.recordCpu(kBatch, 64.0, 0.1);  // 640 ms a batch: 100 samples/s
    EXPECT_NEAR(limited.sustainedSpeed(), 100.0, 1e-9);
    EXPECT_NEAR(workers.all().at(1).sustainedSpeed(), 5000.0, 1e-9);
    EXPECT_EQ(groups(), (std::map<uint32_t, uint32_t>{{1, 0}, {2, 0}, {3, 0}, {0, 1}}));
}
