// ConsoleConnection against a real coordinator and two workers on loopback: snapshot first, then
// every tick exactly once (checked against the coordinator's own recording), commands, re-attach.
#include <sys/prctl.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <algorithm>
#include <csignal>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "engine/telemetry/recording_reader.h"
#include "ui/net/console_connection.h"
#include "ui/net/control_requests.h"
#include "ui/net/snapshot_joiner.h"

using namespace syncscope;
using namespace syncscope::ui;

namespace {

/// What the network thread handed over, in order: a snapshot, or a tick.
struct Delivery {
    std::optional<wire::Snapshot> snapshot;
    wire::Tick tick;
};

class RecordingSink : public TelemetrySink {
public:
    void ingestTick(const wire::Tick& tick) override {
        std::lock_guard lock(m_mutex);
        m_deliveries.push_back({std::nullopt, tick});
    }
    void ingestSnapshot(const wire::Snapshot& snapshot) override {
        std::lock_guard lock(m_mutex);
        m_deliveries.push_back({snapshot, {}});
    }
    std::vector<Delivery> deliveries() const {
        std::lock_guard lock(m_mutex);
        return m_deliveries;
    }
    size_t tickCount() const {
        std::lock_guard lock(m_mutex);
        return std::count_if(m_deliveries.begin(), m_deliveries.end(), [](const Delivery& d) { return !d.snapshot; });
    }
    std::optional<wire::Tick> latestTick() const {
        std::lock_guard lock(m_mutex);
        auto it = std::find_if(m_deliveries.rbegin(), m_deliveries.rend(), [](const Delivery& d) { return !d.snapshot; });
        return it == m_deliveries.rend() ? std::nullopt : std::optional(it->tick);
    }

private:
    mutable std::mutex m_mutex;
    std::vector<Delivery> m_deliveries;
};

std::unique_ptr<QProcess> startEngine(const QStringList& args) {
    auto process = std::make_unique<QProcess>();
    process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process->start(QStringLiteral(SYNCSCOPE_ENGINE_BINARY), args);
    return process;
}

/// The arguments of the commandReplied() for `requestId`, waiting for it up to `timeoutMs`.
QList<QVariant> waitForReply(QSignalSpy& spy, quint64 requestId, int timeoutMs = 5000) {
    QDeadlineTimer deadline(timeoutMs);
    for (qsizetype seen = 0; !deadline.hasExpired(); spy.wait(50))
        for (; seen < spy.size(); ++seen)
            if (spy.at(seen).at(0).toULongLong() == requestId) return spy.at(seen);
    return {};
}

wire::Tick tickAt(double timeS, wire::EventKind eventKind = wire::EVENT_KIND_UNSPECIFIED) {
    wire::Tick tick;
    tick.set_time_s(timeS);
    if (eventKind != wire::EVENT_KIND_UNSPECIFIED) {
        wire::Event* event = tick.add_events();
        event->set_time_s(timeS - 0.05);
        event->set_kind(eventKind);
    }
    return tick;
}

}  // namespace

class TestConsoleConnection : public QObject {
    Q_OBJECT

private slots:
    void joinerDeliversEachTickOnce();
    void initTestCase();
    void snapshotComesFirst();
    void ticksStreamAtTenHertz();
    void setModeRepliesWithItsEvent();
    void badCommandNamesTheWorker();
    void everyTickExactlyOnce();
    void reattachShowsTheHistory();
    void socketsStayOnTheNetworkThread();
    void silenceReportsConnectionLost();
    void resumedCoordinatorIsReattached();
    void deadEndpointFailsTheAttach();
    void cleanupTestCase();

private:
    QTemporaryDir m_dir;
    QString m_credentials;
    std::unique_ptr<QProcess> m_coordinator;
    std::vector<std::unique_ptr<QProcess>> m_workers;
    QString m_control, m_telemetry;
    RecordingSink m_sink;
    std::unique_ptr<ConsoleConnection> m_connection;
    double m_modeEventTime = 0;
};

// The races the live test hits only by chance, played in a fixed order.
void TestConsoleConnection::joinerDeliversEachTickOnce() {
    RecordingSink sink;
    SnapshotJoiner joiner(sink);
    joiner.waitForSnapshot();
    QVERIFY(!joiner.addTick(tickAt(1.0)));  // held: received before the snapshot reply, and in it
    QVERIFY(!joiner.addTick(tickAt(1.1, wire::EVENT_MODE)));  // held: newer than the snapshot; its event is in it
    wire::Snapshot snapshot;
    *snapshot.add_ticks() = tickAt(0.9);
    *snapshot.add_ticks() = tickAt(1.0);
    *snapshot.add_events() = tickAt(1.1, wire::EVENT_MODE).events(0);  // raised after the 1.0 tick: also in the 1.1 one
    joiner.addSnapshot(snapshot);
    QVERIFY(!joiner.addTick(tickAt(1.0)));  // late over the telemetry socket: already in the snapshot
    QVERIFY(!joiner.addTick(tickAt(1.2, wire::EVENT_PAUSE)));
    std::vector<Delivery> deliveries = sink.deliveries();
    QCOMPARE(deliveries.size(), size_t{3});
    QVERIFY(deliveries[0].snapshot.has_value());
    QCOMPARE(deliveries[1].tick.time_s(), 1.1);
    QCOMPARE(deliveries[1].tick.events_size(), 0);
    QCOMPARE(deliveries[2].tick.events_size(), 1);
    QVERIFY(joiner.addTick(tickAt(0.1)));  // time went back: a new run, a new snapshot is needed
    QCOMPARE(sink.deliveries().size(), size_t{3});
}

void TestConsoleConnection::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_credentials = m_dir.filePath("credentials");  // created by serve; the console holds its steer keys
    m_coordinator = startEngine({"serve", "--workers", "2", "--model", "mlp", "--max-seconds", "25", "--data",
                                 SYNCSCOPE_FASHION_MNIST_DIR, "--record", m_dir.filePath("run.ssrec"), "--data-port", "0",
                                 "--control-port", "0", "--telemetry-port", "0", "--credentials", m_credentials,
                                 "--checkpoint-dir", m_dir.filePath("checkpoints"), "--checkpoint-seconds", "1"});
    QVERIFY2(m_coordinator->waitForStarted(10'000), "syncscope-engine serve did not start");
    QDeadlineTimer deadline(30'000);
    while (!m_coordinator->canReadLine() && !deadline.hasExpired()) m_coordinator->waitForReadyRead(100);
    const QString line = QString::fromUtf8(m_coordinator->readLine()).trimmed();
    QString data;
    for (const QString& word : line.split(' ')) {
        if (word.startsWith("data=")) data = word.mid(5);
        if (word.startsWith("control=")) m_control = word.mid(8);
        if (word.startsWith("telemetry=")) m_telemetry = word.mid(10);
    }
    QVERIFY2(!data.isEmpty() && !m_control.isEmpty() && !m_telemetry.isEmpty(), qPrintable("no endpoints line: " + line));
    for (int i = 0; i < 2; ++i) m_workers.push_back(startEngine({"work", "--connect", data, "--backend", "cpu", "--threads", "1", "--credentials", m_credentials}));
    m_connection = std::make_unique<ConsoleConnection>(m_sink);
}

void TestConsoleConnection::snapshotComesFirst() {
    QSignalSpy attached(m_connection.get(), &ConsoleConnection::attached);
    QTest::qWait(1500);  // so the snapshot holds some history and races live training
    m_connection->attach(m_control, m_telemetry, m_credentials);
    QVERIFY2(attached.wait(10'000), "no attached() within 10 s");
    qInfo() << attached.at(0).at(0).toString();
    QTRY_VERIFY_WITH_TIMEOUT(m_sink.tickCount() >= 3, 5000);
    const std::vector<Delivery> deliveries = m_sink.deliveries();
    QVERIFY(deliveries.front().snapshot.has_value());
    const wire::Snapshot& snapshot = *deliveries.front().snapshot;
    QVERIFY(snapshot.header().spec().model() == "mlp" && snapshot.header().expected_workers() == 2);
    QVERIFY(snapshot.ticks_size() > 0);
    double last = snapshot.ticks(snapshot.ticks_size() - 1).time_s();
    for (size_t i = 1; i < deliveries.size(); ++i) {
        QVERIFY2(!deliveries[i].snapshot, "a second snapshot without a re-attach");
        QVERIFY2(deliveries[i].tick.time_s() > last, "a tick delivered twice or out of order");
        last = deliveries[i].tick.time_s();
    }
}

void TestConsoleConnection::ticksStreamAtTenHertz() {
    const size_t before = m_sink.tickCount();
    QTest::qWait(2000);
    const size_t count = m_sink.tickCount() - before;
    QVERIFY2(count >= 12 && count <= 25, qPrintable(QString("%1 ticks in 2 s, expected about 20").arg(count)));
}

void TestConsoleConnection::setModeRepliesWithItsEvent() {
    QSignalSpy replies(m_connection.get(), &ConsoleConnection::commandReplied);
    const quint64 id = m_connection->sendCommand(setModeRequest(wire::ASP));
    const QList<QVariant> reply = waitForReply(replies, id);
    QVERIFY2(!reply.isEmpty(), "no reply to set mode");
    QVERIFY2(reply.at(1).toBool(), qPrintable(reply.at(2).toString()));
    const std::optional<wire::Event> event = eventFromReply(reply.at(3).toByteArray());
    QVERIFY(event && event->kind() == wire::EVENT_MODE);
    m_modeEventTime = event->time_s();
    QTRY_VERIFY_WITH_TIMEOUT(m_sink.latestTick() && m_sink.latestTick()->time_s() > m_modeEventTime + 0.3, 3000);
    int modeEvents = 0;
    for (const Delivery& d : m_sink.deliveries()) {
        if (d.snapshot) continue;
        if (d.tick.time_s() > m_modeEventTime) QCOMPARE(d.tick.mode().mode(), wire::ASP);
        for (const wire::Event& e : d.tick.events()) modeEvents += e.kind() == wire::EVENT_MODE;
    }
    QCOMPARE(modeEvents, 1);
}

void TestConsoleConnection::badCommandNamesTheWorker() {
    QSignalSpy replies(m_connection.get(), &ConsoleConnection::commandReplied);
    const quint64 id = m_connection->sendCommand(setSlowdownRequest(99, 2.0));
    const QList<QVariant> reply = waitForReply(replies, id);
    QVERIFY2(!reply.isEmpty() && !reply.at(1).toBool(), "set slowdown for worker 99 did not fail");
    QVERIFY2(reply.at(2).toString().contains("99"), qPrintable(reply.at(2).toString()));
    QVERIFY(reply.at(3).toByteArray().isEmpty());
}

// The coordinator's recording holds every tick and event it published: the sink must hold the same,
// the snapshot's up to its last tick and the live ones after it, none missing and none twice.
void TestConsoleConnection::everyTickExactlyOnce() {
    const std::vector<Delivery> deliveries = m_sink.deliveries();
    std::vector<double> seenTicks, seenEvents;
    for (const wire::Tick& t : deliveries.front().snapshot->ticks()) seenTicks.push_back(t.time_s());
    for (const wire::Event& e : deliveries.front().snapshot->events()) seenEvents.push_back(e.time_s());
    for (size_t i = 1; i < deliveries.size(); ++i) {
        seenTicks.push_back(deliveries[i].tick.time_s());
        for (const wire::Event& e : deliveries[i].tick.events()) seenEvents.push_back(e.time_s());
    }
    auto recording = engine::readRecording(m_dir.filePath("run.ssrec").toStdString());
    QVERIFY2(recording, recording.status().message().c_str());
    std::vector<double> recordedTicks, recordedEvents;
    for (const wire::Record& r : recording->records) {
        if (r.has_tick() && r.tick().time_s() <= seenTicks.back()) recordedTicks.push_back(r.tick().time_s());
        if (r.has_event() && r.event().time_s() <= seenTicks.back()) recordedEvents.push_back(r.event().time_s());
    }
    qInfo() << "ticks:" << seenTicks.size() << "of which live:" << deliveries.size() - 1 << "events:" << seenEvents.size();
    QVERIFY2(seenTicks == recordedTicks, qPrintable(QString("the sink holds %1 ticks up to t=%2 s, the recording %3")
                                                     .arg(seenTicks.size()).arg(seenTicks.back()).arg(recordedTicks.size())));
    QVERIFY2(seenEvents == recordedEvents, qPrintable(QString("the sink holds %1 events, the recording %2")
                                                       .arg(seenEvents.size()).arg(recordedEvents.size())));
}

void TestConsoleConnection::reattachShowsTheHistory() {
    QSignalSpy detached(m_connection.get(), &ConsoleConnection::detached);
    QSignalSpy attached(m_connection.get(), &ConsoleConnection::attached);
    m_connection->detach();
    QVERIFY(detached.wait(2000));
    const std::optional<wire::Tick> lastBefore = m_sink.latestTick();
    QTest::qWait(500);
    QCOMPARE(m_sink.latestTick()->time_s(), lastBefore->time_s());  // nothing arrives while detached
    m_connection->attach(m_control, m_telemetry, m_credentials);
    QVERIFY2(attached.wait(10'000), "no attached() after re-attaching");
    const std::vector<Delivery> deliveries = m_sink.deliveries();
    auto second = std::find_if(deliveries.begin() + 1, deliveries.end(), [](const Delivery& d) { return d.snapshot.has_value(); });
    QVERIFY(second != deliveries.end());
    std::vector<double> history;
    for (const wire::Tick& t : second->snapshot->ticks()) history.push_back(t.time_s());
    for (auto it = deliveries.begin(); it != second; ++it)
        if (!it->snapshot) QVERIFY2(std::binary_search(history.begin(), history.end(), it->tick.time_s()), "a tick from before the detach is missing");
    QVERIFY(history.back() > lastBefore->time_s());
    const auto& events = second->snapshot->events();  // the mode change from before the detach
    QVERIFY(std::any_of(events.begin(), events.end(), [this](const auto& e) { return e.time_s() == m_modeEventTime; }));
}

void TestConsoleConnection::socketsStayOnTheNetworkThread() {
    QThread* socketThread = m_connection->socketThread();
    QVERIFY2(socketThread, "no socket use recorded, or sockets used from more than one thread");
    QVERIFY(socketThread != QThread::currentThread());
    QCOMPARE(m_connection->malformedMessages(), quint64{0});
}

void TestConsoleConnection::silenceReportsConnectionLost() {
    QSignalSpy lost(m_connection.get(), &ConsoleConnection::connectionLost);
    m_coordinator->kill();
    QVERIFY(m_coordinator->waitForFinished(5000));
    QVERIFY2(lost.wait(6000), "no connectionLost() within 6 s of the coordinator dying");
    qInfo() << lost.at(0).at(0).toString();
}

// The coordinator comes back on the same ports with --resume: the console, still attached, takes
// the resumed run's snapshot by itself, and it shows one history: the ticks from before the crash
// (from the continued recording), the resumed event, and new ticks after them.
void TestConsoleConnection::resumedCoordinatorIsReattached() {
    const auto snapshots = [this] {
        const auto deliveries = m_sink.deliveries();
        return size_t(std::count_if(deliveries.begin(), deliveries.end(), [](const Delivery& d) { return d.snapshot.has_value(); }));
    };
    const size_t snapshotsBefore = snapshots();
    QVERIFY(m_sink.latestTick());
    const double crashedAt = m_sink.latestTick()->time_s();
    m_coordinator = startEngine({"serve", "--workers", "2", "--model", "mlp", "--max-seconds", "25", "--data",
                                 SYNCSCOPE_FASHION_MNIST_DIR, "--record", m_dir.filePath("run.ssrec"), "--data-port", "0",
                                 "--control-port", m_control.section(':', -1), "--telemetry-port",
                                 m_telemetry.section(':', -1), "--credentials", m_credentials, "--resume",
                                 m_dir.filePath("checkpoints")});
    QVERIFY(m_coordinator->waitForStarted(10'000));
    QTRY_VERIFY_WITH_TIMEOUT(snapshots() > snapshotsBefore, 15'000);
    QTRY_VERIFY_WITH_TIMEOUT(m_sink.latestTick() && m_sink.latestTick()->time_s() > crashedAt, 5000);
    const auto deliveries = m_sink.deliveries();
    auto last = std::find_if(deliveries.rbegin(), deliveries.rend(), [](const Delivery& d) { return d.snapshot.has_value(); });
    const wire::Snapshot& resumed = *last->snapshot;
    QVERIFY(resumed.ticks_size() > 0);
    QVERIFY2(resumed.ticks(0).time_s() < 1.0, "the history before the crash is missing");
    for (int i = 1; i < resumed.ticks_size(); ++i) QVERIFY(resumed.ticks(i).time_s() >= resumed.ticks(i - 1).time_s());
    QVERIFY(std::any_of(resumed.events().begin(), resumed.events().end(),
                        [](const wire::Event& e) { return e.kind() == wire::EVENT_RESUMED; }));
    QVERIFY(std::any_of(resumed.events().begin(), resumed.events().end(),
                        [this](const wire::Event& e) { return e.time_s() == m_modeEventTime; }));
    m_coordinator->kill();
    QVERIFY(m_coordinator->waitForFinished(5000));
}

void TestConsoleConnection::deadEndpointFailsTheAttach() {
    QSignalSpy detached(m_connection.get(), &ConsoleConnection::detached);
    m_connection->attach(m_control, m_telemetry, m_credentials);  // the coordinator is gone: nothing answers there
    QVERIFY2(detached.wait(2000), "re-attaching did not end the previous attachment");
    QVERIFY2(detached.wait(8000), "an attach to a dead endpoint never failed");
    QVERIFY2(detached.last().at(0).toString().contains(m_telemetry), qPrintable(detached.last().at(0).toString()));
    QSignalSpy replies(m_connection.get(), &ConsoleConnection::commandReplied);
    const quint64 id = m_connection->sendCommand(pauseRequest());
    const QList<QVariant> reply = waitForReply(replies, id);
    QVERIFY(!reply.isEmpty() && !reply.at(1).toBool());
}

void TestConsoleConnection::cleanupTestCase() {
    m_connection.reset();
    m_workers.clear();  // ~QProcess kills and reaps
    m_coordinator.reset();
}

QTEST_GUILESS_MAIN(TestConsoleConnection)
#include "test_console_connection.moc"
