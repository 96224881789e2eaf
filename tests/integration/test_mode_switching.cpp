// Live changes while 4 real worker processes train: a switch through every mode, and regrouping
// by count, by speed and by explicit assignment. At every switch every gradient pushed so far
// is accounted for (pushed = applied + dropped, nothing pending), and the run still reaches 85%.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/policy/sync_policy.h"
#include "tests/integration/engine_cluster.h"

using namespace syncscope;
using syncscope::testing::testFatal;
using syncscope::testing::testLog;
using syncscope::testing::EngineCluster;

namespace {

wire::ControlRequest setMode(wire::SyncMode mode, const std::function<void(wire::ModeSettings&)>& tune = {}) {
    wire::ControlRequest request;
    wire::ModeSettings* s = request.mutable_set_mode()->mutable_settings();
    s->set_mode(mode);
    s->set_staleness_bound(2);
    // Stale gradients at full learning rate with momentum 0.9 can blow mlp up within seconds.
    s->set_lr_modulation(wire::LR_DYNSGD);
    if (tune) tune(*s);
    return request;
}

}  // namespace

TEST(TestModeSwitching, everyModeInOneRunReaches85) {
    EngineCluster cluster;
    ASSERT_TRUE(cluster.startCoordinator({"--workers", "4", "--model", "mlp", "--mode", "bsp", "--max-seconds", "120",
                                          "--eval-interval", "0.5", "--schedule", "constant"}))
        << cluster.logs();
    for (int i = 0; i < 4; ++i) cluster.startWorker();
    ASSERT_TRUE(cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 20; }, 60'000))
        << cluster.logs();
    using S = wire::ModeSettings;
    const std::vector<std::pair<const char*, wire::ControlRequest>> steps{
        {"asp", setMode(wire::ASP, [](S& s) { s.set_lr_modulation(wire::LR_DYNSGD); })},
        {"ssp", setMode(wire::SSP)},
        {"grouped", setMode(wire::GROUPED, [](S& s) { s.set_group_count(2); })},
        {"ksync", setMode(wire::KSYNC, [](S& s) { s.set_k(3); })},
        {"kasync", setMode(wire::KASYNC, [](S& s) {
             s.set_k(2);
             s.set_lr_modulation(wire::LR_DYNSGD);
         })},
        {"elastic", setMode(wire::ELASTIC, [](S& s) { s.set_rebalance_seconds(0.5); })},
        {"auto", setMode(wire::AUTO, [](S& s) { s.set_decision_seconds(1); })},
        {"grouped-ssp", setMode(wire::GROUPED, [](S& s) {
             s.set_group_count(2);
             s.set_intra_group_ssp(true);
             s.set_lr_modulation(wire::LR_DYNSGD);
         })},
        {"bsp", setMode(wire::BSP)},
    };
    int switches = 0;
    for (const auto& [name, request] : steps) {
        auto reply = cluster.control().request(request);
        ASSERT_TRUE(reply && reply->ok()) << (reply ? reply->error().c_str() : reply.status().message().c_str());
        const wire::Event& e = reply->event();
        ASSERT_EQ(e.kind(), wire::EVENT_MODE);
        ASSERT_EQ(e.pending(), uint64_t(0));  // the partial aggregate was applied at the boundary
        ASSERT_TRUE(e.pushed() == e.applied() + e.dropped())
            << name << ": pushed " << e.pushed() << ", applied " << e.applied() << ", dropped " << e.dropped();
        testLog("switched to %s at version %llu: pushed %llu = applied %llu + dropped %llu", name,
                static_cast<unsigned long long>(e.version()), static_cast<unsigned long long>(e.pushed()),
                static_cast<unsigned long long>(e.applied()), static_cast<unsigned long long>(e.dropped()));
        ++switches;
        const uint64_t at = e.version();
        ASSERT_TRUE(cluster.telemetry().waitForTick([&](const wire::Tick& t) { return t.version() > at + 30; }, 30'000))
            << "no progress in " << name;
    }
    ASSERT_EQ(switches, 9);
    // Train on in bsp until the background evaluation passes 85% (the last mode was bsp).
    auto done = cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.test_accuracy() >= 0.85; }, 60'000);
    ASSERT_TRUE(done) << "no evaluation reached 85% test accuracy after the switches";
    testLog("85%% reached: accuracy %.2f%% at version %llu", 100 * done->test_accuracy(),
            static_cast<unsigned long long>(done->version()));
    wire::ControlRequest stop;
    stop.set_stop(true);
    auto reply = cluster.control().request(stop);
    ASSERT_TRUE(reply && reply->ok());
    ASSERT_EQ(reply->event().pushed(), reply->event().applied() + reply->event().dropped());
}

namespace {

// Also with two group aggregator processes (group g's is g mod 2): a regrouping moves workers
// to their new group's aggregator while the run goes on.
void regroupByCountSpeedAndAssignment(int aggregators) {
    EngineCluster cluster;
    // dynsgd: 4 groups of one are asp, which with momentum 0.9 and full-rate stale updates diverges.
    ASSERT_TRUE(cluster.startCoordinator({"--workers", "4", "--model", "mlp", "--mode", "grouped", "--groups", "2",
                                          "--lr-modulation", "dynsgd", "--max-seconds", "60", "--slowdown", "0:1:20"}))
        << cluster.logs();
    std::vector<std::string> at;
    for (int i = 0; i < aggregators; ++i) {
        at.push_back(cluster.startAggregator());
        ASSERT_TRUE(!at.back().empty()) << cluster.logs();
    }
    for (int i = 0; i < 4; ++i) at.empty() ? cluster.startWorker() : cluster.startWorkerAt(at[i % at.size()]);
    ASSERT_TRUE(cluster.telemetry().waitForTick([](const wire::Tick& t) { return t.version() > 20; }, 60'000));
    auto groupsOf = [&](uint64_t after) {
        std::map<uint32_t, uint32_t> groups;
        auto tick = cluster.telemetry().waitForTick([&](const wire::Tick& t) { return t.version() > after + 5; }, 20'000);
        if (tick)
            for (const auto& w : tick->workers()) groups[w.worker_id()] = w.group();
        return groups;
    };
    auto regroup = [&](const wire::SetGroups& g) {
        wire::ControlRequest request;
        *request.mutable_set_groups() = g;
        auto reply = cluster.control().request(request);
        if (!reply || !reply->ok()) testFatal("set_groups failed: %s", reply ? reply->error().c_str() : "no reply");
        if (reply->event().kind() != wire::EVENT_GROUPS) testFatal("expected a groups event");
        if (reply->event().pushed() != reply->event().applied() + reply->event().dropped())
            testFatal("a regrouping lost a gradient");
        testLog("%s", reply->event().detail().c_str());
        return reply->event().version();
    };
    wire::SetGroups byCount;
    byCount.set_count(4);
    byCount.set_by(wire::GROUP_ROUND_ROBIN);
    auto groups = groupsOf(regroup(byCount));
    ASSERT_EQ(groups.size(), size_t(4));
    for (const auto& [id, g] : groups) ASSERT_EQ(g, id % 4);

    wire::SetGroups bySpeed;
    bySpeed.set_count(2);
    bySpeed.set_by(wire::GROUP_BY_SPEED);
    groups = groupsOf(regroup(bySpeed));
    int withSlow = 0;
    for (const auto& [id, g] : groups) withSlow += g == groups[0];
    ASSERT_EQ(withSlow, 1);  // worker 0, 20 ms slower per iteration, alone

    wire::SetGroups byHand;
    byHand.set_by(wire::GROUP_EXPLICIT);
    (*byHand.mutable_assignment())[0] = 1;
    (*byHand.mutable_assignment())[1] = 1;
    (*byHand.mutable_assignment())[2] = 0;
    (*byHand.mutable_assignment())[3] = 0;
    groups = groupsOf(regroup(byHand));
    ASSERT_EQ(groups[0], 1u);
    ASSERT_EQ(groups[1], 1u);
    ASSERT_EQ(groups[2], 0u);
    ASSERT_EQ(groups[3], 0u);
    if (aggregators) {  // each worker's last move took it to its final group's aggregator
        std::map<uint32_t, uint32_t> movedTo;
        for (const wire::Event& e : cluster.telemetry().events()) {
            uint32_t worker = 0, group = 0;
            if (std::sscanf(e.detail().c_str(), "worker %u moves to group %u", &worker, &group) == 2)
                movedTo[worker] = group;
        }
        testLog("%zu workers moved between aggregators", movedTo.size());
        ASSERT_TRUE(!movedTo.empty());  // by speed, three workers share one group: someone moved
        for (const auto& [worker, group] : movedTo) ASSERT_EQ(group % 2, groups[worker] % 2);
    }

    // Regrouping outside the grouped mode is refused with a reason.
    wire::ControlRequest bsp = setMode(wire::BSP);
    ASSERT_TRUE(cluster.control().request(bsp)->ok());
    wire::ControlRequest again;
    *again.mutable_set_groups() = byCount;
    auto refused = cluster.control().request(again);
    ASSERT_TRUE(refused && !refused->ok());
    ASSERT_TRUE(refused->error().find("grouped") != std::string::npos) << refused->error().c_str();
}

}  // namespace

TEST(TestModeSwitching, regroupByCountSpeedAndAssignment) {
    for (const auto& [row, aggregators] : {std::pair{"direct", 0}, std::pair{"two aggregators", 2}}) {
        SCOPED_TRACE(row);
        regroupByCountSpeedAndAssignment(aggregators);
    }
}
