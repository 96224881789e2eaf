// launch --hosts: the hosts file's lines (HOST [WORKERS], comments, blank lines), every mistake named
// by file:line with what to write, and the ssh commands built from it quoted for a POSIX shell.
#include <QtTest>

#include <cstdio>
#include <string>

#include "engine/cli/hosts_file.h"
#include "engine/cli/ssh_commands.h"

using namespace syncscope::engine;

class TestHostsFile : public QObject {
    Q_OBJECT
private slots:
    void readsHostsCountsAndComments() {
        auto hosts = parseHostsFile("# the lab\n\nnode1 4\n  node2   # one worker\nroot@10.0.0.7\t2\n", "lab.hosts");
        QVERIFY2(hosts, hosts ? "" : hosts.status().message().c_str());
        QCOMPARE(hosts->size(), size_t(3));
        QCOMPARE(QString::fromStdString((*hosts)[0].host), QString("node1"));
        QCOMPARE((*hosts)[0].workers, 4u);
        QCOMPARE((*hosts)[0].line, 3u);
        QCOMPARE(QString::fromStdString((*hosts)[1].host), QString("node2"));
        QCOMPARE((*hosts)[1].workers, 1u);
        QCOMPARE(QString::fromStdString((*hosts)[2].host), QString("root@10.0.0.7"));
        QCOMPARE((*hosts)[2].workers, 2u);
        QCOMPARE(totalWorkers(*hosts), 7u);
    }

    void mistakesNameTheLineAndTheFix_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << "" << "lab.hosts lists no hosts; write one host per line as HOST [WORKERS]";
        QTest::newRow("comments only") << "# node1 4\n\n" << "lab.hosts lists no hosts";
        QTest::newRow("zero workers") << "node1 2\nnode2 0\n" << "lab.hosts:2: 0 workers for node2; give 1 or more";
        QTest::newRow("not a count") << "node1 four\n" << "lab.hosts:1: 'four' is not a worker count for node1";
        QTest::newRow("negative") << "node1 -2\n" << "lab.hosts:1: '-2' is not a worker count";
        QTest::newRow("too many fields") << "node1 2 gpu\n" << "lab.hosts:1: 'node1' has 3 fields; write one host";
        QTest::newRow("an ssh option") << "-oProxyCommand=evil 1\n" << "lab.hosts:1: '-oProxyCommand=evil' is not a host";
        QTest::newRow("twice") << "node1 2\n\nnode1 1\n" << "lab.hosts:3: node1 is listed again (first on line 1)";
        QTest::newRow("huge") << "node1 99999999999\n" << "lab.hosts:1: 99999999999 workers for node1 is more than";
    }
    void mistakesNameTheLineAndTheFix() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        auto hosts = parseHostsFile(text.toStdString(), "lab.hosts");
        QVERIFY(!hosts);
        const QString message = QString::fromStdString(hosts.status().message());
        QVERIFY2(message.startsWith(expected), qPrintable(message));
    }

    void aMissingFileIsNamed() {
        auto hosts = readHostsFile("/nonexistent/lab.hosts");
        QVERIFY(!hosts);
        QVERIFY2(QString::fromStdString(hosts.status().message())
                     .startsWith("cannot read the hosts file /nonexistent/lab.hosts (No such file or directory)"),
                 hosts.status().message().c_str());
    }

    void readsAFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath("cluster.hosts");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("gpu01 8\ngpu02 8\n");
        file.close();
        auto hosts = readHostsFile(path.toStdString());
        QVERIFY2(hosts, hosts ? "" : hosts.status().message().c_str());
        QCOMPARE(totalWorkers(*hosts), 16u);
    }

    // What reaches the remote shell is exactly the words given, whatever they hold.
    void shellQuotingSurvivesAShell() {
        const std::string tricky = "it's a $HOME `x` \"y\" \\ ;&|";
        const std::string command = "printf %s " + shellQuote(tricky);
        FILE* shell = popen(command.c_str(), "r");
        QVERIFY(shell);
        char buffer[256] = {};
        const size_t n = fread(buffer, 1, sizeof buffer - 1, shell);
        pclose(shell);
        QCOMPARE(QString::fromStdString(std::string(buffer, n)), QString::fromStdString(tricky));
    }

    // The remote script starts the host's count of workers, each with the host's credentials copy.
    void startsEachHostsWorkersUnderSh() {
        const std::string script = startWorkersCommand({"/opt/syncscope-engine", "work", "--connect", "tcp://a:5555",
                                                        "--credentials", "/tmp/x y"}, 3, "/tmp/x y");
        QVERIFY2(script.rfind("exec sh -c '", 0) == 0, script.c_str());
        // Run it here with `echo` standing in for the engine: three lines, each with every argument.
        std::string local = startWorkersCommand({"echo", "work", "--credentials", "/tmp/x y"}, 3, "/nonexistent/c");
        FILE* shell = popen(local.c_str(), "r");
        QVERIFY(shell);
        char buffer[512] = {};
        const size_t n = fread(buffer, 1, sizeof buffer - 1, shell);
        QCOMPARE(pclose(shell), 0);
        QCOMPARE(QString::fromStdString(std::string(buffer, n)), QString("work --credentials /tmp/x y\n").repeated(3));
    }

    void sshArgumentsNeverAskAndEndOptions() {
        const auto args = sshArguments("node3", true, "true");
        const QStringList list = [&] {
            QStringList l;
            for (const auto& a : args) l << QString::fromStdString(a);
            return l;
        }();
        QVERIFY(list.contains("BatchMode=yes"));
        QVERIFY(list.contains("-tt"));
        QCOMPARE(list.mid(list.size() - 3), QStringList({"--", "node3", "true"}));
        QCOMPARE(splitCommand("  ssh -F  my.conf "), (std::vector<std::string>{"ssh", "-F", "my.conf"}));
    }

    void sshFailuresQuoteSshAndSayWhatToCheck() {
        const std::string message = sshFailure("node3", "Warning: something\r\nroot@node3: Permission denied (publickey).\r\n");
        QVERIFY2(QString::fromStdString(message).startsWith(
                     "ssh to node3 failed: root@node3: Permission denied (publickey); check that "
                     "`ssh -o BatchMode=yes node3 true` works"),
                 message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestHostsFile)
#include "test_hosts_file.moc"
