// QuitOnSignal: SIGTERM, SIGINT and SIGHUP close the console as File → Quit does, its local cluster
// stopped and its recording finished, instead of ending the process where it stands (Ctrl-C in the
// terminal that started it, a session logging out, `kill`). The handler only writes a byte to a
// socket pair; the Qt event loop reads it (the usual self-pipe: nothing else is safe in a handler).
#pragma once

#include <QObject>

#include <functional>

class QSocketNotifier;

class QuitOnSignal : public QObject {
    Q_OBJECT
public:
    /// Installs the handlers; `quit` runs on the GUI thread, once per signal.
    explicit QuitOnSignal(std::function<void()> quit, QObject* parent = nullptr);
    ~QuitOnSignal() override;

private:
    std::function<void()> m_quit;
    QSocketNotifier* m_notifier = nullptr;
};
