// `syncscope-engine` refuses bad flags, unknown names, impossible values and missing data with a
// clear message and a non-zero exit, before doing any work.
#include <QTemporaryDir>
#include <QTest>

#include "engine_process.h"

class TestCliErrors : public QObject {
    Q_OBJECT
private slots:
    void rejected_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");  // a piece of the message the user must see
        QTest::newRow("no subcommand") << QStringList{} << "subcommand";
        QTest::newRow("unknown flag") << QStringList{"train", "--bogus"} << "--bogus";
        QTest::newRow("unknown model") << QStringList{"train", "--model", "resnet"} << "resnet";
        QTest::newRow("zero batch") << QStringList{"train", "--batch", "0"} << "--batch must be greater than 0";
        QTest::newRow("negative lr") << QStringList{"train", "--lr", "-0.1"} << "--lr must be greater than 0";
        QTest::newRow("zero epochs") << QStringList{"train", "--epochs", "0"} << "--epochs must be greater than 0";
        QTest::newRow("momentum 1") << QStringList{"train", "--momentum", "1"} << "--momentum must be in";
        QTest::newRow("batch not a number") << QStringList{"train", "--batch", "lots"} << "--batch";
        QTest::newRow("unknown backend") << QStringList{"train", "--backend", "tpu"} << "tpu";
        QTest::newRow("bad slowdown") << QStringList{"run", "--slowdown", "0:0.5"} << "--slowdown '0:0.5'";
        QTest::newRow("slowdown probability") << QStringList{"run", "--slowdown", "1:1:0:2:5"} << "transient probability 2 must be from 0 to 1";
        QTest::newRow("unknown mode") << QStringList{"run", "--mode", "gossip"} << "gossip";
        QTest::newRow("until stopped and epochs") << QStringList{"serve", "--until-stopped", "--epochs", "2"}
                                                  << "--until-stopped and a stop condition";
        QTest::newRow("serve port") << QStringList{"serve", "--data-port", "70000"} << "--data-port";
        QTest::newRow("work without connect") << QStringList{"work"} << "--connect";
        QTest::newRow("aggregate without connect") << QStringList{"aggregate"} << "--connect";
        QTest::newRow("aggregate insecure off loopback")
            << QStringList{"aggregate", "--connect", "tcp://127.0.0.1:1", "--insecure", "--bind", "0.0.0.0"} << "0.0.0.0";
        QTest::newRow("aggregate without credentials")
            << QStringList{"aggregate", "--connect", "tcp://127.0.0.1:1", "--credentials", "/nonexistent/credentials"}
            << "/nonexistent/credentials";
        QTest::newRow("more aggregators than workers") << QStringList{"run", "--workers", "2", "--aggregators", "3"}
                                                       << "--aggregators 3 is more than the 2 workers";
        QTest::newRow("shard without connect") << QStringList{"shard"} << "--connect";
        QTest::newRow("shard without credentials")
            << QStringList{"shard", "--connect", "tcp://127.0.0.1:1", "--credentials", "/nonexistent/credentials"}
            << "/nonexistent/credentials";
        QTest::newRow("too many shards") << QStringList{"serve", "--shards", "65"} << "--shards";
        QTest::newRow("shards and aggregators") << QStringList{"run", "--workers", "2", "--aggregators", "1", "--shards", "2"}
                                                << "do not combine";
        QTest::newRow("shards and grouped") << QStringList{"serve", "--insecure", "--shards", "2", "--mode", "grouped"}
                                            << "not available where the model lives on parameter shards";
        QTest::newRow("shards and checkpoints")
            << QStringList{"serve", "--insecure", "--shards", "2", "--checkpoint-dir", "/tmp"} << "--checkpoint-dir";
        QTest::newRow("shards over ssh") << QStringList{"launch", "--hosts", "/nonexistent/hosts", "--shards", "2"}
                                         << "syncscope-engine shard --connect";
        QTest::newRow("export missing file") << QStringList{"export", "/nonexistent.ssrec", "--format", "csv"}
                                             << "/nonexistent.ssrec";
        QTest::newRow("missing data") << QStringList{"train", "--data", "/nonexistent/fmnist"}
                                      << "apt-get install dataset-fashion-mnist";
    }
    void rejected() {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const EngineRun run = runEngine(args, 60'000);
        QVERIFY2(run.finished, "the engine did not exit");
        QVERIFY2(run.exitCode > 0, qPrintable(QString("exit code %1").arg(run.exitCode)));
        QVERIFY2(run.err.contains(expected), qPrintable("stderr was: " + run.err));
        QVERIFY2(!run.err.contains("terminate called"), qPrintable(run.err));
    }

    // --backend cuda on a machine without a usable GPU is an error that says so; auto falls back.
    void cudaWithoutGpu() {
        const EngineRun probe = runEngine({"train", "--backend", "cuda", "--epochs", "1", "--train-limit", "64"});
        if (probe.exitCode == 0) QSKIP("a usable GPU is present; nothing to refuse");
        QVERIFY(probe.exitCode > 0);
        QVERIFY2(probe.err.contains("--backend cuda:") && probe.err.contains("cpu"), qPrintable(probe.err));
        const EngineRun fallback = runEngine({"train", "--backend", "auto", "--epochs", "1", "--train-limit", "64"});
        QCOMPARE(fallback.exitCode, 0);
        QVERIFY2(fallback.err.contains("training on the CPU backend"), qPrintable(fallback.err));
    }
};

QTEST_GUILESS_MAIN(TestCliErrors)
#include "test_cli_errors.moc"
