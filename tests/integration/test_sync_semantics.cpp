// The sync modes' rules, checked on what a real run recorded: 4 worker processes on loopback
// train mlp to a final 85% (bsp 3 epochs, asp 4) ; bsp averages exactly one gradient per worker, all on one
// version; ssp never lets a worker run more than s clocks ahead of the slowest; and across live
// mode switches every pushed gradient is accounted for as applied or dropped.
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <zmq.hpp>

#include <cstring>
#include <set>

#include "engine/net/endpoint.h"
#include "engine/net/wire_codec.h"
#include "engine/relay/aggregator.h"
#include "engine/launch/local_cluster.h"
#include "qt_engine_process.h"
#include "qt_recording_helpers.h"

using namespace syncscope::engine;
namespace wire = syncscope::wire;

namespace {

double finalAccuracy(const EngineRun& run) {
    const auto m = QRegularExpression(R"(final test accuracy: ([0-9.]+)%)").match(run.out);
    return m.hasMatch() ? m.captured(1).toDouble() : -1.0;
}

}  // namespace

class TestSyncSemantics : public QObject {
    Q_OBJECT
private slots:
    // Directly, and through two group aggregators (a two-level reduction tree: each sums its two
    // workers' gradients, the coordinator the two sums); the recorded rule is the same.
    void bspReaches85AndAveragesOnePerWorker_data() {
        QTest::addColumn<int>("aggregators");
        QTest::newRow("direct") << 0;
        QTest::newRow("two aggregators") << 2;
    }
    void bspReaches85AndAveragesOnePerWorker() {
        QFETCH(int, aggregators);
        QTemporaryDir dir;
        const QString rec = dir.filePath("bsp.ssrec");
        const EngineRun run = runEngine({"run", "--workers", "4", "--model", "mlp", "--mode", "bsp", "--epochs", "3",
                                         "--record", rec, "--aggregators", QString::number(aggregators),
                                         "--data", SYNCSCOPE_FASHION_MNIST_DIR});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.right(2000)));
        const AggregatorTotals totals = aggregatorTotals(run.err);
        QCOMPARE(totals.aggregators, aggregators);
        if (aggregators) {  // the rounds went up as sums of two gradients, not one by one
            qInfo("bsp through %d aggregators: %lld gradients in %lld sums", aggregators, totals.summed, totals.sums);
            QVERIFY(totals.sums > 50);
            QVERIFY(totals.summed >= 19 * totals.sums / 10);
        }
        qInfo("bsp: final accuracy %.2f%%", finalAccuracy(run));
        QVERIFY2(finalAccuracy(run) >= 85.0, qPrintable(run.out));
        const Recording r = loadRecording(rec);
        int updates = 0;
        for (const auto& record : r.records) {
            if (!record.has_update()) continue;
            const wire::Update& u = record.update();
            QCOMPARE(u.mode(), wire::BSP);
            std::set<uint32_t> workers;
            for (const auto& c : u.contributions()) {
                QCOMPARE(c.base_version(), u.version() - 1);  // all on the version before this one
                QCOMPARE(c.staleness(), 0u);
                workers.insert(c.worker_id());
            }
            QCOMPARE(u.contributions_size(), 4);  // one from each of the 4 workers...
            QCOMPARE(workers.size(), size_t(4));  // ...and no worker twice
            ++updates;
        }
        QVERIFY(updates > 50);
        const wire::Tick* t = lastTick(r);
        QVERIFY(t);
        QCOMPARE(t->pushed(), t->applied() + t->dropped());
    }

    void aspReaches85WithStalenessRecorded() {
        QTemporaryDir dir;
        const QString rec = dir.filePath("asp.ssrec");
        // dynsgd (lr / (tau + 1)): with momentum 0.9 and 4 workers, unmodulated asp diverges.
        const EngineRun run = runEngine({"run", "--workers", "4", "--model", "mlp", "--mode", "asp", "--lr-modulation",
                                         "dynsgd", "--epochs", "4", "--record", rec, "--data", SYNCSCOPE_FASHION_MNIST_DIR});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.right(2000)));
        qInfo("asp: final accuracy %.2f%%", finalAccuracy(run));
        QVERIFY2(finalAccuracy(run) >= 85.0, qPrintable(run.out));
        const Recording r = loadRecording(rec);
        uint64_t stale = 0, applied = 0;
        for (const auto& record : r.records) {
            if (!record.has_update()) continue;
            const wire::Update& u = record.update();
            QCOMPARE(u.contributions_size(), 1);  // applied on arrival, one at a time
            const wire::Contribution& c = u.contributions(0);
            QCOMPARE(uint64_t(c.staleness()), u.version() - 1 - c.base_version());
            stale += c.staleness() > 0;
            ++applied;
        }
        QVERIFY(applied > 50);
        QVERIFY2(stale > 0, "4 asp workers on 2 cores must produce some stale gradients");
    }

    void sspBoundHolds() {
        QTemporaryDir dir;
        const QString rec = dir.filePath("ssp.ssrec");
        const EngineRun run = runEngine({"run", "--workers", "3", "--model", "mlp", "--mode", "ssp", "--staleness", "2",
                                         "--slowdown", "0:4", "--max-seconds", "6", "--record", rec, "--data",
                                         SYNCSCOPE_FASHION_MNIST_DIR});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.right(2000)));
        const Recording r = loadRecording(rec);
        int releases = 0, atBound = 0;
        for (const auto& record : r.records) {
            if (!record.has_release()) continue;
            const wire::Release& rel = record.release();
            QVERIFY2(rel.clock() <= rel.min_clock() + 2,
                     qPrintable(QString("worker %1 released at clock %2 with the slowest at %3")
                                    .arg(rel.worker_id()).arg(rel.clock()).arg(rel.min_clock())));
            atBound += rel.clock() == rel.min_clock() + 2;
            ++releases;
        }
        QVERIFY(releases > 20);
        QVERIFY2(atBound > 0, "a worker slowed 4x must make the others reach the bound");
    }

    // Mode switches mid-run with 4 workers: at every switch, pushed = applied + dropped + pending
    // with nothing pending (the partial aggregate is applied at the boundary), and at the end
    // every gradient pushed is an applied contribution or a drop.
    // The same through two group aggregator processes (sums in bsp, one-by-one relays in the others).
    void modeSwitchesAccountForEveryGradient_data() {
        QTest::addColumn<int>("aggregators");
        QTest::newRow("direct") << 0;
        QTest::newRow("two aggregators") << 2;
    }
    void modeSwitchesAccountForEveryGradient() {
        QFETCH(int, aggregators);
        QTemporaryDir dir;
        const QString rec = dir.filePath("switch.ssrec");
        const QString keys = dir.filePath("credentials");
        const syncscope::engine::Credentials credentials = syncscope::engine::Credentials::generate();
        QVERIFY(credentials.save(keys.toStdString()));
        QProcess serve;
        serve.start(SYNCSCOPE_ENGINE_BINARY, {"serve", "--workers", "4", "--model", "mlp", "--mode", "bsp",
                                              "--max-seconds", "60", "--record", rec, "--data-port", "0",
                                              "--control-port", "0", "--telemetry-port", "0", "--data",
                                              SYNCSCOPE_FASHION_MNIST_DIR, "--credentials", keys});
        QVERIFY(serve.waitForReadyRead(30'000));
        auto endpoints = parseEndpointsLine(serve.readLine().trimmed().toStdString());
        QVERIFY2(endpoints, endpoints.status().message().c_str());
        std::vector<std::unique_ptr<QProcess>> aggregatorProcesses;
        QStringList connect{QString::fromStdString(endpoints->data)};
        if (aggregators) connect.clear();
        for (int i = 0; i < aggregators; ++i) {
            aggregatorProcesses.push_back(std::make_unique<QProcess>());
            aggregatorProcesses.back()->start(SYNCSCOPE_ENGINE_BINARY, {"aggregate", "--connect", QString::fromStdString(endpoints->data),
                                                                        "--credentials", keys});
            QVERIFY(aggregatorProcesses.back()->waitForReadyRead(30'000));
            const QString line = QString::fromUtf8(aggregatorProcesses.back()->readLine()).trimmed();
            QVERIFY2(line.startsWith(kAggregatorLinePrefix), qPrintable(line));
            connect << line.mid(int(std::strlen(kAggregatorLinePrefix)));
        }
        std::vector<std::unique_ptr<QProcess>> workers;
        for (int i = 0; i < 4; ++i) {
            workers.push_back(std::make_unique<QProcess>());
            workers.back()->start(SYNCSCOPE_ENGINE_BINARY,
                                  {"work", "--connect", connect[i % connect.size()], "--credentials", keys});
        }
        zmq::context_t context;
        zmq::socket_t control(context, zmq::socket_type::dealer);
        control.set(zmq::sockopt::linger, 0);
        syncscope::engine::applySecurity(control, syncscope::engine::EndpointSecurity::client(&credentials, syncscope::engine::Role::Steer), false);
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
        QTest::qWait(4000);  // workers load their data and start
        const std::vector<std::pair<wire::SyncMode, uint32_t>> modes{
            {wire::ASP, 0}, {wire::SSP, 2}, {wire::BSP, 0}, {wire::SSP, 0}, {wire::ASP, 0}, {wire::BSP, 0}};
        for (const auto& [mode, bound] : modes) {
            wire::ControlRequest request;
            request.mutable_set_mode()->mutable_settings()->set_mode(mode);
            request.mutable_set_mode()->mutable_settings()->set_staleness_bound(bound);
            QVERIFY(command(request));
            QTest::qWait(1200);
        }
        wire::ControlRequest stop;
        stop.set_stop(true);
        QVERIFY(command(stop));
        QVERIFY(serve.waitForFinished(30'000));
        for (auto& w : workers) QVERIFY(w->waitForFinished(10'000));
        for (auto& a : aggregatorProcesses) {
            QVERIFY2(a->waitForFinished(10'000), "an aggregator ends with its run");
            QCOMPARE(a->exitCode(), 0);
        }

        const Recording r = loadRecording(rec);
        int switches = 0;
        uint64_t contributions = 0, drops = 0;
        for (const auto& record : r.records) {
            if (record.has_update()) contributions += record.update().contributions_size();
            if (record.has_drop()) ++drops;
            if (!record.has_event() || (record.event().kind() != wire::EVENT_MODE && record.event().kind() != wire::EVENT_STOP)) continue;
            const wire::Event& e = record.event();
            QCOMPARE(e.pending(), uint64_t(0));
            QCOMPARE(e.pushed(), e.applied() + e.dropped());
            switches += e.kind() == wire::EVENT_MODE;
        }
        QCOMPARE(switches, int(modes.size()));
        const wire::Tick* t = lastTick(r);
        QVERIFY(t && t->pushed() > 100);
        QCOMPARE(t->pushed(), t->applied() + t->dropped());
        QCOMPARE(contributions + drops, t->pushed());
    }
};

QTEST_GUILESS_MAIN(TestSyncSemantics)
#include "test_sync_semantics.moc"
