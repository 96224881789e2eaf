// NetworkWorker (see network_worker.h): a QTimer(0) runs one zmq_poll of at most 20 ms per turn, so
// the thread sleeps in poll while idle and handles queued calls from the GUI between turns.
#include "ui/net/network_worker.h"

#include <QThread>

#include "engine/net/endpoint.h"
#include "engine/net/protocol.h"
#include "engine/net/wire_codec.h"

namespace syncscope::ui {
namespace {

using namespace std::chrono_literals;

constexpr auto kPollTimeout = 20ms;
constexpr auto kTickSilence = 3s;      // the engine ticks at 10 Hz: 30 missed ticks
constexpr auto kAttachTimeout = 5s;    // for the first tick, and for the snapshot reply
constexpr auto kCommandTimeout = 5s;
constexpr int kTelemetryHighWaterMark = 50;  // 5 s of ticks: a console that falls behind drops, not lags
constexpr int kMaxMessagesPerTurn = 256;     // then the GUI's queued calls get their turn
// A snapshot holds up to 4096 ticks of every worker: far past the engine's 1 MiB request limit.
constexpr size_t kMaxReplyBytes = size_t{256} << 20;

QString describeSnapshot(const QString& endpoint, const wire::Snapshot& snapshot) {
    const wire::RecordingHeader& header = snapshot.header();
    const QString mode = QString::fromStdString(wire::SyncMode_Name(header.mode().mode())).toLower();
    return NetworkWorker::tr("attached to %1: %2, %3 workers, %4; %5 ticks and %6 events of history")
        .arg(endpoint, QString::fromStdString(header.spec().model()))
        .arg(header.expected_workers())
        .arg(mode)
        .arg(snapshot.ticks_size())
        .arg(snapshot.events_size());
}

}  // namespace

NetworkWorker::NetworkWorker(TelemetrySink& sink) : m_joiner(sink), m_pollTimer(this) {
    m_pollTimer.setInterval(0);
    connect(&m_pollTimer, &QTimer::timeout, this, &NetworkWorker::pollOnce);
}

void NetworkWorker::attach(const QString& controlEndpoint, const QString& telemetryEndpoint, const QString& credentials) {
    if (m_phase != Phase::Detached) close(tr("re-attaching to %1").arg(controlEndpoint));
    noteSocketUse();
    engine::EndpointSecurity security;  // none: a coordinator run with --insecure
    if (!credentials.isEmpty()) {
        auto loaded = engine::Credentials::load(credentials.toStdString());
        const auto role = loaded ? loaded->clientRole() : std::nullopt;
        if (!loaded || !role || *role == engine::Role::Worker) {
            close(loaded ? tr("%1 holds no steer or view keys; ask for a console's file (syncscope-engine keygen --role "
                              "steer or view)").arg(credentials)
                         : QString::fromStdString(loaded.status().message()));
            return;
        }
        security = engine::EndpointSecurity::client(&*loaded, *role);
    }
    try {
        if (!m_context) m_context.emplace(1);
        m_telemetry.emplace(*m_context, zmq::socket_type::sub);
        m_telemetry->set(zmq::sockopt::linger, 0);
        m_telemetry->set(zmq::sockopt::rcvhwm, kTelemetryHighWaterMark);
        m_telemetry->set(zmq::sockopt::subscribe, engine::kTickTopic);
        m_control.emplace(*m_context, zmq::socket_type::dealer);
        m_control->set(zmq::sockopt::linger, 0);
        m_control->set(zmq::sockopt::sndtimeo, 0);  // a full queue fails the command, never blocks this thread
        engine::applySecurity(*m_telemetry, security, false);
        engine::applySecurity(*m_control, security, false);
        m_telemetry->connect(telemetryEndpoint.toStdString());
        m_control->connect(controlEndpoint.toStdString());
    } catch (const zmq::error_t& e) {
        close(tr("cannot connect to %1 and %2: %3 (expected endpoints like tcp://HOST:PORT)")
                  .arg(controlEndpoint, telemetryEndpoint, QString::fromUtf8(e.what())));
        return;
    }
    m_controlEndpoint = controlEndpoint;
    m_telemetryEndpoint = telemetryEndpoint;
    m_joiner.waitForSnapshot();
    m_phase = Phase::AwaitingFirstTick;
    m_phaseSince = m_lastTickAt = Clock::now();
    m_pollTimer.start();
}

void NetworkWorker::detach() {
    if (m_phase != Phase::Detached) close(tr("detached from %1").arg(m_controlEndpoint));
}

void NetworkWorker::sendCommand(quint64 requestId, const QByteArray& serializedRequest) {
    wire::ControlRequest request;
    if (!request.ParseFromArray(serializedRequest.constData(), static_cast<int>(serializedRequest.size()))) {
        emit commandReplied(requestId, false, tr("the console built an unreadable request"), {});
        return;
    }
    if (m_phase == Phase::Detached) {
        emit commandReplied(requestId, false, tr("not attached to a coordinator"), {});
        return;
    }
    try {
        m_pending[send(request)] = {requestId, Clock::now()};
    } catch (const zmq::error_t& e) {
        emit commandReplied(requestId, false, tr("could not send to %1: %2").arg(m_controlEndpoint, QString::fromUtf8(e.what())), {});
    }
}

void NetworkWorker::shutdown() {
    if (m_phase != Phase::Detached) close(tr("the console is closing"));
    noteSocketUse();
    m_context.reset();
    thread()->quit();
}

void NetworkWorker::pollOnce() {
    if (m_phase == Phase::Detached) return;
    noteSocketUse();
    try {
        zmq::pollitem_t items[] = {{m_telemetry->handle(), 0, ZMQ_POLLIN, 0}, {m_control->handle(), 0, ZMQ_POLLIN, 0}};
        engine::pollSockets(items, 2, kPollTimeout);
        receiveTicks();
        if (m_phase != Phase::Detached) receiveReplies();
        if (m_phase != Phase::Detached) checkDeadlines();
    } catch (const zmq::error_t& e) {
        close(tr("network error on %1: %2").arg(m_controlEndpoint, QString::fromUtf8(e.what())));
    }
}

void NetworkWorker::receiveTicks() {
    for (int i = 0; i < kMaxMessagesPerTurn; ++i) {
        zmq::message_t topic;
        if (!m_telemetry->recv(topic, zmq::recv_flags::dontwait)) return;
        zmq::message_t body;
        size_t frames = 1;
        for (bool more = topic.more(); more; ++frames) {  // drain the whole message, keep frame 2
            zmq::message_t part;
            (void)m_telemetry->recv(part, zmq::recv_flags::none);
            more = part.more();
            if (frames == 1) body = std::move(part);
        }
        wire::Tick tick;
        if (frames != 2 || body.size() > engine::kMaxEnvelopeBytes ||
            !tick.ParseFromArray(body.data(), static_cast<int>(body.size()))) {
            ++m_malformed;
            continue;
        }
        onTick(std::move(tick));
    }
}

void NetworkWorker::receiveReplies() {
    const engine::ReceiveLimits limits{kMaxReplyBytes, 0};
    for (int i = 0; i < kMaxMessagesPerTurn && m_phase != Phase::Detached; ++i) {
        auto message = engine::receiveMessage(*m_control, false, limits);
        if (!message) return;
        if (!*message) {
            ++m_malformed;
            continue;
        }
        onReply(message->value().envelope);
    }
}

void NetworkWorker::checkDeadlines() {
    const auto now = Clock::now();
    if (m_phase == Phase::AwaitingFirstTick && now - m_phaseSince > kAttachTimeout) {
        close(tr("no telemetry from %1 within 5 s: is a coordinator running there?").arg(m_telemetryEndpoint));
        return;
    }
    if (m_phase == Phase::AwaitingSnapshot && now - m_phaseSince > kAttachTimeout) {
        close(tr("no snapshot reply from %1 within 5 s: is it the control endpoint of the coordinator at %2?")
                  .arg(m_controlEndpoint, m_telemetryEndpoint));
        return;
    }
    if (m_phase == Phase::Streaming && now - m_lastTickAt > kTickSilence) {
        m_phase = Phase::Lost;
        emit connectionLost(tr("no telemetry from %1 for 3 s: the coordinator stopped or the network is down; "
                               "waiting for it to come back").arg(m_telemetryEndpoint));
    }
    for (auto it = m_pending.begin(); it != m_pending.end();) {
        if (now - it->second.sentAt <= kCommandTimeout) {
            ++it;
            continue;
        }
        emit commandReplied(it->second.requestId, false, tr("no reply from %1 within 5 s").arg(m_controlEndpoint), {});
        it = m_pending.erase(it);
    }
}

void NetworkWorker::onTick(wire::Tick tick) {
    m_lastTickAt = Clock::now();
    const bool resync = m_phase == Phase::AwaitingFirstTick || m_phase == Phase::Lost;
    if (resync) m_joiner.waitForSnapshot();
    if (m_joiner.addTick(std::move(tick)) || resync) requestSnapshot();
}

void NetworkWorker::onReply(const wire::Envelope& envelope) {
    if (!envelope.has_control_reply() && !envelope.has_error()) {
        ++m_malformed;
        return;
    }
    if (m_phase == Phase::AwaitingSnapshot && envelope.correlation_id() == m_snapshotCorrelation) {
        onSnapshotReply(envelope);
        return;
    }
    const auto it = m_pending.find(envelope.correlation_id());
    if (it == m_pending.end()) return;  // a late reply: its request has already timed out
    const quint64 requestId = it->second.requestId;
    m_pending.erase(it);
    if (envelope.has_error()) {
        emit commandReplied(requestId, false, QString::fromStdString(envelope.error().message()), {});
        return;
    }
    const wire::ControlReply& reply = envelope.control_reply();
    const QByteArray event = reply.has_event() ? QByteArray::fromStdString(reply.event().SerializeAsString()) : QByteArray();
    emit commandReplied(requestId, reply.ok(), QString::fromStdString(reply.error()), event);
}

void NetworkWorker::onSnapshotReply(const wire::Envelope& envelope) {
    const std::string error = envelope.has_error() ? envelope.error().message() : envelope.control_reply().error();
    if (!error.empty() || !envelope.control_reply().ok()) {
        close(tr("the coordinator at %1 refused the snapshot request: %2").arg(m_controlEndpoint, QString::fromStdString(error)));
        return;
    }
    m_joiner.addSnapshot(envelope.control_reply().snapshot());
    m_phase = Phase::Streaming;
    emit attached(describeSnapshot(m_controlEndpoint, envelope.control_reply().snapshot()));
}

void NetworkWorker::requestSnapshot() {
    wire::ControlRequest request;
    request.set_snapshot(true);
    m_snapshotCorrelation = send(request);
    m_phase = Phase::AwaitingSnapshot;
    m_phaseSince = Clock::now();
}

uint64_t NetworkWorker::send(const wire::ControlRequest& request) {
    noteSocketUse();
    wire::Envelope envelope;
    envelope.set_correlation_id(++m_lastCorrelation);
    *envelope.mutable_control() = request;
    engine::sendMessage(*m_control, nullptr, envelope);
    return m_lastCorrelation;
}

void NetworkWorker::close(const QString& reason) {
    noteSocketUse();
    m_pollTimer.stop();
    m_telemetry.reset();
    m_control.reset();
    m_phase = Phase::Detached;
    for (const auto& [correlation, pending] : m_pending) emit commandReplied(pending.requestId, false, reason, {});
    m_pending.clear();
    emit detached(reason);
}

void NetworkWorker::noteSocketUse() {
    QThread* current = QThread::currentThread();
    QThread* first = nullptr;
    if (!m_socketThread.compare_exchange_strong(first, current) && first != current) m_socketThreadsMixed.store(true);
}

}  // namespace syncscope::ui
