// NetworkWorker: the console's network thread. It owns the ZeroMQ context and both sockets
// (telemetry SUB, control DEALER); they are created, used and closed on its thread only.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTimer>
#include <zmq.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "ui/net/snapshot_joiner.h"

namespace syncscope::ui {

/// Attach: connect both sockets, wait for the first tick (the subscription is live from then on),
/// request a snapshot, hand it to the sink, then stream the ticks newer than it. After ~3 s without
/// a tick it reports connectionLost and, when ticks come back, resynchronises with a new snapshot.
class NetworkWorker : public QObject {
    Q_OBJECT
public:
    explicit NetworkWorker(TelemetrySink& sink);

    /// Frames from the engine that could not be read, counted and ignored. Any thread may ask.
    quint64 malformedMessages() const { return m_malformed.load(); }
    /// The one thread that has touched a socket; nullptr if none has, or if more than one has.
    QThread* socketThread() const { return m_socketThreadsMixed.load() ? nullptr : m_socketThread.load(); }

public slots:
    void attach(const QString& controlEndpoint, const QString& telemetryEndpoint, const QString& credentials = {});
    void detach();
    /// `serializedRequest` is a wire::ControlRequest; its reply comes back as commandReplied(requestId, ...).
    void sendCommand(quint64 requestId, const QByteArray& serializedRequest);
    /// The poison pill: closes the sockets and the context, then ends this thread's event loop.
    void shutdown();

signals:
    void attached(const QString& description);
    /// The connection ended (detach, a failed attach, a refused snapshot); `reason` is for people.
    void detached(const QString& reason);
    /// `serializedEvent` is the wire::Event the command caused; empty when it failed.
    void commandReplied(quint64 requestId, bool ok, const QString& error, const QByteArray& serializedEvent);
    void connectionLost(const QString& reason);

private:
    enum class Phase { Detached, AwaitingFirstTick, AwaitingSnapshot, Streaming, Lost };
    using Clock = std::chrono::steady_clock;
    struct PendingCommand {
        quint64 requestId;
        Clock::time_point sentAt;
    };

    void pollOnce();
    void receiveTicks();
    void receiveReplies();
    void checkDeadlines();
    void onTick(wire::Tick tick);
    void onReply(const wire::Envelope& envelope);
    void onSnapshotReply(const wire::Envelope& envelope);
    void requestSnapshot();
    uint64_t send(const wire::ControlRequest& request);
    void close(const QString& reason);
    void noteSocketUse();

    SnapshotJoiner m_joiner;
    QTimer m_pollTimer;
    // The context is declared before the sockets, so they close before it terminates.
    std::optional<zmq::context_t> m_context;
    std::optional<zmq::socket_t> m_telemetry;
    std::optional<zmq::socket_t> m_control;
    QString m_controlEndpoint;
    QString m_telemetryEndpoint;
    Phase m_phase = Phase::Detached;
    Clock::time_point m_phaseSince;
    Clock::time_point m_lastTickAt;
    uint64_t m_lastCorrelation = 0;
    uint64_t m_snapshotCorrelation = 0;
    std::unordered_map<uint64_t, PendingCommand> m_pending;  // by correlation id
    std::atomic<quint64> m_malformed{0};
    std::atomic<QThread*> m_socketThread{nullptr};
    std::atomic<bool> m_socketThreadsMixed{false};
};

}  // namespace syncscope::ui
