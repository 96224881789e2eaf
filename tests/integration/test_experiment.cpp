// `syncscope-engine experiment` end to end on a tiny grid (2 workers, bsp and asp, 0 and 100% delay,
// one seed, real local clusters): the files and their rows, plausible figures, resuming that skips
// finished runs, the shipped scenario file, and (with the console built) syncscope-plot's PNGs.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMap>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "qt_engine_process.h"

namespace {

// A CSV file as rows of column name -> text.
QList<QMap<QString, QString>> readCsv(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return {};
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty()) return {};
    const QStringList header = lines.first().split(',');
    QList<QMap<QString, QString>> rows;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList fields = lines[i].split(',');
        QMap<QString, QString> row;
        for (qsizetype c = 0; c < header.size() && c < fields.size(); ++c) row[header[c]] = fields[c];
        rows.append(row);
    }
    return rows;
}

QMap<QString, QString> cell(const QList<QMap<QString, QString>>& rows, const QString& mode, const QString& delay) {
    for (const auto& row : rows)
        if (row.value("mode") == mode && row.value("delay_percent") == delay) return row;
    return {};
}

}  // namespace

class TestExperiment : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QStringList tinyGrid(const QString& seeds = "1", const QString& fixedTime = "3") const {
        return {"experiment", "--workers", "2", "--delays", "0,100", "--modes", "bsp,asp", "--seeds", seeds,
                "--max-seconds", "8", "--fixed-time", fixedTime, "--no-plots", "--data", SYNCSCOPE_FASHION_MNIST_DIR,
                "--out", m_dir.path()};
    }

private slots:
    void tinyGridWritesTheTables() {
        QVERIFY(m_dir.isValid());
        const EngineRun run = runEngine(tinyGrid(), 180'000);
        QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.out + run.err));
        const auto runs = readCsv(m_dir.filePath("runs.csv"));
        QCOMPARE(runs.size(), 4);
        const auto results = readCsv(m_dir.filePath("results.csv"));
        QCOMPARE(results.size(), 4);
        for (const QString mode : {"bsp", "asp"})
            for (const QString delay : {"0", "100"}) {
                const auto row = cell(results, mode, delay);
                QVERIFY2(!row.isEmpty(), qPrintable(mode + " at " + delay + "% is missing from results.csv"));
                const double accuracy = row.value("final_accuracy").toDouble();
                QVERIFY2(accuracy > 0 && accuracy <= 1, qPrintable(mode + ": final accuracy " + row.value("final_accuracy")));
                const double atFixed = row.value("accuracy_at_fixed_time").toDouble();
                QVERIFY2(atFixed > 0 && atFixed <= 1, qPrintable(mode + ": accuracy at 3 s " + row.value("accuracy_at_fixed_time")));
                QVERIFY2(row.value("samples_per_s").toDouble() > 0, qPrintable(mode + ": no throughput"));
                QCOMPARE(row.value("runs"), QStringLiteral("1"));
            }
        // BSP applies every gradient on the version it was computed on; ASP cannot, with 2 workers.
        QCOMPARE(cell(results, "bsp", "0").value("staleness_mean").toDouble(), 0.0);
        QVERIFY2(cell(results, "asp", "0").value("staleness_mean").toDouble() > 0, "asp shows no staleness");
        QFile md(m_dir.filePath("results.md"));
        QVERIFY(md.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(md.readAll());
        QVERIFY(text.contains("| mode | 0% | 100% |"));
        QVERIFY(text.contains("| bsp |") && text.contains("| asp |"));
        QVERIFY2(text.contains("Target 1") && text.contains("Target 2"), qPrintable(text));
        QVERIFY(QFile::exists(m_dir.filePath("recordings/asp_d100_s1.ssrec")));
    }

    void rerunSkipsFinishedRuns() {
        QFile runsCsv(m_dir.filePath("runs.csv"));
        QVERIFY(runsCsv.open(QIODevice::ReadOnly));
        const QByteArray before = runsCsv.readAll();
        runsCsv.close();
        QElapsedTimer timer;
        timer.start();
        const EngineRun run = runEngine(tinyGrid(), 60'000);
        QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains("4 runs, 4 already in"), qPrintable(run.out));
        QVERIFY2(timer.elapsed() < 5000, "a finished experiment must not run again");
        QVERIFY(runsCsv.open(QIODevice::ReadOnly));
        QCOMPARE(runsCsv.readAll(), before);
        // Another fixed time is read from the recordings again, without training.
        const EngineRun later = runEngine(tinyGrid("1", "1.5"), 60'000);
        QVERIFY2(later.exitCode == 0 && later.out.contains("4 runs, 4 already in"), qPrintable(later.out + later.err));
        for (const auto& row : readCsv(m_dir.filePath("results.csv"))) QCOMPARE(row.value("fixed_time_s"), QStringLiteral("1.5"));
        // --json: the same results as one JSON object on standard output, the tables on standard error.
        const EngineRun json = runEngine(tinyGrid() + QStringList{"--json"}, 60'000);
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        const QJsonObject results = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(results.value("command").toString(), QStringLiteral("experiment"));
        QCOMPARE(results.value("cells").toArray().size(), 4);
        for (const QJsonValue c : results.value("cells").toArray()) {
            const QJsonObject cellJson = c.toObject();
            const auto row = cell(readCsv(m_dir.filePath("results.csv")), cellJson.value("mode").toString(),
                                  QString::number(cellJson.value("delay_percent").toInt()));
            const double fromJson = cellJson.value("final_accuracy").toDouble();
            QVERIFY2(fromJson > 0 && qAbs(fromJson - row.value("final_accuracy").toDouble()) < 1e-4,
                     qPrintable(QString::number(fromJson) + " vs " + row.value("final_accuracy")));
        }
        QVERIFY2(json.err.contains("4 runs, 4 already in"), qPrintable(json.err));
        // One more seed: only its runs are new.
        const EngineRun more = runEngine(tinyGrid("1,2") + QStringList{"--dry-run"}, 60'000);
        QVERIFY2(more.out.contains("8 runs, 4 already in"), qPrintable(more.out));
        QCOMPARE(more.out.count("\ntodo "), 4);
    }

    void shippedScenarioIsTheBuiltInProtocol() {
        const QString spec = QStringLiteral(SYNCSCOPE_SOURCE_DIR "/resources/experiments/seeds-protocol.json");
        const EngineRun fromFile = runEngine({"experiment", "--dry-run", "--spec", spec, "--out", m_dir.path() + "/plan"});
        const EngineRun builtIn = runEngine({"experiment", "--dry-run", "--out", m_dir.path() + "/plan"});
        QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
        QVERIFY(fromFile.out.contains("150 runs"));
        QCOMPARE(fromFile.out, builtIn.out);
    }

    void badInputIsExplained() {
        const EngineRun unknown = runEngine({"experiment", "--modes", "bsp,nosuch", "--out", m_dir.path() + "/bad"});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("unknown mode 'nosuch'") && unknown.err.contains("grouped-g2"), qPrintable(unknown.err));
        QTemporaryDir dir;
        QFile broken(dir.filePath("spec.json"));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write(R"({"workers": 8, "delay_percent": [0]})");
        broken.close();
        const EngineRun typo = runEngine({"experiment", "--dry-run", "--spec", broken.fileName(), "--out", dir.path()});
        QCOMPARE(typo.exitCode, 2);
        QVERIFY2(typo.err.contains("unknown key \"delay_percent\""), qPrintable(typo.err));
    }

#ifdef SYNCSCOPE_PLOT_BINARY
    void plotToolDrawsTheFigures() {
        QProcess plot;
        plot.start(QStringLiteral(SYNCSCOPE_PLOT_BINARY), {m_dir.filePath("results.csv"), "--out", m_dir.filePath("plots")});
        QVERIFY(plot.waitForFinished(60'000));
        QVERIFY2(plot.exitCode() == 0, plot.readAllStandardError().constData());
        for (const QString name : {"time_to_target", "samples_per_s", "staleness_mean", "accuracy_at_fixed_time"}) {
            QFile png(m_dir.filePath("plots/" + name + ".png"));
            QVERIFY2(png.open(QIODevice::ReadOnly), qPrintable(name + ".png is missing"));
            QVERIFY(png.read(4) == QByteArray("\x89PNG", 4));
        }
    }
#endif
};

QTEST_GUILESS_MAIN(TestExperiment)
#include "test_experiment.moc"
