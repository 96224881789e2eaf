// ConsoleConnection (see console_connection.h): owns the network thread and forwards to its worker.
#include "ui/net/console_connection.h"

#include "ui/net/network_worker.h"

namespace syncscope::ui {

ConsoleConnection::ConsoleConnection(TelemetrySink& sink, QObject* parent)
    : QObject(parent), m_worker(new NetworkWorker(sink)) {
    m_thread.setObjectName(QStringLiteral("syncscope-network"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &NetworkWorker::attached, this, &ConsoleConnection::attached);
    connect(m_worker, &NetworkWorker::detached, this, &ConsoleConnection::detached);
    connect(m_worker, &NetworkWorker::commandReplied, this, &ConsoleConnection::commandReplied);
    connect(m_worker, &NetworkWorker::connectionLost, this, &ConsoleConnection::connectionLost);
    m_thread.start();
}

ConsoleConnection::~ConsoleConnection() {
    QMetaObject::invokeMethod(m_worker, &NetworkWorker::shutdown, Qt::QueuedConnection);
    m_thread.wait();
}

void ConsoleConnection::attach(const QString& controlEndpoint, const QString& telemetryEndpoint,
                               const QString& credentials) {
    NetworkWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker,
        [worker, controlEndpoint, telemetryEndpoint, credentials] {
            worker->attach(controlEndpoint, telemetryEndpoint, credentials);
        },
        Qt::QueuedConnection);
}

void ConsoleConnection::detach() {
    QMetaObject::invokeMethod(m_worker, &NetworkWorker::detach, Qt::QueuedConnection);
}

quint64 ConsoleConnection::sendCommand(const wire::ControlRequest& request) {
    const quint64 requestId = ++m_lastRequestId;
    const QByteArray bytes = QByteArray::fromStdString(request.SerializeAsString());
    NetworkWorker* worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker, requestId, bytes] { worker->sendCommand(requestId, bytes); },
                              Qt::QueuedConnection);
    return requestId;
}

quint64 ConsoleConnection::malformedMessages() const { return m_worker->malformedMessages(); }

QThread* ConsoleConnection::socketThread() const { return m_worker->socketThread(); }

}  // namespace syncscope::ui
