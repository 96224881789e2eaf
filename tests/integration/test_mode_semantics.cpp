// The seeds' modes, checked on what real runs recorded (real worker processes on loopback):
// grouped updates average exactly one group's gradients on one group version; ksync applies
// exactly K per version and counts the late ones as dropped; kasync's mean staleness is close to
// N/K and almost never above 2N/K; elastic batches make the workers arrive together, and a late
// worker's batch is handed to the waiting ones, directly, through aggregators and on shards.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/core/median.h"
#include "tests/integration/engine_process.h"
#include "tests/integration/recording_helpers.h"

using namespace syncscope::engine;
using namespace syncscope::testing;
namespace wire = syncscope::wire;

namespace {

Recording recordRun(const std::string& rec, Args args) {
    if (!args.contains("--model")) args << "--model" << "mlp";
    args = Args{"run", "--record", rec, "--eval-interval", "1", "--schedule", "constant",
                "--data", SYNCSCOPE_FASHION_MNIST_DIR} +
           args;
    const EngineRun run = runEngine(args);
    if (run.exitCode != 0) testFatal("engine run failed: %s", right(run.err, 3000).c_str());
    return loadRecording(rec);
}

// The grouped checks hold the same with each group's aggregator a process of its own (Basu's
// group parameter servers): rows "direct" and "two aggregators".
const std::pair<const char*, int> kAggregatorRows[] = {{"direct", 0}, {"two aggregators", 2}};

}  // namespace

// 4 workers in 2 round-robin groups, one slowed: every update is one full group on one
// pinned version, and the fast group applies more updates than the slow one.
static void groupedAveragesOneGroupOnOneVersion(int aggregators) {
    TempDir dir;
    const Recording r = recordRun(dir.filePath("grouped.ssrec"),
                                  {"--workers", "4", "--mode", "grouped", "--groups", "2", "--slowdown", "0:1:15",
                                   "--max-seconds", "6", "--aggregators", std::to_string(aggregators)});
    std::map<uint32_t, std::set<uint32_t>> members;  // group -> workers, from the last tick
    const wire::Tick* last = lastTick(r);
    ASSERT_TRUE(last);
    for (const auto& w : last->workers()) members[w.group()].insert(w.worker_id());
    ASSERT_EQ(members.size(), size_t(2));
    ASSERT_EQ(members[0].size(), size_t(2));
    std::map<uint32_t, int> updatesPerGroup;
    int stale = 0;
    for (const auto& record : r.records) {
        if (!record.has_update()) continue;
        const wire::Update& u = record.update();
        ASSERT_EQ(u.mode(), wire::GROUPED);
        const wire::Contribution& first = u.contributions(0);
        std::set<uint32_t> workers;
        for (const auto& c : u.contributions()) {
            ASSERT_EQ(c.group(), first.group());                // one group...
            ASSERT_EQ(c.base_version(), first.base_version());  // ...on one group version
            ASSERT_EQ(uint64_t(c.staleness()), u.version() - 1 - c.base_version());
            ASSERT_TRUE(members[c.group()].count(c.worker_id()));
            workers.insert(c.worker_id());
        }
        // Exactly the group: each member once (the last, partial round is dropped at the stop).
        ASSERT_EQ(workers.size(), members[first.group()].size());
        ASSERT_EQ(size_t(u.contributions_size()), workers.size());
        ++updatesPerGroup[first.group()];
        stale += first.staleness() > 0;
    }
    const uint32_t slowGroup = [&] {
        for (const auto& [g, ids] : members)
            if (ids.count(0)) return g;
        return 0u;
    }();
    testLog("grouped: %d updates by the slow group, %d by the other; %d stale", updatesPerGroup[slowGroup],
          updatesPerGroup[1 - slowGroup], stale);
    ASSERT_TRUE(updatesPerGroup[slowGroup] > 10);
    ASSERT_TRUE(updatesPerGroup[1 - slowGroup] > 2 * updatesPerGroup[slowGroup]) << "the fast group is held by nobody";
    ASSERT_TRUE(stale > 0) << "groups run asynchronously to each other";
    const wire::Tick* t = lastTick(r);
    ASSERT_EQ(t->pushed(), t->applied() + t->dropped());
}

// By speed, a straggler ends up in a group of its own once speeds are measured; with
// aggregators, the regrouping moves workers to their new group's aggregator while the run goes on.
static void groupedBySpeedIsolatesTheStraggler(int aggregators) {
    TempDir dir;
    const Recording r = recordRun(dir.filePath("speed.ssrec"),
                                  {"--workers", "4", "--mode", "grouped", "--groups", "2", "--group-by", "speed",
                                   "--slowdown", "0:1:25", "--max-seconds", "5", "--aggregators",
                                   std::to_string(aggregators)});
    const wire::Tick* t = lastTick(r);
    ASSERT_TRUE(t);
    std::map<uint32_t, int> sizes;
    uint32_t slowGroup = 99;
    for (const auto& w : t->workers()) {
        ++sizes[w.group()];
        if (w.worker_id() == 0) slowGroup = w.group();
    }
    ASSERT_EQ(sizes[slowGroup], 1);
    bool regrouped = false;
    std::map<uint32_t, uint32_t> moves;  // worker -> group, since the last regrouping
    for (const auto& record : r.records) {
        if (!record.has_event() || record.event().kind() != wire::EVENT_GROUPS) continue;
        const std::string& detail = record.event().detail();
        if (detail.find("by measured speed") != std::string::npos) {
            regrouped = true;  // the groups can follow the speeds more than once: the last one counts
            moves.clear();
        }
        uint32_t worker = 0, group = 0;
        if (regrouped && std::sscanf(detail.c_str(), "worker %u moves to group %u", &worker, &group) == 2)
            moves[worker] = group;
    }
    for (const auto& [worker, group] : moves)  // each to the aggregator of the group it ends the run in
        for (const auto& w : t->workers())
            if (w.worker_id() == worker) {
                ASSERT_EQ(w.group(), group);
            }
    ASSERT_TRUE(regrouped);
    if (aggregators) {
        ASSERT_TRUE(!moves.empty()) << "the straggler's new group has another aggregator: someone moves";
    }
    ASSERT_EQ(t->pushed(), t->applied() + t->dropped());
}

TEST(TestModeSemantics, groupedAveragesOneGroupOnOneVersion) {
    for (const auto& [row, aggregators] : kAggregatorRows) {
        SCOPED_TRACE(row);
        groupedAveragesOneGroupOnOneVersion(aggregators);
    }
}

TEST(TestModeSemantics, groupedBySpeedIsolatesTheStraggler) {
    for (const auto& [row, aggregators] : kAggregatorRows) {
        SCOPED_TRACE(row);
        groupedBySpeedIsolatesTheStraggler(aggregators);
    }
}

// ksync K=3 of 4 with one slow worker: exactly 3 gradients per version, all on it; the slow
// worker's late gradients are dropped and counted against it.
TEST(TestModeSemantics, ksyncAppliesKAndDropsTheLate) {
    TempDir dir;
    const Recording r = recordRun(dir.filePath("ksync.ssrec"), {"--workers", "4", "--mode", "ksync", "--k", "3",
                                                                "--slowdown", "0:1:60", "--max-seconds", "6"});
    int updates = 0, lateDrops = 0;
    for (const auto& record : r.records) {
        if (record.has_update()) {
            const wire::Update& u = record.update();
            ASSERT_EQ(u.contributions_size(), 3);
            std::set<uint32_t> workers;
            for (const auto& c : u.contributions()) {
                ASSERT_EQ(c.base_version(), u.version() - 1);
                workers.insert(c.worker_id());
            }
            ASSERT_EQ(workers.size(), size_t(3));
            ++updates;
        }
        if (record.has_drop() && record.drop().reason().rfind("late", 0) == 0) ++lateDrops;
    }
    const wire::Tick* t = lastTick(r);
    ASSERT_TRUE(t);
    uint64_t slowDropped = 0, othersDropped = 0;
    for (const auto& w : t->workers()) (w.worker_id() == 0 ? slowDropped : othersDropped) += w.dropped();
    testLog("ksync: %d updates, %d late drops; the slow worker dropped %llu, the others %llu", updates, lateDrops,
          static_cast<unsigned long long>(slowDropped), static_cast<unsigned long long>(othersDropped));
    ASSERT_TRUE(updates > 50);
    ASSERT_TRUE(lateDrops > 10);
    ASSERT_TRUE(slowDropped > othersDropped) << "the straggler's gradients are the late ones";
    ASSERT_EQ(t->pushed(), t->applied() + t->dropped());
}

// kasync (n-softsync) with N=4, K=1 and K=2: an update every K gradients, mean staleness
// close to N/K (in theory (N-1)/K: a gradient waits for the N-1 others' pushes), and above
// 2N/K for under 10% of the gradients (scheduling on 2 shared cores makes the tail).
TEST(TestModeSemantics, kasyncStalenessIsAboutNOverK) {
    for (const int k : {1, 2}) {
        TempDir dir;
        const Recording r =
            recordRun(dir.filePath("kasync.ssrec"), {"--workers", "4", "--mode", "kasync", "--k", std::to_string(k),
                                                     "--lr-modulation", "dynsgd", "--max-seconds", "5"});
        double sum = 0;
        int gradients = 0, above = 0;
        for (const auto& record : r.records) {
            if (!record.has_update()) continue;
            ASSERT_EQ(record.update().contributions_size(), k);
            for (const auto& c : record.update().contributions()) {
                sum += c.staleness();
                above += static_cast<int>(c.staleness()) > 2 * 4 / k;
                ++gradients;
            }
        }
        ASSERT_TRUE(gradients > 200);
        const double mean = sum / gradients, expected = 4.0 / k;
        testLog("kasync K=%d: mean staleness %.2f (N/K = %.1f), %.2f%% above 2N/K over %d gradients", k, mean, expected,
              100.0 * above / gradients, gradients);
        ASSERT_TRUE(mean > 0.5 * expected && mean < 1.25 * expected) << mean;
        ASSERT_TRUE(above < 0.10 * gradients) << above;
    }
}

// elastic on cnn with 2 workers, one 3x slower: at every rebalancing after the first second the slow
// worker's batch is the smaller and the two share out 2 x the run's batch, and from then on the two
// arrive together: each worker's iteration (compute + communication, the median of its ticks
// between rebalancings) is within 20% of the other's, where the run's batch for both would have
// the fast one idle two thirds of each round. cnn, because an mlp iteration here is mostly fixed
// overhead: the slow worker's batch sinks to the floor (batch / 8), where nothing can balance it
// (see docs/sync-modes.md). Rebalancing alone (`--late-work wait`): a hand-off's share, a batch of
// another size, lands in the fast worker's ticks and is no iteration of its balanced batch (it failed
// this check 1 run in 7 with the hand-off on); the hand-off has its own case below.
TEST(TestModeSemantics, elasticBatchesMakeTheWorkersArriveTogether) {
    TempDir dir;
    const Recording r = recordRun(dir.filePath("elastic.ssrec"),
                                  {"--workers", "2", "--model", "cnn", "--mode", "elastic", "--rebalance-seconds",
                                   "0.5", "--slowdown", "0:3", "--max-seconds", "10", "--late-work", "wait"});
    int rebalances = 0;
    const wire::Tick* lastRebalance = nullptr;
    std::map<uint32_t, std::vector<double>> iterationMs;  // since the first rebalancing after 1 s
    for (const auto& record : r.records) {
        if (!record.has_tick() || record.tick().time_s() < 1.0) continue;
        const wire::Tick& t = record.tick();
        const bool rebalanced = std::any_of(t.events().begin(), t.events().end(),
                                            [](const wire::Event& e) { return e.kind() == wire::EVENT_BATCH; });
        if (rebalanced) {
            ++rebalances;
            lastRebalance = &t;
            ASSERT_EQ(t.workers_size(), 2);
            const uint32_t slow = t.workers(0).batch_size(), fast = t.workers(1).batch_size();
            ASSERT_TRUE(slow < fast) << "t=" << t.time_s() << ": batches " << slow << " and " << fast;
            ASSERT_TRUE(slow + fast >= 126 && slow + fast <= 130) << "t=" << t.time_s() << ": " << slow << " + " << fast;
        }
        if (!lastRebalance) continue;
        for (const auto& w : t.workers())
            if (w.compute_ms() > 0) iterationMs[w.worker_id()].push_back(w.compute_ms() + w.comm_ms());
    }
    testLog("elastic: %d rebalancings checked", rebalances);
    ASSERT_TRUE(rebalances >= 2);
    for (const auto& w : lastRebalance->workers())
        testLog("elastic: worker %u: batch %u at %.0f samples/s of compute at the last rebalancing", w.worker_id(),
                w.batch_size(), w.compute_speed());
    ASSERT_EQ(iterationMs.size(), size_t(2));
    const double slowMs = median(iterationMs[0]), fastMs = median(iterationMs[1]);
    testLog("elastic: iterations %.1f ms (slow worker) and %.1f ms", slowMs, fastMs);
    ASSERT_TRUE(std::abs(slowMs - fastMs) <= 0.2 * std::max(slowMs, fastMs)) << slowMs << " ms against " << fastMs;
    const wire::Tick* t = lastTick(r);
    ASSERT_TRUE(t);
    ASSERT_EQ(t->pushed(), t->applied() + t->dropped());
}

// Elastic's hand-off on real processes: 4 cnn workers, worker 3 six times slower in 30% of its
// iterations. Its late batches go to the waiting workers (hand_off events; updates without worker 3
// in which a worker contributes twice), every drop is a handed-off late gradient, a share the round
// no longer needed, or the run's end, and every gradient is accounted for; the same directly,
// with two aggregator processes (a share goes up alone) and on two parameter shards.
TEST(TestModeSemantics, elasticHandsALateWorkersBatchToTheWaitingOnes) {
    for (const auto& [row, extra] : {std::pair<const char*, Args>{"direct", {}}, {"two aggregators", {"--aggregators", "2"}},
                                     {"two shards", {"--shards", "2"}}}) {
        SCOPED_TRACE(row);
        TempDir dir;
        const Recording r = recordRun(dir.filePath("handoff.ssrec"),
                                      Args{"--workers", "4", "--model", "cnn", "--mode", "elastic", "--slowdown", "3:1:0:0.3:6",
                                           "--max-seconds", "6"} + extra);
        int handOffs = 0, handOffRounds = 0, handedOff = 0, unneeded = 0;
        for (const auto& record : r.records) {
            if (record.has_tick())
                for (const auto& e : record.tick().events()) handOffs += e.kind() == wire::EVENT_HAND_OFF;
            if (record.has_update()) {
                std::map<uint32_t, int> per;
                for (const auto& c : record.update().contributions()) ++per[c.worker_id()];
                handOffRounds += !per.count(3) && std::any_of(per.begin(), per.end(), [](const auto& p) { return p.second > 1; });
            }
            if (!record.has_drop()) continue;
            const std::string& why = record.drop().reason();
            if (why.find("was handed to workers that were waiting") != std::string::npos) ++handedOff;
            else if (why.find("not needed") != std::string::npos) ++unneeded;
            else ASSERT_NE(why.find("run stopped"), std::string::npos) << why;
        }
        testLog("elastic hand-off, %s: %d hand_off events, %d rounds closed with shares, %d late gradients handed off, "
                "%d shares not needed", row, handOffs, handOffRounds, handedOff, unneeded);
        EXPECT_GE(handOffs, 1);
        EXPECT_GE(handOffRounds, 1);
        const wire::Tick* t = lastTick(r);
        ASSERT_TRUE(t);
        ASSERT_EQ(t->pushed(), t->applied() + t->dropped());
    }
}
