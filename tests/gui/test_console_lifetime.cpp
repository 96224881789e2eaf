// The console's local cluster never outlives a console that dies: the real `syncscope --local 2`
// (offscreen) starts its coordinator and workers through the engine's launcher; after SIGKILL to
// the console, no engine process of it is left within 3 s. (A clean close that stops them without
// blocking the window: test_main_window.)
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>

#include "process_tree.h"

using syncscope::test::alive;
using syncscope::test::engineChildren;

class TestConsoleLifetime : public QObject {
    Q_OBJECT
private slots:
    void killedConsoleLeavesNoEngineBehind();
};

void TestConsoleLifetime::killedConsoleLeavesNoEngineBehind() {
    QProcess console;
    console.setProcessChannelMode(QProcess::ForwardedChannels);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // A killed console cannot remove its cluster's credentials and checkpoints: they go with this folder.
    QTemporaryDir leftovers;
    env.insert(QStringLiteral("TMPDIR"), leftovers.path());
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), leftovers.path());
    console.setProcessEnvironment(env);
    console.start(QStringLiteral(SYNCSCOPE_CONSOLE_BINARY),
                  {QStringLiteral("--local"), QStringLiteral("2"), QStringLiteral("--engine"),
                   QStringLiteral(SYNCSCOPE_ENGINE_BINARY)});
    QVERIFY(console.waitForStarted(10'000));
    QList<qint64> engines;
    QElapsedTimer waited;
    waited.start();
    while (engines.size() < 3 && waited.elapsed() < 60'000) {  // the coordinator, then its two workers
        QTest::qWait(200);
        engines = engineChildren(console.processId());
    }
    QCOMPARE(engines.size(), 3);

    QVERIFY(::kill(pid_t(console.processId()), SIGKILL) == 0);
    QVERIFY(console.waitForFinished(5000));
    QElapsedTimer gone;
    gone.start();
    for (qint64 pid : engines) {
        while (alive(pid) && gone.elapsed() < 3000) QTest::qWait(20);
        QVERIFY2(!alive(pid), qPrintable(QStringLiteral("engine process %1 outlived the console").arg(pid)));
    }
    qInfo("all %lld engine processes gone %lld ms after the console was killed", qlonglong(engines.size()),
          qlonglong(gone.elapsed()));
}

QTEST_GUILESS_MAIN(TestConsoleLifetime)
#include "test_console_lifetime.moc"
