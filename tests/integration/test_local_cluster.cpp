// `syncscope-engine run` stops every child it started: on Ctrl-C (SIGINT) cleanly, and when the
// parent itself is killed, through PR_SET_PDEATHSIG. Real processes; children found under /proc.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <signal.h>

namespace {

// Direct children of pid, from /proc/*/stat (field 4 is the parent pid).
QList<qint64> childrenOf(qint64 pid) {
    QList<qint64> children;
    for (const QString& entry : QDir("/proc").entryList(QDir::Dirs)) {
        bool numeric = false;
        const qint64 candidate = entry.toLongLong(&numeric);
        if (!numeric) continue;
        QFile stat("/proc/" + entry + "/stat");
        if (!stat.open(QIODevice::ReadOnly)) continue;
        const QString text = QString::fromUtf8(stat.readAll());
        const QStringList fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1].toLongLong() == pid) children << candidate;
    }
    return children;
}

// Alive and not a zombie.
bool running(qint64 pid) {
    QFile stat(QString("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) return false;
    const QString text = QString::fromUtf8(stat.readAll());
    return !text.mid(text.lastIndexOf(')') + 2).startsWith('Z');
}

bool allGoneWithin(const QList<qint64>& pids, int ms) {
    QDeadlineTimer deadline(ms);
    while (!deadline.hasExpired()) {
        if (std::none_of(pids.begin(), pids.end(), running)) return true;
        QTest::qWait(100);
    }
    return false;
}

QList<qint64> startRunAndWaitForChildren(QProcess& run) {
    run.start(SYNCSCOPE_ENGINE_BINARY, {"run", "--workers", "2", "--model", "mlp", "--max-seconds", "120", "--data",
                                        SYNCSCOPE_FASHION_MNIST_DIR});
    if (!run.waitForStarted()) return {};
    QDeadlineTimer deadline(20'000);
    QList<qint64> children;
    while (children.size() < 3 && !deadline.hasExpired()) {  // a coordinator and two workers
        QTest::qWait(200);
        children = childrenOf(run.processId());
    }
    QTest::qWait(2000);  // let training start
    return children;
}

}  // namespace

class TestLocalCluster : public QObject {
    Q_OBJECT
private slots:
    void ctrlCStopsEveryChild() {
        QProcess run;
        const QList<qint64> children = startRunAndWaitForChildren(run);
        QCOMPARE(children.size(), 3);
        ::kill(static_cast<pid_t>(run.processId()), SIGINT);
        QVERIFY2(run.waitForFinished(20'000), "run did not exit after Ctrl-C");
        QCOMPARE(run.exitCode(), 130);
        QVERIFY2(QString::fromUtf8(run.readAllStandardOutput()).contains("final test accuracy"),
                 "a stopped run still reports its final accuracy");
        QVERIFY(allGoneWithin(children, 5000));
    }

    void parentDeathKillsChildren() {
        QProcess run;
        const QList<qint64> children = startRunAndWaitForChildren(run);
        QCOMPARE(children.size(), 3);
        run.kill();  // SIGKILL: no chance to clean up, so the kernel's PDEATHSIG must
        run.waitForFinished();
        QVERIFY(allGoneWithin(children, 5000));
    }
};

QTEST_GUILESS_MAIN(TestLocalCluster)
#include "test_local_cluster.moc"
