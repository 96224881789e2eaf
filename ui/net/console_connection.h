// ConsoleConnection: the GUI thread's handle on the network thread. Every call is queued to the
// NetworkWorker, every answer comes back as a queued signal; this thread never touches ZeroMQ.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QThread>

#include "ui/model/telemetry_sink.h"

namespace syncscope::ui {

class NetworkWorker;

class ConsoleConnection : public QObject {
    Q_OBJECT
public:
    /// `sink` receives snapshots and ticks on the network thread; it must outlive this object.
    explicit ConsoleConnection(TelemetrySink& sink, QObject* parent = nullptr);
    /// Detaches, closes the sockets on their thread and waits for the thread to end.
    ~ConsoleConnection() override;
    ConsoleConnection(const ConsoleConnection&) = delete;
    ConsoleConnection& operator=(const ConsoleConnection&) = delete;

    /// Ends in attached() (snapshot delivered, ticks streaming) or detached(reason). `credentials`:
    /// a credentials file holding a steer or view key pair; empty: no authentication (a coordinator
    /// run with --insecure).
    void attach(const QString& controlEndpoint, const QString& telemetryEndpoint, const QString& credentials = {});
    void detach();
    /// Returns the id that commandReplied() will carry for this request.
    quint64 sendCommand(const wire::ControlRequest& request);

    /// Frames from the engine that could not be read (counted and ignored).
    quint64 malformedMessages() const;
    /// The one thread that has touched a socket (nullptr: none yet, or more than one — a bug).
    QThread* socketThread() const;

signals:
    void attached(const QString& description);
    void detached(const QString& reason);
    /// `serializedEvent` is the wire::Event the command caused (control_requests.h reads it).
    void commandReplied(quint64 requestId, bool ok, const QString& error, const QByteArray& serializedEvent);
    void connectionLost(const QString& reason);

private:
    QThread m_thread;
    NetworkWorker* m_worker;  // lives on m_thread; deleted there when the thread finishes
    quint64 m_lastRequestId = 0;
};

}  // namespace syncscope::ui
