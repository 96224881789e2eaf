// The engine's machine-readable side, through the real binary: `run --json` and `train --json` print
// one JSON object of results, `--version` the project version, `export --json` to tfevents and
// trace, the trace's window and cap, a progress bar on a terminal, and clear errors for wrong flags.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

#include "engine_process.h"

namespace {

// The one JSON object a --json command prints, or a null object (and the test fails) if its
// standard output holds anything else.
QJsonObject onlyJson(const EngineRun& run) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject() || run.out.count('\n') != 1) {
        qWarning("standard output is not one JSON object: %s", qPrintable(run.out.left(500)));
        return {};
    }
    return doc.object();
}

}  // namespace

class TestExportCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_recording;

private slots:
    void runPrintsOneJsonObject() {
        QVERIFY(m_dir.isValid());
        m_recording = m_dir.filePath("run.ssrec");
        const EngineRun run = runEngine({"run", "--workers", "2", "--epochs", "1", "--data", SYNCSCOPE_FASHION_MNIST_DIR,
                                         "--record", m_recording, "--json"});
        QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.err));
        const QJsonObject result = onlyJson(run);
        QCOMPARE(result.value("command").toString(), QStringLiteral("run"));
        QVERIFY2(result.value("final_test_accuracy").toDouble() > 0.7, qPrintable(run.out));
        QVERIFY(result.value("model_version").toInteger() > 0);
        QCOMPARE(result.value("mode").toString(), QStringLiteral("bsp"));
        QCOMPARE(result.value("workers").toArray().size(), 2);
        QVERIFY(result.value("workers").toArray()[0].toObject().value("samples_per_s").toDouble() > 0);
        QVERIFY(result.value("pushed").toInteger() >= result.value("applied").toInteger());
        QVERIFY2(run.err.contains("final test accuracy"), "the coordinator's report goes to standard error");
    }

    void trainPrintsOneJsonObject() {
        const EngineRun run = runEngine({"train", "--epochs", "1", "--train-limit", "2000", "--threads", "1", "--data",
                                         SYNCSCOPE_FASHION_MNIST_DIR, "--json"});
        QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.err));
        const QJsonObject result = onlyJson(run);
        QCOMPARE(result.value("command").toString(), QStringLiteral("train"));
        const double accuracy = result.value("test_accuracy").toDouble();
        QVERIFY2(accuracy > 0.5 && accuracy <= 1.0, qPrintable(run.out));
        QCOMPARE(result.value("total").toInt(), 10000);
        QVERIFY(QRegularExpression("^[0-9a-f]{16}$").match(result.value("parameter_checksum").toString()).hasMatch());
    }

    void versionIsTheProjectVersion() {
        const EngineRun run = runEngine({"--version"});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.trimmed(), QStringLiteral("syncscope-engine " SYNCSCOPE_VERSION));
    }

    void exportsTfEventsWithJson() {
        const QString folder = m_dir.filePath("tb");
        const EngineRun run = runEngine({"export", m_recording, "--format", "tfevents", "--output", folder, "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject result = onlyJson(run);
        QCOMPARE(result.value("files").toArray().size(), 3);  // the job and two workers
        for (const QJsonValue file : result.value("files").toArray()) QVERIFY(QFile::exists(file.toString()));
        QVERIFY(result.value("events").toInteger() > 10);
        QVERIFY(result.value("records").toInteger() > 100);
        QVERIFY(QDir(folder + "/worker_1").exists());
    }

    void exportsABoundedTrace() {
        const QString path = m_dir.filePath("trace.json");
        EngineRun run = runEngine({"export", m_recording, "--format", "trace", "--output", path, "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray events = QJsonDocument::fromJson(file.readAll()).object().value("traceEvents").toArray();
        int compute = 0;
        double first = 1e300, last = 0;  // the run's span, in microseconds of run time
        for (const QJsonValue e : events) {
            compute += e.toObject().value("name").toString() == "compute";
            if (e.toObject().value("ph").toString() == "M") continue;
            first = std::min(first, e.toObject().value("ts").toDouble());
            last = std::max(last, e.toObject().value("ts").toDouble());
        }
        QVERIFY2(compute > 100, qPrintable(QString::number(compute)));
        QCOMPARE(onlyJson(run).value("events").toInteger(), qint64(events.size()));
        // A cap: the trace ends early and the note says how to widen it.
        run = runEngine({"export", m_recording, "--format", "trace", "--output", path, "--max-events", "100", "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject trace = onlyJson(run).value("trace").toObject();
        QVERIFY(trace.value("cut").toBool());
        QVERIFY(trace.value("cut_at_s").toDouble() > 0);
        QVERIFY2(run.err.contains("--max-events 100"), qPrintable(run.err));
        // A window, the middle half of the run: only what starts in it, in microseconds of run time.
        // (Taken from the run, which on a fast machine trains its epoch in well under a second.)
        const double from = (first + 0.25 * (last - first)) / 1e6, to = (first + 0.75 * (last - first)) / 1e6;
        run = runEngine({"export", m_recording, "--format", "trace", "--output", path, "--window",
                         QString::number(from, 'f', 3) + ":" + QString::number(to, 'f', 3)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        file.close();
        QVERIFY(file.open(QIODevice::ReadOnly));
        int timed = 0;
        for (const QJsonValue e : QJsonDocument::fromJson(file.readAll()).object().value("traceEvents").toArray()) {
            if (e.toObject().value("ph").toString() == "M") continue;
            ++timed;
            const double ts = e.toObject().value("ts").toDouble();
            QVERIFY2(ts >= std::round(from * 1e3) * 1e3 && ts < std::round(to * 1e3) * 1e3,
                     qPrintable(QString("%1 outside %2:%3 s").arg(ts).arg(from).arg(to)));
        }
        QVERIFY(timed > 0);
    }

    void showsAProgressBarOnATerminal() {
        // script(1) gives the export a pseudo-terminal, where the progress bar draws.
        QProcess script;
        script.start("script", {"-qec", QString(SYNCSCOPE_ENGINE_BINARY) + " export " + m_recording +
                                            " --format csv --output " + m_dir.filePath("r.csv"), "/dev/null"});
        QVERIFY(script.waitForFinished(60'000));
        const QString shown = QString::fromUtf8(script.readAllStandardOutput());
        QVERIFY2(shown.contains("100% [") && shown.contains("KiB read"), qPrintable(shown));
    }

    void wrongFlagsSayWhatToDo() {
        const struct {
            QStringList args;
            const char* says;
        } cases[] = {
            {{"--format", "csv", "--json"}, "add --output FILE"},
            {{"--format", "csv", "--window", "1:2", "--output", "x.csv"}, "use them with --format trace"},
            {{"--format", "trace", "--window", "5:1", "--output", "x.json"}, "must be FROM:TO"},
            {{"--format", "trace", "--window", "a:b", "--output", "x.json"}, "must be FROM:TO"},
            {{"--format", "tfevents"}, "--output DIR"},
            {{"--format", "trace", "--output", QDir::tempPath()}, "is a folder"},
        };
        for (const auto& c : cases) {
            const EngineRun run = runEngine(QStringList{"export", m_recording} + c.args);
            QVERIFY2(run.exitCode == 2 && run.err.contains(c.says), qPrintable(c.args.join(' ') + ": " + run.err));
            QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
        }
    }
};

QTEST_GUILESS_MAIN(TestExportCli)
#include "test_export_cli.moc"
