// launch --hosts over real ssh. Two hosts, each a network namespace of its own (NetworkLab) running
// a real OpenSSH sshd on its veth address, with a throwaway host key and a throwaway client key in
// a temporary folder (the system's sshd and ~/.ssh are never touched). `launch` runs here and binds
// the coordinator to this namespace's veth address, not loopback, with credentials it makes for the
// run. It copies the worker keys to each host over ssh and starts 1 + 2 workers there, and they
// train the mlp to 85%. Afterwards nothing of the run is left in either namespace, and no
// credentials remain on the hosts or here. A second run is interrupted by SIGINT (Ctrl-C)
// mid-training, and a third is killed (SIGKILL), and the same checks hold. ssh failures name the host. Exits 77 (ctest's skip),
// saying why, without root, ip netns, sshd or ssh.
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <memory>
#include <vector>

#include "cluster_fixture.h"
#include "network_lab.h"

using namespace syncscope::testing;

namespace {

constexpr int kHosts = 2;
const char* const kSshd = "/usr/sbin/sshd";  // sshd re-executes itself: it must be started by its absolute path

// What keeps this test from running here; empty when nothing does.
QString whyNotHere() {
    if (::geteuid() != 0) return "network namespaces need root (ip netns); run this test as root";
    if (!QFileInfo(kSshd).isExecutable())
        return QString(kSshd) + " not found (Debian: apt-get install openssh-server; ./setup.sh test installs it)";
    for (const char* tool : {"ssh", "ssh-keygen"})
        if (QStandardPaths::findExecutable(tool).isEmpty())
            return QString(tool) + " not found (Debian: apt-get install openssh-client)";
    NetworkLab probe(1, {200, false});
    if (!probe.ready()) return "cannot make network namespaces here: " + probe.error();
    return {};
}

bool run(const QString& program, const QStringList& args, QString* output = nullptr) {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, args);
    const bool ok = process.waitForFinished(20'000) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    if (output) *output = QString::fromUtf8(process.readAll());
    return ok;
}

bool writeFile(const QString& path, const QString& text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text.toUtf8()) == text.toUtf8().size();
}

/// The hosts: namespace k is host "labK", whose sshd listens on 10.200.k.2; this namespace holds
/// 10.200.k.1 for each, and the coordinator binds 10.200.0.1.
class SshLab {
public:
    SshLab() : m_lab(kHosts, {200, true}) {
        m_error = setUp();
        m_ready = m_error.isEmpty();
    }
    ~SshLab() {
        for (auto& sshd : m_sshd) {
            sshd->terminate();
            if (!sshd->waitForFinished(5000)) sshd->kill(), sshd->waitForFinished(5000);
        }
        if (m_madeRunSshd) ::rmdir("/run/sshd");
    }
    bool ready() const { return m_ready; }
    const QString& error() const { return m_error; }
    QString dir() const { return m_dir.path(); }
    std::string coordinatorAddress() const { return m_lab.address(0, 1); }
    QString sshdLog(int k) const {
        QFile log(QString("%1/sshd%2.log").arg(dir()).arg(k));
        return log.open(QIODevice::ReadOnly) ? QString::fromUtf8(log.readAll()) : QString();
    }
    /// The processes in the hosts' namespaces other than their sshd listeners (none once a run is
    /// over), waiting up to `timeoutMs` for sshd's session processes to go.
    QStringList leftovers(int timeoutMs = 10'000) const {
        QDeadlineTimer deadline(timeoutMs);
        for (;;) {
            QStringList left;
            for (int k = 0; k < kHosts; ++k) {
                QString pids;
                run("ip", {"netns", "pids", m_lab.name(k)}, &pids);
                for (const QString& pid : pids.split('\n', Qt::SkipEmptyParts))
                    if (pid.trimmed().toLongLong() != m_sshd.at(size_t(k))->processId()) left << describe(pid.trimmed(), k);
            }
            if (left.isEmpty() || deadline.hasExpired()) return left;
            QThread::msleep(200);
        }
    }

private:
    // Keys, configs and an sshd in each namespace, until each answers a login; the error, or none.
    QString setUp() {
        if (!m_lab.ready()) return m_lab.error();
        const QString dir = m_dir.path();
        ::chmod(dir.toUtf8().constData(), 0700);
        QString out;
        if (!run("ssh-keygen", {"-q", "-t", "ed25519", "-N", "", "-f", dir + "/client_key"}, &out) ||
            !QFile::copy(dir + "/client_key.pub", dir + "/authorized_keys"))
            return "ssh-keygen: " + out;
        m_madeRunSshd = !QFileInfo::exists("/run/sshd");  // sshd's privilege separation folder
        if (m_madeRunSshd && ::mkdir("/run/sshd", 0755) != 0) return "cannot make /run/sshd";
        QString knownHosts, clientConfig;
        for (int k = 0; k < kHosts; ++k) {
            const QString key = QString("%1/host_key%2").arg(dir).arg(k), address = QString::fromStdString(m_lab.address(k, 2));
            if (!run("ssh-keygen", {"-q", "-t", "ed25519", "-N", "", "-f", key}, &out)) return "ssh-keygen: " + out;
            QFile pub(key + ".pub");
            if (!pub.open(QIODevice::ReadOnly)) return "no " + key + ".pub";
            knownHosts += address + " " + QString::fromUtf8(pub.readAll()).section(' ', 0, 1) + "\n";
            clientConfig += QString("Host lab%1\n  HostName %2\nHost lab%1-closed\n  HostName %2\n  Port 2222\n").arg(k).arg(address);
            const QString config = QString("%1/sshd_config%2").arg(dir).arg(k);
            writeFile(config, QString("ListenAddress %1\nHostKey %2\nAuthorizedKeysFile %3/authorized_keys\n"
                                      "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                                      "PermitRootLogin prohibit-password\nUsePAM no\nStrictModes no\nPidFile none\n"
                                      "UseDNS no\nPrintMotd no\n").arg(address, key, dir));
            auto sshd = std::make_unique<QProcess>();
            sshd->setStandardOutputFile(QString("%1/sshd%2.log").arg(dir).arg(k));
            sshd->setProcessChannelMode(QProcess::MergedChannels);
            sshd->start(m_lab.launcher(k).first(), m_lab.launcher(k).mid(1) + QStringList{kSshd, "-D", "-e", "-f", config});
            if (!sshd->waitForStarted()) return "cannot start sshd in " + m_lab.name(k);
            m_sshd.push_back(std::move(sshd));
        }
        const QString common = QString("Host *\n  User root\n  IdentityFile %1/client_key\n  IdentitiesOnly yes\n"
                                       "  UserKnownHostsFile %1/known_hosts\n  GlobalKnownHostsFile /dev/null\n"
                                       "  StrictHostKeyChecking yes\n").arg(dir);
        writeFile(dir + "/known_hosts", knownHosts);
        writeFile(dir + "/ssh_config", clientConfig + common);
        writeFile(dir + "/ssh_config_nokey", clientConfig + QString(common).replace("client_key", "no_such_key"));
        for (int k = 0; k < kHosts; ++k) {  // until each sshd answers: a login that runs `true`
            QDeadlineTimer deadline(15'000);
            while (!run("ssh", {"-F", dir + "/ssh_config", "-o", "BatchMode=yes", QString("lab%1").arg(k), "true"}, &out))
                if (deadline.hasExpired()) return QString("no ssh login to lab%1: %2\n%3").arg(k).arg(out, sshdLog(k));
                else QThread::msleep(200);
        }
        return {};
    }
    static QString describe(const QString& pid, int k) {
        QFile cmdline("/proc/" + pid + "/cmdline");
        const QString args = cmdline.open(QIODevice::ReadOnly) ? QString::fromUtf8(cmdline.readAll()).replace(QChar(0), ' ') : "?";
        return QString("lab%1 pid %2: %3").arg(k).arg(pid, args.trimmed());
    }

    NetworkLab m_lab;
    QTemporaryDir m_dir;
    std::vector<std::unique_ptr<QProcess>> m_sshd;
    bool m_ready = false, m_madeRunSshd = false;
    QString m_error;
};

// The paths `launch` says it stored the worker credentials at on each host.
QStringList credentialsCopies(const QString& launchLog) {
    QStringList paths;
    auto it = QRegularExpression("^lab\\d: worker credentials in (\\S+) ", QRegularExpression::MultilineOption).globalMatch(launchLog);
    while (it.hasNext()) paths << it.next().captured(1);
    return paths;
}

}  // namespace

class TestSshLaunch : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY2(m_lab.ready(), qPrintable(m_lab.error())); }

    // 1 + 2 workers on two hosts, the coordinator here on 10.200.0.1 with credentials made for the
    // run: the mlp to 85%, then nothing left anywhere.
    void trainsOnTwoHostsAndLeavesNothing() {
        writeFile(m_lab.dir() + "/lab.hosts", "# two hosts in namespaces of their own\nlab0      # 1 worker\nlab1 2\n");
        QElapsedTimer clock;
        clock.start();
        // The target is above 85: the closing evaluation is of the model a few rounds after the one that met it.
        auto launch = startLaunch({"--mode", "bsp", "--target-accuracy", "87", "--max-seconds", "240"});
        QVERIFY2(launch->waitForExit(280'000), qPrintable("the run did not end\n" + logs(*launch)));
        const double seconds = clock.elapsed() / 1000.0;
        QCOMPARE(launch->exitCode(), 0);
        const QString out = launch->stdoutText(), err = launch->stderrText();
        const QString bind = QString::fromStdString(m_lab.coordinatorAddress());
        QVERIFY2(out.contains(QRegularExpression("^hosts: coordinator here, on " + QRegularExpression::escape(bind) +
                                                 "; 3 workers on 2 hosts \\(lab0 1, lab1 2\\) connect to tcp://" +
                                                 QRegularExpression::escape(bind) + ":\\d+$", QRegularExpression::MultilineOption)),
                 qPrintable(logs(*launch)));
        const auto attach = QRegularExpression("^attach a console: syncscope --attach tcp://" + QRegularExpression::escape(bind) +
                                               ":\\d+ --credentials (\\S+/syncscope-launch-\\d+\\.credentials) ",
                                               QRegularExpression::MultilineOption).match(out);
        QVERIFY2(attach.hasMatch(), qPrintable(logs(*launch)));
        QVERIFY2(!QFileInfo::exists(attach.captured(1)), "the run's own credentials outlived it");
        QVERIFY2(err.contains("training started with 3 workers"), qPrintable(logs(*launch)));
        QCOMPARE(err.count(QRegularExpression("^lab\\d: worker \\d: the run is over", QRegularExpression::MultilineOption)), 3);
        const auto final = QRegularExpression("^final test accuracy: ([0-9.]+)%", QRegularExpression::MultilineOption).match(out);
        QVERIFY2(final.hasMatch(), qPrintable(logs(*launch)));
        QVERIFY2(final.captured(1).toDouble() >= 85.0, qPrintable(logs(*launch)));
        const QStringList copies = credentialsCopies(err);
        QCOMPARE(copies.size(), kHosts);
        for (const QString& copy : copies) QVERIFY2(!QFileInfo::exists(copy), qPrintable(copy + " is still on its host"));
        const QStringList left = m_lab.leftovers();
        QVERIFY2(left.isEmpty(), qPrintable("left behind:\n" + left.join('\n')));
        qInfo("final test accuracy %s%% in %.1f s from launch to its end; nothing left in the hosts' namespaces, "
              "credentials removed here and on both hosts", qPrintable(final.captured(1)), seconds);
    }

    // SIGINT (Ctrl-C) mid-training: the coordinator stops gracefully, the workers end, nothing is left.
    void anInterruptLeavesNothing() {
        auto launch = startTrainingForLong();
        QVERIFY2(launch->stderrText().contains("training started with 3 workers"), qPrintable(logs(*launch)));
        QThread::sleep(2);
        QVERIFY2(m_lab.leftovers(0).size() >= 3, "the workers are not running in the hosts' namespaces");
        QElapsedTimer clock;
        clock.start();
        ::kill(pid_t(launch->pid()), SIGINT);
        QVERIFY2(launch->waitForExit(60'000), qPrintable("launch did not stop after SIGINT\n" + logs(*launch)));
        const double seconds = clock.elapsed() / 1000.0;
        QCOMPARE(launch->exitCode(), 0);
        QVERIFY2(launch->stdoutText().contains("final test accuracy: "), qPrintable(logs(*launch)));
        for (const QString& copy : credentialsCopies(launch->stderrText()))
            QVERIFY2(!QFileInfo::exists(copy), qPrintable(copy + " is still on its host"));
        const QStringList left = m_lab.leftovers();
        QVERIFY2(left.isEmpty(), qPrintable("left behind:\n" + left.join('\n')));
        qInfo("SIGINT: launch ended %.1f s later; nothing left in the hosts' namespaces", seconds);
    }

    // launch killed outright (SIGKILL: no cleanup of its own): its ssh sessions die with it, each
    // remote terminal hangs up, and the hosts' scripts stop their workers and remove their keys.
    void aKilledLaunchLeavesNoWorker() {
        auto launch = startTrainingForLong();
        QVERIFY2(launch->stderrText().contains("training started with 3 workers"), qPrintable(logs(*launch)));
        launch->kill();
        const QStringList left = m_lab.leftovers();
        QVERIFY2(left.isEmpty(), qPrintable("left behind:\n" + left.join('\n')));
        for (const QString& copy : credentialsCopies(launch->stderrText()))
            QVERIFY2(!QFileInfo::exists(copy), qPrintable(copy + " is still on its host"));
        for (const QString& own : QDir(m_lab.dir()).entryList({"syncscope-launch-*.credentials"}))
            QFile::remove(m_lab.dir() + "/" + own);  // the run's own file: a killed launch cannot remove it
    }

    // ssh cannot log in, or cannot reach a host: an error naming that host, nothing started, and the
    // copy already made on the host before it removed again.
    void sshFailuresNameTheHost() {
        writeFile(m_lab.dir() + "/lab.hosts", "lab0 1\nlab1 1\n");
        auto denied = startLaunch({"--max-seconds", "60"}, "ssh_config_nokey");
        QVERIFY(denied->waitForExit(60'000));
        QCOMPARE(denied->exitCode(), 2);
        QVERIFY2(denied->stderrText().contains("error: ssh to lab0 failed: root@10.200.0.2: Permission denied (publickey); "
                                               "check that `ssh -o BatchMode=yes lab0 true` works"),
                 qPrintable(logs(*denied)));
        QVERIFY(!denied->stdoutText().contains("attach a console"));

        writeFile(m_lab.dir() + "/lab.hosts", "lab0 1\nlab1-closed 1\n");
        auto closed = startLaunch({"--max-seconds", "60"});
        QVERIFY(closed->waitForExit(60'000));
        QCOMPARE(closed->exitCode(), 2);
        QVERIFY2(closed->stderrText().contains("error: ssh to lab1-closed failed: ssh: connect to host 10.200.1.2 port 2222: "
                                               "Connection refused"),
                 qPrintable(logs(*closed)));
        const QStringList copies = credentialsCopies(closed->stderrText());
        QCOMPARE(copies.size(), 1);  // lab0's, made before lab1 failed
        QVERIFY2(!QFileInfo::exists(copies.front()), "the copy on lab0 was not removed");
        QVERIFY(m_lab.leftovers().isEmpty());
    }

private:
    std::unique_ptr<EngineChild> startLaunch(const QStringList& runFlags, const QString& sshConfig = "ssh_config") {
        static int runs = 0;
        QDir::setCurrent(m_lab.dir());  // launch makes the run's credentials in its working folder
        return std::make_unique<EngineChild>(
            m_lab.dir(), QString("launch%1").arg(runs++),
            QStringList{"launch", "--hosts", m_lab.dir() + "/lab.hosts", "--ssh", "ssh -F " + m_lab.dir() + "/" + sshConfig,
                        "--bind", QString::fromStdString(m_lab.coordinatorAddress()), "--data-port", "0",
                        "--control-port", "0", "--telemetry-port", "0", "--data", SYNCSCOPE_FASHION_MNIST_DIR,
                        "--model", "mlp", "--batch", "128", "--eval-interval", "2", "--backend", "cpu"} +
                runFlags);
    }
    // 1 + 2 workers on lab0 and lab1 in a long asp run, returned once training started (or after 2 min).
    std::unique_ptr<EngineChild> startTrainingForLong() {
        writeFile(m_lab.dir() + "/lab.hosts", "lab0 1\nlab1 2\n");
        auto launch = startLaunch({"--mode", "asp", "--max-seconds", "300"});
        QDeadlineTimer deadline(120'000);
        while (!launch->stderrText().contains("training started with 3 workers") && !deadline.hasExpired() && launch->running())
            QThread::msleep(200);
        return launch;
    }
    static QString logs(EngineChild& launch) {
        return "--- stdout:\n" + launch.stdoutText() + "--- stderr:\n" + launch.stderrText();
    }

    SshLab m_lab;
};

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (const QString reason = whyNotHere(); !reason.isEmpty()) {
        std::printf("SKIP: %s\n", qPrintable(reason));
        return 77;
    }
    TestSshLaunch test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_ssh_launch.moc"
