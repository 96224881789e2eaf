// Every sync policy driven in-process by a fake run (tests/unit/fake_policy_context.h): scripted
// workers of chosen speeds on a fake clock, no sockets and no model. Each test checks a mode's rule
// on the updates, drops and releases it produced, and every step checks that each gradient pushed
// is applied, dropped or pending. The multi-process tests (test_mode_semantics, test_mode_switching)
// stay as end-to-end checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "engine/policy/auto_predictor.h"
#include "engine/plan/mode_catalog.h"
#include "fake_policy_context.h"
#include "tests/unit/test_support.h"

using namespace syncscope;
using namespace syncscope::engine;
using syncscope::engine::testing::AppliedUpdate;
using syncscope::engine::testing::FakeRun;

namespace {

wire::ModeSettings modeOf(wire::SyncMode mode) { return defaultModeSettings(mode); }

std::set<uint32_t> membersOf(const AppliedUpdate& u) {
    std::set<uint32_t> ids;
    for (const auto& c : u.contributions) ids.insert(c.worker_id());
    return ids;
}

}  // namespace

TEST(TestSyncPolicies, bspAveragesEveryWorkerOnOneVersion) {
    FakeRun run(modeOf(wire::BSP));
    for (double speed : {6400.0, 3200.0, 12800.0}) run.addWorker(speed);
    run.simulate(2.0);
    ASSERT_TRUE(run.updates().size() > 50);
    for (const auto& u : run.updates()) {
        ASSERT_EQ(membersOf(u), (std::set<uint32_t>{0, 1, 2}));
        for (const auto& c : u.contributions) {
            ASSERT_EQ(c.base_version(), u.version - 1);
            ASSERT_EQ(c.staleness(), 0u);
            ASSERT_FUZZY_EQ(c.weight(), 1.0f / 3.0f);
        }
    }
    ASSERT_TRUE(run.drops().empty());
    // The slowest sets the pace: the fast worker pushed no more often than it.
    ASSERT_EQ(run.pushedBy(2), run.pushedBy(1));
}

TEST(TestSyncPolicies, bspGoesOnWithoutALostWorker) {
    FakeRun run(modeOf(wire::BSP));
    for (int i = 0; i < 3; ++i) run.addWorker(6400);
    run.simulate(0.5);
    run.lose(1);
    const size_t before = run.updates().size();
    run.simulate(0.5);
    ASSERT_TRUE(run.updates().size() > before + 10);
    for (size_t i = before + 1; i < run.updates().size(); ++i)
        ASSERT_EQ(membersOf(run.updates()[i]), (std::set<uint32_t>{0, 2}));
}

TEST(TestSyncPolicies, ksyncTakesTheFirstKAndDropsTheLate) {
    wire::ModeSettings mode = modeOf(wire::KSYNC);
    mode.set_k(3);
    FakeRun run(mode);
    run.addWorker(6400 / 3.0);  // worker 0: three times slower
    for (int i = 0; i < 3; ++i) run.addWorker(6400);
    run.simulate(3.0);
    ASSERT_TRUE(run.updates().size() > 100);
    for (const auto& u : run.updates()) {
        ASSERT_EQ(u.contributions.size(), size_t(3));
        for (const auto& c : u.contributions) ASSERT_EQ(c.base_version(), u.version - 1);
    }
    ASSERT_TRUE(!run.drops().empty());
    const auto late = std::count_if(run.drops().begin(), run.drops().end(),
                                    [](const auto& d) { return d.reason.rfind("late", 0) == 0; });
    ASSERT_EQ(size_t(late), run.drops().size());
    const auto byStraggler = std::count_if(run.drops().begin(), run.drops().end(), [](const auto& d) { return d.worker == 0; });
    ASSERT_TRUE(byStraggler * 10 >= long(run.drops().size()) * 9) << byStraggler;
}

TEST(TestSyncPolicies, ksyncDefaultK) {
    for (int workers : {3, 4, 6}) {
        FakeRun run(modeOf(wire::KSYNC));  // K = 0: N-1 from 4 workers, else N
        for (int i = 0; i < workers; ++i) run.addWorker(6400 * (1 + 0.1 * i));
        run.simulate(0.5);
        const size_t expected = workers >= 4 ? size_t(workers - 1) : size_t(workers);
        for (const auto& u : run.updates()) ASSERT_EQ(u.contributions.size(), expected);
    }
}

TEST(TestSyncPolicies, sspHoldsTheBound) {
    wire::ModeSettings mode = modeOf(wire::SSP);
    mode.set_staleness_bound(2);
    FakeRun run(mode);
    run.addWorker(1600);  // four times slower than the others
    for (int i = 0; i < 3; ++i) run.addWorker(6400);
    run.simulate(3.0);
    for (const auto& r : run.releases()) ASSERT_TRUE(r.clock <= r.minClock + 2) << r.time;
    // The fast ones are held: without the bound they would push four times as often.
    ASSERT_TRUE(run.pushedBy(1) <= run.pushedBy(0) + 3);
    for (const auto& u : run.updates()) ASSERT_EQ(u.contributions.size(), size_t(1));
}

TEST(TestSyncPolicies, aspModulatesByStaleness) {
    for (auto modulation : {wire::LR_NONE, wire::LR_INVERSE, wire::LR_DYNSGD}) {
        wire::ModeSettings mode = modeOf(wire::ASP);
        mode.set_lr_modulation(modulation);
        FakeRun run(mode);
        for (int i = 0; i < 4; ++i) run.addWorker(6400 * (1 + 0.3 * i));
        run.simulate(1.0);
        int stale = 0;
        for (const auto& u : run.updates()) {
            ASSERT_EQ(u.contributions.size(), size_t(1));
            const auto& c = u.contributions[0];
            ASSERT_EQ(uint64_t(c.staleness()), u.version - 1 - c.base_version());
            const double tau = c.staleness();
            stale += tau > 0;
            const double expected = modulation == wire::LR_DYNSGD ? 1 / (tau + 1)
                                    : modulation == wire::LR_INVERSE && tau > 0 ? 1 / tau
                                                                                 : 1.0;
            ASSERT_TRUE(std::abs(u.lrScale - expected) < 1e-6);
        }
        ASSERT_TRUE(stale > 10);  // four workers, nobody waits: gradients are stale
    }
}

TEST(TestSyncPolicies, groupedPinsEachGroupsRound) {
    wire::ModeSettings mode = modeOf(wire::GROUPED);
    mode.set_group_count(2);
    FakeRun run(mode);
    run.addWorker(3200);  // group 0 (round robin): workers 0 and 2, the slow group
    run.addWorker(6400);
    run.addWorker(3200);
    run.addWorker(6400);
    run.simulate(3.0);
    size_t slowGroup = 0, fastGroup = 0, stale = 0;
    for (const auto& u : run.updates()) {
        const std::set<uint32_t> members = membersOf(u);
        ASSERT_TRUE(members == (std::set<uint32_t>{0, 2}) || members == (std::set<uint32_t>{1, 3}));
        (members.count(0) ? slowGroup : fastGroup)++;
        const uint64_t base = u.contributions[0].base_version();
        for (const auto& c : u.contributions) {
            ASSERT_EQ(c.base_version(), base);  // one pinned version per round
            ASSERT_EQ(uint64_t(c.staleness()), u.version - 1 - base);
        }
        stale += u.contributions[0].staleness() > 0;
    }
    ASSERT_TRUE(fastGroup > slowGroup * 3 / 2);  // asynchronous between groups
    ASSERT_TRUE(stale > 0);
}

// Workers that start in any order (PyTorch workers import torch at their own pace) end in the
// groups their ids give, explicit assignments hold for late starters, and a grouping formed while
// fewer workers had started than groups were asked for fills the missing groups as workers start.
TEST(TestSyncPolicies, groupedPlacesLateStartersByTheirIds) {
    wire::ModeSettings roundRobin = modeOf(wire::GROUPED);
    roundRobin.set_group_count(2);
    FakeRun run(roundRobin);
    for (int i = 0; i < 4; ++i) run.registerWorker(3200);
    for (uint32_t id : {3u, 1u, 2u, 0u}) run.startWorker(id);
    for (uint32_t id = 0; id < 4; ++id) ASSERT_EQ(run.workers().find(id)->group, id % 2) << "worker " << id;

    wire::ModeSettings explicitGroups = modeOf(wire::GROUPED);
    explicitGroups.set_group_by(wire::GROUP_EXPLICIT);
    (*explicitGroups.mutable_assignment())[0] = 1;
    (*explicitGroups.mutable_assignment())[1] = 1;
    (*explicitGroups.mutable_assignment())[2] = 0;
    FakeRun named(explicitGroups);
    for (int i = 0; i < 4; ++i) named.registerWorker(3200);
    for (uint32_t id : {0u, 1u, 3u, 2u}) named.startWorker(id);
    const std::vector<uint32_t> expected = {1, 1, 0, 0};  // worker 3 is not named: it evens the groups out
    for (uint32_t id = 0; id < 4; ++id) ASSERT_EQ(named.workers().find(id)->group, expected[id]) << "worker " << id;

    FakeRun switched(modeOf(wire::ASP));
    switched.addWorker(3200);
    const uint32_t late = switched.registerWorker(3200);
    switched.simulate(0.2);
    switched.switchMode(roundRobin);  // one worker has started: one group formed
    const size_t before = switched.updates().size();
    switched.startWorker(late);
    ASSERT_EQ(switched.workers().find(0)->group, 0u);
    ASSERT_EQ(switched.workers().find(late)->group, 1u);
    switched.simulate(0.5);
    std::set<uint32_t> applied;
    for (size_t i = before; i < switched.updates().size(); ++i) {
        ASSERT_EQ(membersOf(switched.updates()[i]).size(), 1u);  // two groups of one: each applies alone
        applied.insert(*membersOf(switched.updates()[i]).begin());
    }
    ASSERT_EQ(applied, (std::set<uint32_t>{0, late}));
    ASSERT_TRUE(switched.accountingError().empty()) << switched.accountingError().c_str();
}

TEST(TestSyncPolicies, groupedBySpeedIsolatesTheStraggler) {
    wire::ModeSettings mode = modeOf(wire::GROUPED);
    mode.set_group_count(2);
    mode.set_group_by(wire::GROUP_BY_SPEED);
    FakeRun run(mode);
    run.addWorker(1000);  // the straggler
    for (int i = 0; i < 3; ++i) run.addWorker(6400 * (1 + 0.05 * i));
    run.simulate(3.0);  // regrouped once every worker has been measured
    const auto regrouped = std::find_if(run.events().begin(), run.events().end(), [](const auto& e) {
        return e.kind() == wire::EVENT_GROUPS && e.detail().rfind("regrouped by measured speed", 0) == 0;
    });
    ASSERT_TRUE(regrouped != run.events().end());
    ASSERT_TRUE(regrouped->detail().find("[1 2 3] [0]") != std::string::npos ||
                 regrouped->detail().find("[0] [1 2 3]") != std::string::npos) << regrouped->detail().c_str();
}

// The first measurement can be wrong (a worker still loading its data, a busy machine): the groups
// follow the speeds once those separate the workers clearly better, and stay put among equals.
TEST(TestSyncPolicies, groupedBySpeedFollowsTheSpeedsWithoutFlapping) {
    wire::ModeSettings mode = modeOf(wire::GROUPED);
    mode.set_group_count(2);
    mode.set_group_by(wire::GROUP_BY_SPEED);
    auto regroupings = [](const FakeRun& run) {
        std::vector<std::string> seen;
        for (const auto& e : run.events())
            if (e.kind() == wire::EVENT_GROUPS && e.detail().rfind("regrouped by measured speed", 0) == 0)
                seen.push_back(e.detail());
        return seen;
    };
    FakeRun run(mode);
    for (int i = 0; i < 4; ++i) run.addWorker(i == 1 ? 1000 : 6400 * (1 + 0.05 * i));  // 1 measured slow at first
    run.simulate(2.0);
    ASSERT_EQ(regroupings(run).size(), 1u);
    ASSERT_TRUE(regroupings(run)[0].find("[1]") != std::string::npos) << regroupings(run)[0].c_str();
    run.setSpeed(1, 6400);  // it was the load; worker 0 is the real straggler
    run.setSpeed(0, 1000);
    run.simulate(4.0);
    const auto seen = regroupings(run);
    ASSERT_EQ(seen.size(), 2u) << "regrouped once more, and only once";
    ASSERT_TRUE(seen[1].find("[0] [1 2 3]") != std::string::npos || seen[1].find("[1 2 3] [0]") != std::string::npos)
        << seen[1].c_str();
    ASSERT_TRUE(run.accountingError().empty()) << run.accountingError().c_str();

    FakeRun equals(mode);  // speeds 3% apart: one regrouping at the first measurement, none after
    for (int i = 0; i < 4; ++i) equals.addWorker(6400 * (1 + 0.03 * i));
    equals.simulate(6.0);
    ASSERT_TRUE(regroupings(equals).size() <= 1u);
}

TEST(TestSyncPolicies, kasyncAppliesEveryK) {
    for (uint32_t k : {1u, 2u}) {
        wire::ModeSettings mode = modeOf(wire::KASYNC);
        mode.set_k(k);
        FakeRun run(mode);
        for (int i = 0; i < 4; ++i) run.addWorker(6400);
        run.simulate(2.0);
        double tauSum = 0;
        size_t n = 0;
        for (const auto& u : run.updates()) {
            ASSERT_EQ(u.contributions.size(), size_t(k));
            for (const auto& c : u.contributions) tauSum += c.staleness(), ++n;
        }
        // Equal speeds: a gradient waits for the others' (N-1)/K updates.
        ASSERT_TRUE(std::abs(tauSum / n - 3.0 / k) < 0.5) << tauSum / n;
    }
}

TEST(TestSyncPolicies, elasticSizesBatchesBySpeed) {
    FakeRun run(modeOf(wire::ELASTIC));  // rebalancing every 2 s by default
    run.addWorker(2000);
    run.addWorker(6000);
    run.simulate(5.0);
    const auto& workers = run.workers().all();
    const double slow = workers.at(0).batchSize, fast = workers.at(1).batchSize;
    ASSERT_TRUE(std::abs(fast / (slow + fast) - 0.75) < 0.05) << slow << " " << fast;
    ASSERT_FUZZY_EQ(slow + fast, 2.0 * FakeRun::kBatch);
    ASSERT_TRUE(std::any_of(run.events().begin(), run.events().end(), [](const auto& e) { return e.kind() == wire::EVENT_BATCH; }));
    // Gradients are weighted by batch size in the (enforced, BSP) average.
    const auto& last = run.updates().back();
    for (const auto& c : last.contributions) ASSERT_FUZZY_EQ(c.weight(), float(c.batch_size() / (slow + fast)));
}

// A step costs something whatever its batch (an interpreter, a launch): worker 0 is slowed 2x, fixed
// part included (40 ms + 1 ms a sample), worker 1 not (20 ms + 0.5 ms a sample). Equal iterations
// need 29.3 and 98.7 of the 128 samples (69.3 ms each). Sizing by samples/s alone creeps there a
// rebalance at a time (42.7, 35.2, 32.1, ...: 13% apart after the second); the fitted line gets there
// at the second, once it has seen two batch sizes. A starved process is slow to communicate too:
// with 10 ms more of it, worker 0's share is 22.7.
TEST(TestSyncPolicies, elasticEqualisesIterationTimesWithAFixedPartPerStep) {
    for (const auto& [commMs, slowShare] : {std::pair{0.0, 29.33}, std::pair{10.0, 22.67}}) {
        SCOPED_TRACE(commMs);
        wire::ModeSettings mode = modeOf(wire::ELASTIC);
        mode.set_rebalance_seconds(1.0);
        FakeRun run(mode);
        run.setFixedSeconds(run.addWorker(1000, commMs / 1000), 0.040);
        run.setFixedSeconds(run.addWorker(2000, 0), 0.020);
        run.simulate(2.5);  // two rebalances
        const auto& workers = run.workers().all();
        const double slow = workers.at(0).batchSize, fast = workers.at(1).batchSize;
        EXPECT_NEAR(slow, slowShare, 1.0);
        EXPECT_NEAR(slow + fast, 2.0 * FakeRun::kBatch, 1.0);
        const double slowMs = 40 + commMs + slow, fastMs = 20 + 0.5 * fast;
        EXPECT_LT(std::abs(slowMs - fastMs) / fastMs, 0.03) << slowMs << " ms against " << fastMs;
        // The fitted lines are the workers' own.
        EXPECT_NEAR(workers.at(0).compute.fixedMs(), 40.0, 1e-6);
        EXPECT_NEAR(workers.at(1).compute.perSampleMs(), 0.5, 1e-9);
    }
}

TEST(TestSyncPolicies, autoSwitchesAwayFromAStraggler) {
    wire::ModeSettings mode = modeOf(wire::AUTO);
    mode.set_decision_seconds(1);
    FakeRun run(mode);
    run.addWorker(1280);  // two workers five times slower: the start, one backup worker, still waits
    run.addWorker(1280);
    for (int i = 0; i < 6; ++i) run.addWorker(6400 * (1 + 0.02 * i));
    run.simulate(4.0);
    const auto decision = std::find_if(run.events().begin(), run.events().end(),
                                       [](const auto& e) { return e.kind() == wire::EVENT_AUTO; });
    ASSERT_TRUE(decision != run.events().end());
    const wire::AutoDecision& d = decision->decision();
    ASSERT_EQ(d.verdict(), wire::AutoDecision::SWITCHES);
    ASSERT_TRUE(d.slowest_worker() <= 1u);
    ASSERT_EQ(d.current_label(), std::string("ksync K=7"));
    ASSERT_TRUE(d.slowest_ms() > 4 * d.median_ms());
    ASSERT_TRUE(d.candidates_size() >= 4);
    ASSERT_TRUE(d.chosen().label() != "bsp");
    const auto current = std::find_if(d.candidates().begin(), d.candidates().end(),
                                      [&](const auto& c) { return c.label() == d.current_label(); });
    ASSERT_TRUE(current == d.candidates().end() || d.chosen().effective() > kAutoSwitchGain * current->effective());
    ASSERT_TRUE(decision->detail().rfind("switches to " + d.chosen().label(), 0) == 0);
}

TEST(TestSyncPolicies, autoStaysWhenAllAreEqual) {
    // Equal workers (and one straggler among 8, which its start, ksync K=N-1, already leaves out)
    // give no option 25% better than the one running: it says so once and stays.
    wire::ModeSettings mode = modeOf(wire::AUTO);
    mode.set_decision_seconds(1);
    FakeRun run(mode);
    for (int i = 0; i < 3; ++i) run.addWorker(6400);  // below 4 workers auto starts in bsp
    run.simulate(3.0);
    const auto decisions = std::count_if(run.events().begin(), run.events().end(),
                                         [](const auto& e) { return e.kind() == wire::EVENT_AUTO; });
    ASSERT_EQ(decisions, 1);  // its first decision is announced, staying is not repeated
    ASSERT_EQ(run.events().front().decision().verdict(), wire::AutoDecision::STAYS);
    ASSERT_EQ(run.events().front().decision().current_label(), std::string("bsp"));

    FakeRun eight(mode);
    eight.addWorker(1280);
    for (int i = 0; i < 7; ++i) eight.addWorker(6400);
    eight.simulate(3.0);
    ASSERT_EQ(eight.events().front().decision().verdict(), wire::AutoDecision::STAYS);
    ASSERT_EQ(eight.events().front().decision().current_label(), std::string("ksync K=7"));
}

TEST(TestSyncPolicies, advisorProposesAndWaitsForAnAnswer) {
    wire::ModeSettings mode = modeOf(wire::AUTO);
    mode.set_decision_seconds(1);
    mode.set_advise_only(true);
    FakeRun run(mode);
    run.addWorker(1280);
    run.addWorker(1280);
    for (int i = 0; i < 6; ++i) run.addWorker(6400);
    run.simulate(4.0);
    std::vector<wire::Event> advice;
    std::copy_if(run.events().begin(), run.events().end(), std::back_inserter(advice),
                 [](const auto& e) { return e.kind() == wire::EVENT_ADVICE; });
    ASSERT_EQ(advice.size(), size_t(1));  // proposed once, not every period
    const wire::AutoDecision proposal = advice[0].decision();
    ASSERT_EQ(proposal.verdict(), wire::AutoDecision::ADVISES);
    ASSERT_EQ(proposal.advice_id(), 1u);
    // Not taken yet: still one backup worker (ksync K=7), 7 gradients per update.
    ASSERT_EQ(run.updates().back().contributions.size(), size_t(7));

    ASSERT_TRUE(!run.policy().answerAdvice(2, true));  // no such proposal
    ASSERT_TRUE(run.policy().answerAdvice(1, true));
    const wire::Event& answered = run.events().back();
    ASSERT_EQ(answered.kind(), wire::EVENT_ADVICE_ANSWERED);
    ASSERT_TRUE(answered.decision().accepted());
    ASSERT_EQ(answered.decision().chosen().label(), proposal.chosen().label());
    ASSERT_TRUE(!run.policy().answerAdvice(1, false));  // answered already
}

TEST(TestSyncPolicies, everyGradientAccountedAcrossSwitches) {
    // Random speeds, a worker lost, and a switch every 0.3 s through every mode of the catalogue;
    // after every push pushed = applied + dropped + pending (checked by the fake), and the version
    // only ever goes up.
    std::mt19937 random(7);
    FakeRun run(modeOf(wire::BSP));
    for (int i = 0; i < 5; ++i) run.addWorker(2000 + random() % 8000);
    uint64_t lastVersion = 0;
    const auto check = [&] {
        ASSERT_TRUE(run.version() >= lastVersion);
        lastVersion = run.version();
    };
    const auto& modes = modeCatalog().modes();
    for (int round = 0; round < 3 * modes.size(); ++round) {
        wire::ModeSettings next = defaultModeSettings(modes[round % modes.size()].mode());
        next.set_lr_modulation(wire::LR_DYNSGD);
        run.switchMode(next);
        ASSERT_TRUE(run.accountingError().empty()) << run.accountingError().c_str();
        if (round == 5) run.lose(3);
        run.simulate(0.3, check);
    }
    ASSERT_TRUE(run.pushed() > 500);
    ASSERT_TRUE(run.accountingError().empty()) << run.accountingError().c_str();
}

// A group aggregator's sums (GradientSum) against the same gradients arriving one by one: the same
// update (average, weights, contributions), whether the round comes in one sum or in several.
TEST(TestSyncPolicies, bspSumsEqualTheSameGradientsOneByOne) {
    auto round = [](const std::vector<std::vector<uint32_t>>& sums) {
        FakeRun run(modeOf(wire::BSP));
        for (int i = 0; i < 4; ++i) run.addWorker(6400);
        for (const auto& workers : sums) run.pushSum(workers);
        SS_CHECK(run.accountingError().empty(), run.accountingError().c_str());
        return run.updates();
    };
    FakeRun single(modeOf(wire::BSP));
    for (int i = 0; i < 4; ++i) single.addWorker(6400);
    single.simulate(0.0115);  // a batch of 64 at 6400 samples/s and 1 ms of communication: one round
    ASSERT_EQ(single.updates().size(), size_t(1));
    for (const auto& sums : std::vector<std::vector<std::vector<uint32_t>>>{{{0, 1, 2, 3}}, {{0, 1}, {2, 3}}, {{3}, {0, 2, 1}}}) {
        const auto updates = round(sums);
        ASSERT_EQ(updates.size(), size_t(1));
        ASSERT_EQ(membersOf(updates[0]), membersOf(single.updates()[0]));
        for (size_t i = 0; i < updates[0].gradient.size(); ++i) {
            ASSERT_FUZZY_EQ(updates[0].gradient[i], 2.5f);  // the mean of the workers' 1, 2, 3, 4
            ASSERT_FUZZY_EQ(updates[0].gradient[i], single.updates()[0].gradient[i]);
        }
        for (const auto& c : updates[0].contributions) ASSERT_FUZZY_EQ(c.weight(), 0.25f);
    }
}

TEST(TestSyncPolicies, bspDropsALateOrRepeatedSumWhole) {
    FakeRun run(modeOf(wire::BSP));
    for (int i = 0; i < 3; ++i) run.addWorker(6400);
    run.pushSum({0, 1});
    run.pushSum({2});  // the round closes: version 1, everyone released on it
    ASSERT_EQ(run.updates().size(), size_t(1));
    run.pushSum({0, 1});
    run.pushSum({1, 2}, 0);  // worker 1 again, before the round closed: the whole sum goes
    ASSERT_EQ(run.drops().size(), size_t(2));
    for (const auto& d : run.drops()) ASSERT_TRUE(d.reason.find("second gradient") != std::string::npos) << d.reason.c_str();
    ASSERT_TRUE(run.accountingError().empty()) << run.accountingError().c_str();
    ASSERT_EQ(run.policy().pending(), uint64_t(2));  // workers 0 and 1 of the first sum wait for worker 2
}

TEST(TestSyncPolicies, groupedSumsJoinTheirGroupsRound) {
    wire::ModeSettings mode = modeOf(wire::GROUPED);
    mode.set_group_count(2);
    FakeRun run(mode);
    for (int i = 0; i < 4; ++i) run.addWorker(6400);  // round robin: group 0 = {0, 2}, group 1 = {1, 3}
    ASSERT_TRUE(run.policy().takesSums());
    run.pushSum({1, 3});
    ASSERT_EQ(run.updates().size(), size_t(1));
    ASSERT_EQ(membersOf(run.updates()[0]), (std::set<uint32_t>{1, 3}));
    ASSERT_FUZZY_EQ(run.updates()[0].gradient[0], 3.0f);  // the mean of 2 and 4
    run.pushSum({0, 1}, 0);  // worker 1 is in group 1: a sum for group 0 cannot hold it
    ASSERT_EQ(run.drops().size(), size_t(2));
    ASSERT_TRUE(run.drops()[0].reason.find("is in group 1") != std::string::npos) << run.drops()[0].reason.c_str();
    ASSERT_TRUE(run.accountingError().empty()) << run.accountingError().c_str();
}

TEST(TestSyncPolicies, sumsOnlyWhereRoundsAverage) {
    wire::ModeSettings ssp = modeOf(wire::GROUPED);
    ssp.set_intra_group_ssp(true);
    for (const wire::ModeSettings& mode : {modeOf(wire::ASP), modeOf(wire::SSP), modeOf(wire::KSYNC), modeOf(wire::KASYNC),
                                           modeOf(wire::ELASTIC), modeOf(wire::AUTO), ssp})
        ASSERT_TRUE(!FakeRun(mode).policy().takesSums()) << wire::SyncMode_Name(mode.mode()).c_str();
    ASSERT_TRUE(FakeRun(modeOf(wire::BSP)).policy().takesSums());
}

// A run whose model lives on parameter shards: the policies see gradients without values and
// build each update as terms (scale x a gradient the shards hold). The same run with the same
// workers must make the same updates as where the coordinator holds the model: the same
// contributions, learning-rate scales and averaged gradients (up to float rounding, as the sums are
// scaled in another order).
namespace {

void shardedTermsMakeTheSameUpdates(wire::SyncMode mode, wire::LrModulation modulation) {
    wire::ModeSettings settings = modeOf(mode);
    settings.set_lr_modulation(modulation);
    FakeRun dense(settings), sharded(settings, true);
    for (FakeRun* run : {&dense, &sharded})
        for (double speed : {6400.0, 2000.0, 9000.0, 4100.0, 12800.0}) run->addWorker(speed);
    dense.simulate(3.0);
    sharded.simulate(3.0);
    ASSERT_TRUE(dense.updates().size() > 20);
    ASSERT_EQ(sharded.updates().size(), dense.updates().size());
    ASSERT_EQ(sharded.drops().size(), dense.drops().size());
    for (size_t u = 0; u < dense.updates().size(); ++u) {
        const AppliedUpdate &a = dense.updates()[u], &b = sharded.updates()[u];
        ASSERT_EQ(b.version, a.version);
        ASSERT_FUZZY_EQ(b.lrScale, a.lrScale);
        ASSERT_EQ(b.contributions.size(), a.contributions.size());
        for (size_t c = 0; c < a.contributions.size(); ++c) {
            ASSERT_EQ(b.contributions[c].worker_id(), a.contributions[c].worker_id());
            ASSERT_EQ(b.contributions[c].staleness(), a.contributions[c].staleness());
            ASSERT_FUZZY_EQ(b.contributions[c].weight(), a.contributions[c].weight());
            ASSERT_TRUE(b.contributions[c].sequence() > 0);  // named for the shards
        }
        for (size_t i = 0; i < a.gradient.size(); ++i)
            ASSERT_TRUE(std::abs(b.gradient[i] - a.gradient[i]) <= 1e-5f * std::abs(a.gradient[i]))
                << "update " << u << ": " << b.gradient[i] << " != " << a.gradient[i];
    }
    ASSERT_TRUE(sharded.accountingError().empty()) << sharded.accountingError().c_str();
    if (mode == wire::GROUPED) {  // rounds on pinned versions the shards had to keep (FakeRun checks the pins)
        bool stale = false;
        for (const AppliedUpdate& u : sharded.updates())
            for (const auto& c : u.contributions) stale = stale || c.staleness() > 0;
        ASSERT_TRUE(stale);
    }
}

}  // namespace

TEST(TestSyncPolicies, shardedTermsMakeTheSameUpdates) {
    const struct {
        const char* row;
        wire::SyncMode mode;
        wire::LrModulation modulation;
    } rows[] = {{"bsp", wire::BSP, wire::LR_NONE},           {"ksync", wire::KSYNC, wire::LR_NONE},
                {"asp dynsgd", wire::ASP, wire::LR_DYNSGD},  {"ssp", wire::SSP, wire::LR_INVERSE},
                {"kasync dynsgd", wire::KASYNC, wire::LR_DYNSGD}, {"elastic", wire::ELASTIC, wire::LR_NONE},
                {"grouped dynsgd", wire::GROUPED, wire::LR_DYNSGD}, {"auto", wire::AUTO, wire::LR_NONE}};
    for (const auto& r : rows) {
        SCOPED_TRACE(r.row);
        shardedTermsMakeTheSameUpdates(r.mode, r.modulation);
    }
}

// A worker that joins a grouped run mid-round computes on its group's pinned version, which is
// older than the central one by then: where shards hold the model, the pin is what keeps it (the
// fake, as the shards, refuses a release on an earlier version no one keeps pinned).
TEST(TestSyncPolicies, shardedGroupedRoundsKeepTheirPinnedVersion) {
    wire::ModeSettings grouped = modeOf(wire::GROUPED);
    grouped.set_group_count(2);
    FakeRun run(grouped, true);
    for (double speed : {6400.0, 3000.0, 9000.0, 5000.0}) run.addWorker(speed);
    run.simulate(0.5);
    for (double speed : {4000.0, 7000.0}) {
        run.addWorker(speed);
        run.simulate(0.5);
    }
    ASSERT_TRUE(run.updates().size() > 10);
    ASSERT_TRUE(run.accountingError().empty()) << run.accountingError().c_str();
}

// Every dropped gradient is let go by name (the fake, as the shards, checks it holds it): late
// ksync gradients, a lost worker's round, and the partial rounds of mode switches.
TEST(TestSyncPolicies, shardedDropsLetGoOfTheirGradients) {
    wire::ModeSettings ksync = modeOf(wire::KSYNC);
    ksync.set_k(2);
    FakeRun run(ksync, true);
    for (double speed : {6400.0, 3000.0, 9000.0, 5000.0}) run.addWorker(speed);
    run.simulate(1.0);
    ASSERT_TRUE(!run.drops().empty());
    run.lose(1);
    for (wire::SyncMode next : {wire::BSP, wire::GROUPED, wire::KASYNC, wire::ASP, wire::AUTO, wire::ELASTIC, wire::SSP}) {
        run.switchMode(modeOf(next));
        ASSERT_TRUE(run.accountingError().empty()) << run.accountingError().c_str();
        run.simulate(0.4);
    }
    ASSERT_TRUE(run.accountingError().empty()) << run.accountingError().c_str();
}

