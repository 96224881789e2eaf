// Every sync policy driven in-process by a fake run (tests/unit/fake_policy_context.h): scripted
// workers of chosen speeds on a fake clock, no sockets and no model. Each test checks a mode's rule
// on the updates, drops and releases it produced, and every step checks that each gradient pushed
// is applied, dropped or pending. The multi-process tests (test_mode_semantics, test_mode_switching)
// stay as end-to-end checks.
#include <QtTest>

#include <algorithm>
#include <random>
#include <set>

#include "engine/ps/auto_predictor.h"
#include "engine/ps/mode_catalog.h"
#include "fake_policy_context.h"

using namespace syncscope;
using namespace syncscope::engine;
using syncscope::engine::testing::FakeRun;

namespace {

wire::ModeSettings modeOf(wire::SyncMode mode) { return defaultModeSettings(mode); }

std::set<uint32_t> membersOf(const testing::AppliedUpdate& u) {
    std::set<uint32_t> ids;
    for (const auto& c : u.contributions) ids.insert(c.worker_id());
    return ids;
}

}  // namespace

class TestSyncPolicies : public QObject {
    Q_OBJECT
private slots:
    void bspAveragesEveryWorkerOnOneVersion();
    void bspGoesOnWithoutALostWorker();
    void ksyncTakesTheFirstKAndDropsTheLate();
    void ksyncDefaultK();
    void sspHoldsTheBound();
    void aspModulatesByStaleness();
    void groupedPinsEachGroupsRound();
    void groupedBySpeedIsolatesTheStraggler();
    void kasyncAppliesEveryK();
    void elasticSizesBatchesBySpeed();
    void autoSwitchesAwayFromAStraggler();
    void autoStaysWhenAllAreEqual();
    void advisorProposesAndWaitsForAnAnswer();
    void everyGradientAccountedAcrossSwitches();
    void bspSumsEqualTheSameGradientsOneByOne();
    void bspDropsALateOrRepeatedSumWhole();
    void groupedSumsJoinTheirGroupsRound();
    void sumsOnlyWhereRoundsAverage();
    void shardedTermsMakeTheSameUpdates_data();
    void shardedTermsMakeTheSameUpdates();
    void shardedDropsLetGoOfTheirGradients();
};

void TestSyncPolicies::bspAveragesEveryWorkerOnOneVersion() {
    FakeRun run(modeOf(wire::BSP));
    for (double speed : {6400.0, 3200.0, 12800.0}) run.addWorker(speed);
    run.simulate(2.0);
    QVERIFY(run.updates().size() > 50);
    for (const auto& u : run.updates()) {
        QCOMPARE(membersOf(u), (std::set<uint32_t>{0, 1, 2}));
        for (const auto& c : u.contributions) {
            QCOMPARE(c.base_version(), u.version - 1);
            QCOMPARE(c.staleness(), 0u);
            QCOMPARE(c.weight(), 1.0f / 3.0f);
        }
    }
    QVERIFY(run.drops().empty());
    // The slowest sets the pace: the fast worker pushed no more often than it.
    QCOMPARE(run.pushedBy(2), run.pushedBy(1));
}

void TestSyncPolicies::bspGoesOnWithoutALostWorker() {
    FakeRun run(modeOf(wire::BSP));
    for (int i = 0; i < 3; ++i) run.addWorker(6400);
    run.simulate(0.5);
    run.lose(1);
    const size_t before = run.updates().size();
    run.simulate(0.5);
    QVERIFY(run.updates().size() > before + 10);
    for (size_t i = before + 1; i < run.updates().size(); ++i)
        QCOMPARE(membersOf(run.updates()[i]), (std::set<uint32_t>{0, 2}));
}

void TestSyncPolicies::ksyncTakesTheFirstKAndDropsTheLate() {
    wire::ModeSettings mode = modeOf(wire::KSYNC);
    mode.set_k(3);
    FakeRun run(mode);
    run.addWorker(6400 / 3.0);  // worker 0: three times slower
    for (int i = 0; i < 3; ++i) run.addWorker(6400);
    run.simulate(3.0);
    QVERIFY(run.updates().size() > 100);
    for (const auto& u : run.updates()) {
        QCOMPARE(u.contributions.size(), size_t(3));
        for (const auto& c : u.contributions) QCOMPARE(c.base_version(), u.version - 1);
    }
    QVERIFY(!run.drops().empty());
    const auto late = std::count_if(run.drops().begin(), run.drops().end(),
                                    [](const auto& d) { return d.reason.rfind("late", 0) == 0; });
    QCOMPARE(size_t(late), run.drops().size());
    const auto byStraggler = std::count_if(run.drops().begin(), run.drops().end(), [](const auto& d) { return d.worker == 0; });
    QVERIFY2(byStraggler * 10 >= long(run.drops().size()) * 9, qPrintable(QString::number(byStraggler)));
}

void TestSyncPolicies::ksyncDefaultK() {
    for (int workers : {3, 4, 6}) {
        FakeRun run(modeOf(wire::KSYNC));  // K = 0: N-1 from 4 workers, else N
        for (int i = 0; i < workers; ++i) run.addWorker(6400 * (1 + 0.1 * i));
        run.simulate(0.5);
        const size_t expected = workers >= 4 ? size_t(workers - 1) : size_t(workers);
        for (const auto& u : run.updates()) QCOMPARE(u.contributions.size(), expected);
    }
}

void TestSyncPolicies::sspHoldsTheBound() {
    wire::ModeSettings mode = modeOf(wire::SSP);
    mode.set_staleness_bound(2);
    FakeRun run(mode);
    run.addWorker(1600);  // four times slower than the others
    for (int i = 0; i < 3; ++i) run.addWorker(6400);
    run.simulate(3.0);
    for (const auto& r : run.releases()) QVERIFY2(r.clock <= r.minClock + 2, qPrintable(QString::number(r.time)));
    // The fast ones are held: without the bound they would push four times as often.
    QVERIFY(run.pushedBy(1) <= run.pushedBy(0) + 3);
    for (const auto& u : run.updates()) QCOMPARE(u.contributions.size(), size_t(1));
}

void TestSyncPolicies::aspModulatesByStaleness() {
    for (auto modulation : {wire::LR_NONE, wire::LR_INVERSE, wire::LR_DYNSGD}) {
        wire::ModeSettings mode = modeOf(wire::ASP);
        mode.set_lr_modulation(modulation);
        FakeRun run(mode);
        for (int i = 0; i < 4; ++i) run.addWorker(6400 * (1 + 0.3 * i));
        run.simulate(1.0);
        int stale = 0;
        for (const auto& u : run.updates()) {
            QCOMPARE(u.contributions.size(), size_t(1));
            const auto& c = u.contributions[0];
            QCOMPARE(uint64_t(c.staleness()), u.version - 1 - c.base_version());
            const double tau = c.staleness();
            stale += tau > 0;
            const double expected = modulation == wire::LR_DYNSGD ? 1 / (tau + 1)
                                    : modulation == wire::LR_INVERSE && tau > 0 ? 1 / tau
                                                                                 : 1.0;
            QVERIFY(std::abs(u.lrScale - expected) < 1e-6);
        }
        QVERIFY(stale > 10);  // four workers, nobody waits: gradients are stale
    }
}

void TestSyncPolicies::groupedPinsEachGroupsRound() {
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
        QVERIFY(members == (std::set<uint32_t>{0, 2}) || members == (std::set<uint32_t>{1, 3}));
        (members.count(0) ? slowGroup : fastGroup)++;
        const uint64_t base = u.contributions[0].base_version();
        for (const auto& c : u.contributions) {
            QCOMPARE(c.base_version(), base);  // one pinned version per round
            QCOMPARE(uint64_t(c.staleness()), u.version - 1 - base);
        }
        stale += u.contributions[0].staleness() > 0;
    }
    QVERIFY(fastGroup > slowGroup * 3 / 2);  // asynchronous between groups
    QVERIFY(stale > 0);
}

void TestSyncPolicies::groupedBySpeedIsolatesTheStraggler() {
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
    QVERIFY(regrouped != run.events().end());
    QVERIFY2(regrouped->detail().find("[1 2 3] [0]") != std::string::npos ||
                 regrouped->detail().find("[0] [1 2 3]") != std::string::npos,
             regrouped->detail().c_str());
}

void TestSyncPolicies::kasyncAppliesEveryK() {
    for (uint32_t k : {1u, 2u}) {
        wire::ModeSettings mode = modeOf(wire::KASYNC);
        mode.set_k(k);
        FakeRun run(mode);
        for (int i = 0; i < 4; ++i) run.addWorker(6400);
        run.simulate(2.0);
        double tauSum = 0;
        size_t n = 0;
        for (const auto& u : run.updates()) {
            QCOMPARE(u.contributions.size(), size_t(k));
            for (const auto& c : u.contributions) tauSum += c.staleness(), ++n;
        }
        // Equal speeds: a gradient waits for the others' (N-1)/K updates.
        QVERIFY2(std::abs(tauSum / n - 3.0 / k) < 0.5, qPrintable(QString::number(tauSum / n)));
    }
}

void TestSyncPolicies::elasticSizesBatchesBySpeed() {
    FakeRun run(modeOf(wire::ELASTIC));  // rebalancing every 2 s by default
    run.addWorker(2000);
    run.addWorker(6000);
    run.simulate(5.0);
    const auto& workers = run.workers().all();
    const double slow = workers.at(0).batchSize, fast = workers.at(1).batchSize;
    QVERIFY2(std::abs(fast / (slow + fast) - 0.75) < 0.05, qPrintable(QStringLiteral("%1 %2").arg(slow).arg(fast)));
    QCOMPARE(slow + fast, 2.0 * FakeRun::kBatch);
    QVERIFY(std::any_of(run.events().begin(), run.events().end(), [](const auto& e) { return e.kind() == wire::EVENT_BATCH; }));
    // Gradients are weighted by batch size in the (enforced, BSP) average.
    const auto& last = run.updates().back();
    for (const auto& c : last.contributions) QCOMPARE(c.weight(), float(c.batch_size() / (slow + fast)));
}

void TestSyncPolicies::autoSwitchesAwayFromAStraggler() {
    wire::ModeSettings mode = modeOf(wire::AUTO);
    mode.set_decision_seconds(1);
    FakeRun run(mode);
    run.addWorker(1280);  // two workers five times slower: the start, one backup worker, still waits
    run.addWorker(1280);
    for (int i = 0; i < 6; ++i) run.addWorker(6400 * (1 + 0.02 * i));
    run.simulate(4.0);
    const auto decision = std::find_if(run.events().begin(), run.events().end(),
                                       [](const auto& e) { return e.kind() == wire::EVENT_AUTO; });
    QVERIFY(decision != run.events().end());
    const wire::AutoDecision& d = decision->decision();
    QCOMPARE(d.verdict(), wire::AutoDecision::SWITCHES);
    QVERIFY(d.slowest_worker() <= 1u);
    QCOMPARE(d.current_label(), std::string("ksync K=7"));
    QVERIFY(d.slowest_ms() > 4 * d.median_ms());
    QVERIFY(d.candidates_size() >= 4);
    QVERIFY(d.chosen().label() != "bsp");
    const auto current = std::find_if(d.candidates().begin(), d.candidates().end(),
                                      [&](const auto& c) { return c.label() == d.current_label(); });
    QVERIFY(current == d.candidates().end() || d.chosen().effective() > kAutoSwitchGain * current->effective());
    QVERIFY(decision->detail().rfind("switches to " + d.chosen().label(), 0) == 0);
}

void TestSyncPolicies::autoStaysWhenAllAreEqual() {
    // Equal workers (and one straggler among 8, which its start, ksync K=N-1, already leaves out)
    // give no option 25% better than the one running: it says so once and stays.
    wire::ModeSettings mode = modeOf(wire::AUTO);
    mode.set_decision_seconds(1);
    FakeRun run(mode);
    for (int i = 0; i < 3; ++i) run.addWorker(6400);  // below 4 workers auto starts in bsp
    run.simulate(3.0);
    const auto decisions = std::count_if(run.events().begin(), run.events().end(),
                                         [](const auto& e) { return e.kind() == wire::EVENT_AUTO; });
    QCOMPARE(decisions, 1);  // its first decision is announced, staying is not repeated
    QCOMPARE(run.events().front().decision().verdict(), wire::AutoDecision::STAYS);
    QCOMPARE(run.events().front().decision().current_label(), std::string("bsp"));

    FakeRun eight(mode);
    eight.addWorker(1280);
    for (int i = 0; i < 7; ++i) eight.addWorker(6400);
    eight.simulate(3.0);
    QCOMPARE(eight.events().front().decision().verdict(), wire::AutoDecision::STAYS);
    QCOMPARE(eight.events().front().decision().current_label(), std::string("ksync K=7"));
}

void TestSyncPolicies::advisorProposesAndWaitsForAnAnswer() {
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
    QCOMPARE(advice.size(), size_t(1));  // proposed once, not every period
    const wire::AutoDecision proposal = advice[0].decision();
    QCOMPARE(proposal.verdict(), wire::AutoDecision::ADVISES);
    QCOMPARE(proposal.advice_id(), 1u);
    // Not taken yet: still one backup worker (ksync K=7), 7 gradients per update.
    QCOMPARE(run.updates().back().contributions.size(), size_t(7));

    QVERIFY(!run.policy().answerAdvice(2, true));  // no such proposal
    QVERIFY(run.policy().answerAdvice(1, true));
    const wire::Event& answered = run.events().back();
    QCOMPARE(answered.kind(), wire::EVENT_ADVICE_ANSWERED);
    QVERIFY(answered.decision().accepted());
    QCOMPARE(answered.decision().chosen().label(), proposal.chosen().label());
    QVERIFY(!run.policy().answerAdvice(1, false));  // answered already
}

void TestSyncPolicies::everyGradientAccountedAcrossSwitches() {
    // Random speeds, a worker lost, and a switch every 0.3 s through every mode of the catalogue;
    // after every push pushed = applied + dropped + pending (checked by the fake), and the version
    // only ever goes up.
    std::mt19937 random(7);
    FakeRun run(modeOf(wire::BSP));
    for (int i = 0; i < 5; ++i) run.addWorker(2000 + random() % 8000);
    uint64_t lastVersion = 0;
    const auto check = [&] {
        QVERIFY(run.version() >= lastVersion);
        lastVersion = run.version();
    };
    const auto& modes = modeCatalog().modes();
    for (int round = 0; round < 3 * modes.size(); ++round) {
        wire::ModeSettings next = defaultModeSettings(modes[round % modes.size()].mode());
        next.set_lr_modulation(wire::LR_DYNSGD);
        run.switchMode(next);
        QVERIFY2(run.accountingError().empty(), run.accountingError().c_str());
        if (round == 5) run.lose(3);
        run.simulate(0.3, check);
    }
    QVERIFY(run.pushed() > 500);
    QVERIFY2(run.accountingError().empty(), run.accountingError().c_str());
}

// A group aggregator's sums (GradientSum) against the same gradients arriving one by one: the same
// update (average, weights, contributions), whether the round comes in one sum or in several.
void TestSyncPolicies::bspSumsEqualTheSameGradientsOneByOne() {
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
    QCOMPARE(single.updates().size(), size_t(1));
    for (const auto& sums : std::vector<std::vector<std::vector<uint32_t>>>{{{0, 1, 2, 3}}, {{0, 1}, {2, 3}}, {{3}, {0, 2, 1}}}) {
        const auto updates = round(sums);
        QCOMPARE(updates.size(), size_t(1));
        QCOMPARE(membersOf(updates[0]), membersOf(single.updates()[0]));
        for (size_t i = 0; i < updates[0].gradient.size(); ++i) {
            QCOMPARE(updates[0].gradient[i], 2.5f);  // the mean of the workers' 1, 2, 3, 4
            QCOMPARE(updates[0].gradient[i], single.updates()[0].gradient[i]);
        }
        for (const auto& c : updates[0].contributions) QCOMPARE(c.weight(), 0.25f);
    }
}

void TestSyncPolicies::bspDropsALateOrRepeatedSumWhole() {
    FakeRun run(modeOf(wire::BSP));
    for (int i = 0; i < 3; ++i) run.addWorker(6400);
    run.pushSum({0, 1});
    run.pushSum({2});  // the round closes: version 1, everyone released on it
    QCOMPARE(run.updates().size(), size_t(1));
    run.pushSum({0, 1});
    run.pushSum({1, 2}, 0);  // worker 1 again, before the round closed: the whole sum goes
    QCOMPARE(run.drops().size(), size_t(2));
    for (const auto& d : run.drops()) QVERIFY2(d.reason.find("second gradient") != std::string::npos, d.reason.c_str());
    QVERIFY2(run.accountingError().empty(), run.accountingError().c_str());
    QCOMPARE(run.policy().pending(), uint64_t(2));  // workers 0 and 1 of the first sum wait for worker 2
}

void TestSyncPolicies::groupedSumsJoinTheirGroupsRound() {
    wire::ModeSettings mode = modeOf(wire::GROUPED);
    mode.set_group_count(2);
    FakeRun run(mode);
    for (int i = 0; i < 4; ++i) run.addWorker(6400);  // round robin: group 0 = {0, 2}, group 1 = {1, 3}
    QVERIFY(run.policy().takesSums());
    run.pushSum({1, 3});
    QCOMPARE(run.updates().size(), size_t(1));
    QCOMPARE(membersOf(run.updates()[0]), (std::set<uint32_t>{1, 3}));
    QCOMPARE(run.updates()[0].gradient[0], 3.0f);  // the mean of 2 and 4
    run.pushSum({0, 1}, 0);  // worker 1 is in group 1: a sum for group 0 cannot hold it
    QCOMPARE(run.drops().size(), size_t(2));
    QVERIFY2(run.drops()[0].reason.find("is in group 1") != std::string::npos, run.drops()[0].reason.c_str());
    QVERIFY2(run.accountingError().empty(), run.accountingError().c_str());
}

void TestSyncPolicies::sumsOnlyWhereRoundsAverage() {
    wire::ModeSettings ssp = modeOf(wire::GROUPED);
    ssp.set_intra_group_ssp(true);
    for (const wire::ModeSettings& mode : {modeOf(wire::ASP), modeOf(wire::SSP), modeOf(wire::KSYNC), modeOf(wire::KASYNC),
                                           modeOf(wire::ELASTIC), modeOf(wire::AUTO), ssp})
        QVERIFY2(!FakeRun(mode).policy().takesSums(), wire::SyncMode_Name(mode.mode()).c_str());
    QVERIFY(FakeRun(modeOf(wire::BSP)).policy().takesSums());
}

QTEST_GUILESS_MAIN(TestSyncPolicies)
// A run whose model lives on parameter shards: the policies see gradients without values and
// build each update as terms (scale x a gradient the shards hold). The same run with the same
// workers must make the same updates as where the coordinator holds the model: the same
// contributions, learning-rate scales and averaged gradients (up to float rounding, as the sums are
// scaled in another order).
void TestSyncPolicies::shardedTermsMakeTheSameUpdates_data() {
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("modulation");
    QTest::newRow("bsp") << int(wire::BSP) << int(wire::LR_NONE);
    QTest::newRow("ksync") << int(wire::KSYNC) << int(wire::LR_NONE);
    QTest::newRow("asp dynsgd") << int(wire::ASP) << int(wire::LR_DYNSGD);
    QTest::newRow("ssp") << int(wire::SSP) << int(wire::LR_INVERSE);
    QTest::newRow("kasync dynsgd") << int(wire::KASYNC) << int(wire::LR_DYNSGD);
    QTest::newRow("elastic") << int(wire::ELASTIC) << int(wire::LR_NONE);
}

void TestSyncPolicies::shardedTermsMakeTheSameUpdates() {
    QFETCH(int, mode);
    QFETCH(int, modulation);
    wire::ModeSettings settings = modeOf(static_cast<wire::SyncMode>(mode));
    settings.set_lr_modulation(static_cast<wire::LrModulation>(modulation));
    QVERIFY(validateShardedMode(settings));
    FakeRun dense(settings), sharded(settings, true);
    for (FakeRun* run : {&dense, &sharded})
        for (double speed : {6400.0, 2000.0, 9000.0, 4100.0, 12800.0}) run->addWorker(speed);
    dense.simulate(3.0);
    sharded.simulate(3.0);
    QVERIFY(dense.updates().size() > 20);
    QCOMPARE(sharded.updates().size(), dense.updates().size());
    QCOMPARE(sharded.drops().size(), dense.drops().size());
    for (size_t u = 0; u < dense.updates().size(); ++u) {
        const testing::AppliedUpdate &a = dense.updates()[u], &b = sharded.updates()[u];
        QCOMPARE(b.version, a.version);
        QCOMPARE(b.lrScale, a.lrScale);
        QCOMPARE(b.contributions.size(), a.contributions.size());
        for (size_t c = 0; c < a.contributions.size(); ++c) {
            QCOMPARE(b.contributions[c].worker_id(), a.contributions[c].worker_id());
            QCOMPARE(b.contributions[c].staleness(), a.contributions[c].staleness());
            QCOMPARE(b.contributions[c].weight(), a.contributions[c].weight());
            QVERIFY(b.contributions[c].sequence() > 0);  // named for the shards
        }
        for (size_t i = 0; i < a.gradient.size(); ++i)
            QVERIFY2(std::abs(b.gradient[i] - a.gradient[i]) <= 1e-5f * std::abs(a.gradient[i]),
                     qPrintable(QString("update %1: %2 != %3").arg(u).arg(b.gradient[i]).arg(a.gradient[i])));
    }
    QVERIFY2(sharded.accountingError().empty(), sharded.accountingError().c_str());
}

// Every dropped gradient is let go by name (the fake, as the shards, checks it holds it): late
// ksync gradients, a lost worker's round, and the partial rounds of mode switches.
void TestSyncPolicies::shardedDropsLetGoOfTheirGradients() {
    wire::ModeSettings ksync = modeOf(wire::KSYNC);
    ksync.set_k(2);
    FakeRun run(ksync, true);
    for (double speed : {6400.0, 3000.0, 9000.0, 5000.0}) run.addWorker(speed);
    run.simulate(1.0);
    QVERIFY(!run.drops().empty());
    run.lose(1);
    for (wire::SyncMode next : {wire::BSP, wire::KASYNC, wire::ASP, wire::ELASTIC, wire::SSP}) {
        run.switchMode(modeOf(next));
        QVERIFY2(run.accountingError().empty(), run.accountingError().c_str());
        run.simulate(0.4);
    }
    QVERIFY2(run.accountingError().empty(), run.accountingError().c_str());
    QVERIFY(!validateShardedMode(modeOf(wire::GROUPED)));
    QVERIFY(!validateShardedMode(modeOf(wire::AUTO)));
}

#include "test_sync_policies.moc"
