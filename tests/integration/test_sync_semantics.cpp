// The sync modes' rules, checked on what a real run recorded: 4 worker processes on loopback
// train mlp to a final 85% (bsp 3 epochs, asp 4) ; bsp averages exactly one gradient per worker, all on one
// version; ssp never lets a worker run more than s clocks ahead of the slowest; and across live
// mode switches every pushed gradient is accounted for as applied or dropped.
#include <gtest/gtest.h>
#include <zmq.hpp>

#include <cstring>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "engine/net/endpoint.h"
#include "engine/net/wire_codec.h"
#include "engine/relay/aggregator.h"
#include "engine/launch/cluster.h"
#include "tests/integration/engine_cluster.h"
#include "tests/integration/engine_process.h"
#include "tests/integration/recording_helpers.h"

using namespace syncscope::engine;
using namespace syncscope::testing;
namespace wire = syncscope::wire;

namespace {

double finalAccuracy(const EngineRun& run) {
    std::smatch m;
    return std::regex_search(run.out, m, std::regex(R"(final test accuracy: ([0-9.]+)%)")) ? toDouble(m[1]) : -1.0;
}

/// The first line `child` printed on standard output (as QProcess's waitForReadyRead and readLine
/// gave it), without its end; none when it printed no whole line within `timeoutMs`.
std::optional<std::string> firstLine(EngineChild& child, int timeoutMs) {
    const Deadline deadline(timeoutMs);
    std::string out;
    for (;;) {
        const bool exited = !child.running();  // before reading: what it printed before it exited is read
        if (contains(out = child.stdoutText(), "\n")) break;
        if (exited || deadline.expired()) return std::nullopt;
        sleepMs(20);
    }
    return trimmed(out.substr(0, out.find('\n')));
}

}  // namespace

// Directly, and through two group aggregators (a two-level reduction tree: each sums its two
// workers' gradients, the coordinator the two sums); the recorded rule is the same.
static void bspReaches85AndAveragesOnePerWorker(int aggregators) {
    TempDir dir;
    const std::string rec = dir.filePath("bsp.ssrec");
    const EngineRun run = runEngine({"run", "--workers", "4", "--model", "mlp", "--mode", "bsp", "--epochs", "3",
                                     "--record", rec, "--aggregators", std::to_string(aggregators),
                                     "--data", SYNCSCOPE_FASHION_MNIST_DIR});
    ASSERT_TRUE(run.exitCode == 0) << right(run.err, 2000);
    const AggregatorTotals totals = aggregatorTotals(run.err);
    ASSERT_EQ(totals.aggregators, aggregators);
    if (aggregators) {  // the rounds went up as sums of two gradients, not one by one
        testLog("bsp through %d aggregators: %lld gradients in %lld sums", aggregators, totals.summed, totals.sums);
        ASSERT_TRUE(totals.sums > 50);
        ASSERT_TRUE(totals.summed >= 19 * totals.sums / 10);
    }
    testLog("bsp: final accuracy %.2f%%", finalAccuracy(run));
    ASSERT_TRUE(finalAccuracy(run) >= 85.0) << run.out;
    const Recording r = loadRecording(rec);
    int updates = 0;
    for (const auto& record : r.records) {
        if (!record.has_update()) continue;
        const wire::Update& u = record.update();
        ASSERT_EQ(u.mode(), wire::BSP);
        std::set<uint32_t> workers;
        for (const auto& c : u.contributions()) {
            ASSERT_EQ(c.base_version(), u.version() - 1);  // all on the version before this one
            ASSERT_EQ(c.staleness(), 0u);
            workers.insert(c.worker_id());
        }
        ASSERT_EQ(u.contributions_size(), 4);  // one from each of the 4 workers...
        ASSERT_EQ(workers.size(), size_t(4));  // ...and no worker twice
        ++updates;
    }
    ASSERT_TRUE(updates > 50);
    const wire::Tick* t = lastTick(r);
    ASSERT_TRUE(t);
    ASSERT_EQ(t->pushed(), t->applied() + t->dropped());
}

TEST(TestSyncSemantics, bspReaches85AndAveragesOnePerWorker) {
    for (const auto& [row, aggregators] : {std::pair{"direct", 0}, std::pair{"two aggregators", 2}}) {
        SCOPED_TRACE(row);
        bspReaches85AndAveragesOnePerWorker(aggregators);
    }
}

TEST(TestSyncSemantics, aspReaches85WithStalenessRecorded) {
    TempDir dir;
    const std::string rec = dir.filePath("asp.ssrec");
    // dynsgd (lr / (tau + 1)): with momentum 0.9 and 4 workers, unmodulated asp diverges.
    const EngineRun run = runEngine({"run", "--workers", "4", "--model", "mlp", "--mode", "asp", "--lr-modulation",
                                     "dynsgd", "--epochs", "4", "--record", rec, "--data", SYNCSCOPE_FASHION_MNIST_DIR});
    ASSERT_TRUE(run.exitCode == 0) << right(run.err, 2000);
    testLog("asp: final accuracy %.2f%%", finalAccuracy(run));
    ASSERT_TRUE(finalAccuracy(run) >= 85.0) << run.out;
    const Recording r = loadRecording(rec);
    uint64_t stale = 0, applied = 0;
    for (const auto& record : r.records) {
        if (!record.has_update()) continue;
        const wire::Update& u = record.update();
        ASSERT_EQ(u.contributions_size(), 1);  // applied on arrival, one at a time
        const wire::Contribution& c = u.contributions(0);
        ASSERT_EQ(uint64_t(c.staleness()), u.version() - 1 - c.base_version());
        stale += c.staleness() > 0;
        ++applied;
    }
    ASSERT_TRUE(applied > 50);
    ASSERT_TRUE(stale > 0) << "4 asp workers on 2 cores must produce some stale gradients";
}

TEST(TestSyncSemantics, sspBoundHolds) {
    TempDir dir;
    const std::string rec = dir.filePath("ssp.ssrec");
    const EngineRun run = runEngine({"run", "--workers", "3", "--model", "mlp", "--mode", "ssp", "--staleness", "2",
                                     "--slowdown", "0:4", "--max-seconds", "6", "--record", rec, "--data",
                                     SYNCSCOPE_FASHION_MNIST_DIR});
    ASSERT_TRUE(run.exitCode == 0) << right(run.err, 2000);
    const Recording r = loadRecording(rec);
    int releases = 0, atBound = 0;
    for (const auto& record : r.records) {
        if (!record.has_release()) continue;
        const wire::Release& rel = record.release();
        ASSERT_TRUE(rel.clock() <= rel.min_clock() + 2)
            << "worker " << rel.worker_id() << " released at clock " << rel.clock() << " with the slowest at "
            << rel.min_clock();
        atBound += rel.clock() == rel.min_clock() + 2;
        ++releases;
    }
    ASSERT_TRUE(releases > 20);
    ASSERT_TRUE(atBound > 0) << "a worker slowed 4x must make the others reach the bound";
}

// Mode switches mid-run with 4 workers: at every switch, pushed = applied + dropped + pending
// with nothing pending (the partial aggregate is applied at the boundary), and at the end
// every gradient pushed is an applied contribution or a drop.
// The same through two group aggregator processes (sums in bsp, one-by-one relays in the others).
static void modeSwitchesAccountForEveryGradient(int aggregators) {
    TempDir dir;
    const std::string rec = dir.filePath("switch.ssrec");
    const std::string keys = dir.filePath("credentials");
    const syncscope::engine::Credentials credentials = syncscope::engine::Credentials::generate();
    ASSERT_TRUE(credentials.save(keys));
    EngineChild serve(dir.path(), "serve",
                      {"serve", "--workers", "4", "--model", "mlp", "--mode", "bsp", "--max-seconds", "60",
                       "--record", rec, "--data-port", "0", "--control-port", "0", "--telemetry-port", "0",
                       "--data", SYNCSCOPE_FASHION_MNIST_DIR, "--credentials", keys});
    const std::optional<std::string> endpointsLine = firstLine(serve, 30'000);
    ASSERT_TRUE(endpointsLine);
    auto endpoints = parseEndpointsLine(*endpointsLine);
    ASSERT_TRUE(endpoints) << endpoints.status().message().c_str();
    std::vector<std::unique_ptr<EngineChild>> aggregatorProcesses;
    std::vector<std::string> connect{endpoints->data};
    if (aggregators) connect.clear();
    for (int i = 0; i < aggregators; ++i) {
        aggregatorProcesses.push_back(std::make_unique<EngineChild>(
            dir.path(), "aggregator" + std::to_string(i),
            Args{"aggregate", "--connect", endpoints->data, "--credentials", keys}));
        const std::optional<std::string> line = firstLine(*aggregatorProcesses.back(), 30'000);
        ASSERT_TRUE(line);
        ASSERT_TRUE(startsWith(*line, kAggregatorLinePrefix)) << line->c_str();
        connect.push_back(line->substr(std::strlen(kAggregatorLinePrefix)));
    }
    std::vector<std::unique_ptr<EngineChild>> workers;
    for (int i = 0; i < 4; ++i)
        workers.push_back(std::make_unique<EngineChild>(
            dir.path(), "worker" + std::to_string(i),
            Args{"work", "--connect", connect[i % connect.size()], "--credentials", keys}));
    zmq::context_t context;
    zmq::socket_t control(context, zmq::socket_type::dealer);
    control.set(zmq::sockopt::linger, 0);
    syncscope::engine::applySecurity(
        control, syncscope::engine::EndpointSecurity::client(&credentials, syncscope::engine::Role::Steer), false);
    control.connect(endpoints->control);
    auto command = [&](const wire::ControlRequest& request) {
        wire::Envelope envelope;
        *envelope.mutable_control() = request;
        sendMessage(control, nullptr, envelope);
        zmq::pollitem_t item{control.handle(), 0, ZMQ_POLLIN, 0};
        zmq::poll(&item, 1, std::chrono::seconds(5));
        auto reply = receiveMessage(control, false, {1 << 24, 0});
        return reply && *reply && reply->value().envelope.control_reply().ok();
    };
    sleepMs(4000);  // workers load their data and start
    const std::vector<std::pair<wire::SyncMode, uint32_t>> modes{
        {wire::ASP, 0}, {wire::SSP, 2}, {wire::BSP, 0}, {wire::SSP, 0}, {wire::ASP, 0}, {wire::BSP, 0}};
    for (const auto& [mode, bound] : modes) {
        wire::ControlRequest request;
        request.mutable_set_mode()->mutable_settings()->set_mode(mode);
        request.mutable_set_mode()->mutable_settings()->set_staleness_bound(bound);
        ASSERT_TRUE(command(request));
        sleepMs(1200);
    }
    wire::ControlRequest stop;
    stop.set_stop(true);
    ASSERT_TRUE(command(stop));
    ASSERT_TRUE(serve.waitForExit(30'000));
    for (auto& w : workers) ASSERT_TRUE(w->waitForExit(10'000));
    for (auto& a : aggregatorProcesses) {
        ASSERT_TRUE(a->waitForExit(10'000)) << "an aggregator ends with its run";
        ASSERT_EQ(a->exitCode(), 0);
    }

    const Recording r = loadRecording(rec);
    int switches = 0;
    uint64_t contributions = 0, drops = 0;
    for (const auto& record : r.records) {
        if (record.has_update()) contributions += record.update().contributions_size();
        if (record.has_drop()) ++drops;
        if (!record.has_event() || (record.event().kind() != wire::EVENT_MODE && record.event().kind() != wire::EVENT_STOP)) continue;
        const wire::Event& e = record.event();
        ASSERT_EQ(e.pending(), uint64_t(0));
        ASSERT_EQ(e.pushed(), e.applied() + e.dropped());
        switches += e.kind() == wire::EVENT_MODE;
    }
    ASSERT_EQ(switches, int(modes.size()));
    const wire::Tick* t = lastTick(r);
    ASSERT_TRUE(t && t->pushed() > 100);
    ASSERT_EQ(t->pushed(), t->applied() + t->dropped());
    ASSERT_EQ(contributions + drops, t->pushed());
}

TEST(TestSyncSemantics, modeSwitchesAccountForEveryGradient) {
    for (const auto& [row, aggregators] : {std::pair{"direct", 0}, std::pair{"two aggregators", 2}}) {
        SCOPED_TRACE(row);
        modeSwitchesAccountForEveryGradient(aggregators);
    }
}
