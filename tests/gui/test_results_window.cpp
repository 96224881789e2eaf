// ResultsWindow and the experiment plots: a reproduction folder written by the engine's own writers
// (claims.json from evaluateClaims on made-up runs, results.csv from summariseCells) opens with each
// claim and each part's figures listed; a claim's runs chart has one point per seed and run, the
// runs that never reached the target at the cap; its intervals chart one row per comparison, coloured
// by the claim's limit; a corrupt claims.json or an empty folder is named, not drawn; syncscope-plot
// writes one PNG per claim.
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QProcess>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/cli/claims.h"
#include "engine/cli/claims_report.h"
#include "engine/cli/experiment_report.h"
#include "engine/cli/experiment_spec.h"
#include "ui/widgets/results_window.h"

using namespace syncscope;
using syncscope::ui::ResultsWindow;

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

engine::RunRow row(const std::string& mode, int delay, uint64_t seed, double tta) {
    engine::RunRow r;
    r.mode = mode, r.delayPercent = delay, r.seed = seed;
    if (!std::isinf(tta)) r.metrics.timeToTarget = tta;
    r.metrics.accuracyAtFixedTime = 0.85;
    return r;
}

engine::ExperimentSpec grid(const std::vector<std::string>& modes, int delay) {
    engine::ExperimentSpec g;
    g.modes.clear();
    for (const auto& m : modes) g.modes.push_back({m, {"--mode", m}});
    g.delaysPercent = {delay};
    g.maxSeconds = 40;
    return g;
}

// Basu's claim on a persistent part (bsp, grouped, asp at +400%) and a no-straggler part (bsp):
// grouped 1.2x the no-delay time, asp never reaching the target.
engine::ReproductionSpec basuSpec() {
    engine::ReproductionSpec s;
    s.name = "test-reproduction";
    s.parts = {{"persistent", grid({"bsp", "grouped", "asp"}, 400)}, {"none", grid({"bsp"}, 0)}};
    engine::ClaimSpec c;
    c.kind = "straggler-rescue", c.title = "Basu: grouped rescues a run", c.paper = "close to the no-delay time";
    c.parts = {"persistent", "none"};
    c.mode = "grouped", c.baseline = "bsp", c.delay = 400, c.baselineDelay = 0, c.against = {"bsp", "asp"};
    c.maxRatio = 1.1, c.maxPointsLost = 2.5;
    s.claims = {c};
    return s;
}

QString writeFolder(const QTemporaryDir& dir) {
    const engine::ReproductionSpec spec = basuSpec();
    std::map<std::string, std::vector<engine::RunRow>> rows;
    for (uint64_t s = 1; s <= 3; ++s) {
        rows["none"].push_back(row("bsp", 0, s, 10));
        rows["persistent"].push_back(row("bsp", 400, s, 30));
        rows["persistent"].push_back(row("asp", 400, s, kNever));
        rows["persistent"].push_back(row("grouped", 400, s, 10 + double(s)));
    }
    const auto results = engine::evaluateClaims(spec, rows);
    const std::string root = dir.path().toStdString();
    if (!engine::writeClaimsJson(root + "/claims.json", spec, results, "experiment --spec test").isOk()) return {};
    for (const auto& part : spec.parts) {
        QDir(dir.path()).mkpath(QString::fromStdString(part.name));
        for (auto& r : rows[part.name])  // the fingerprint the summary finds a cell's runs by
            for (const auto& mode : part.grid.modes)
                if (mode.name == r.mode) r.config = engine::configHash(engine::runArguments(part.grid, mode, r.delayPercent, r.seed, ""));
        const auto cells = engine::summariseCells(part.grid, rows[part.name]);
        if (!engine::writeResultsCsv(root + "/" + part.name + "/results.csv", part.grid, cells).isOk()) return {};
    }
    return dir.path();
}

template <typename T>
QList<T*> seriesOf(QChartView* view) {
    QList<T*> out;
    for (QAbstractSeries* s : view->chart()->series())
        if (auto* t = qobject_cast<T*>(s)) out << t;
    return out;
}

QScatterSeries* scatterNamed(QChartView* view, const QString& prefix) {
    for (QScatterSeries* s : seriesOf<QScatterSeries>(view))
        if (s->name().startsWith(prefix)) return s;
    return nullptr;
}

}  // namespace

class TestResultsWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void listsClaimsAndEachPartsFigures() {
        QTemporaryDir dir;
        QVERIFY(!writeFolder(dir).isEmpty());
        ResultsWindow window;
        QString error;
        QVERIFY2(window.openFolder(dir.path(), &error), qPrintable(error));
        QTreeWidget* tree = window.contents();
        // Claims first, then the parts in the spec's order, four figures each.
        QCOMPARE(tree->topLevelItemCount(), 3);
        QCOMPARE(tree->topLevelItem(0)->childCount(), 1);
        QCOMPARE(tree->topLevelItem(0)->child(0)->text(0), QStringLiteral("Basu: grouped rescues a run"));
        QCOMPARE(tree->topLevelItem(0)->child(0)->text(1), QStringLiteral("not reproduced"));  // 1.2x > 1.1x
        QVERIFY(tree->topLevelItem(1)->text(0).contains(QStringLiteral("persistent")));
        QVERIFY(tree->topLevelItem(2)->text(0).contains(QStringLiteral("none")));
        QCOMPARE(tree->topLevelItem(1)->childCount(), 4);
        // The first claim is shown: its title, verdict and figures.
        QCOMPARE(window.heading()->text(), QStringLiteral("Basu: grouped rescues a run"));
        QVERIFY(window.verdict()->text().contains(QStringLiteral("1.20x the no-delay time")));
        QVERIFY(window.details()->toPlainText().contains(QStringLiteral("close to the no-delay time")));
    }

    void claimChartsHoldEverySeedAndComparison() {
        QTemporaryDir dir;
        QVERIFY(!writeFolder(dir).isEmpty());
        ResultsWindow window;
        QVERIFY(window.openFolder(dir.path()));
        QChartView* runs = window.chartViews().at(0);
        QChartView* intervals = window.chartViews().at(1);
        // Four cells (grouped, bsp +0%, bsp +400%, asp): each seed's series has a point in the three
        // cells that reached the target; asp's three runs are drawn at the 40 s cap.
        for (int seed = 1; seed <= 3; ++seed) {
            QScatterSeries* s = scatterNamed(runs, QStringLiteral("seed %1").arg(seed));
            QVERIFY2(s, qPrintable(QStringLiteral("no series for seed %1").arg(seed)));
            QCOMPARE(s->count(), 3);
        }
        QScatterSeries* never = scatterNamed(runs, QStringLiteral("not reached"));
        QVERIFY(never);
        QCOMPARE(never->count(), 3);
        for (const QPointF& p : never->points()) QCOMPARE(p.y(), 40.0);
        auto* cells = qobject_cast<QCategoryAxis*>(runs->chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(cells);
        QCOMPARE(cells->count(), 4);
        // grouped's seed 3 at 13 s in the first cell.
        QScatterSeries* seed3 = scatterNamed(runs, QStringLiteral("seed 3"));
        const QList<QPointF> seed3Points = seed3->points();
        QVERIFY(std::any_of(seed3Points.begin(), seed3Points.end(),
                            [](const QPointF& p) { return p.x() < 0.5 && qFuzzyCompare(p.y(), 13.0); }));
        // Three ratio rows (no-delay, bsp, asp; points lost is in the text): medians at 1.2, 0.4, 0.
        auto* rows = qobject_cast<QCategoryAxis*>(intervals->chart()->axes(Qt::Vertical).value(0));
        QVERIFY(rows);
        QCOMPARE(rows->count(), 3);
        QScatterSeries* medians = seriesOf<QScatterSeries>(intervals).value(0);
        QVERIFY(medians);
        QCOMPARE(medians->count(), 3);
        QCOMPARE(medians->at(0).x(), 1.2);
        QCOMPARE(medians->at(1).x(), 0.4);
        // The first row's whisker is the colour of a missed limit (1.2x against 1.1x), named so.
        bool missedNamed = false;
        for (QLineSeries* l : seriesOf<QLineSeries>(intervals))
            if (l->name() == QStringLiteral("past the limit")) missedNamed = true;
        QVERIFY(missedNamed);
    }

    void aFigureEntryShowsItsDelayChart() {
        QTemporaryDir dir;
        QVERIFY(!writeFolder(dir).isEmpty());
        ResultsWindow window;
        QVERIFY(window.openFolder(dir.path()));
        QTreeWidgetItem* timeToTarget = window.contents()->topLevelItem(1)->child(0);
        window.contents()->setCurrentItem(timeToTarget);
        QVERIFY(window.heading()->text().startsWith(QStringLiteral("persistent: Time to 85%")));
        // One line per mode of the part; asp never reached, so it has no point and says so.
        const auto lines = seriesOf<QLineSeries>(window.chartViews().at(0));
        QCOMPARE(lines.size(), 3);
        for (QLineSeries* l : lines)
            QCOMPARE(l->count(), l->name().startsWith(QStringLiteral("asp")) ? 0 : 1);
        QVERIFY(window.chartViews().at(1)->isHidden());
        // Reload (the same folder again) keeps that entry shown.
        QVERIFY(window.openFolder(dir.path()));
        QVERIFY(window.heading()->text().startsWith(QStringLiteral("persistent: Time to 85%")));
    }

    void corruptOrEmptyFoldersAreNamedNotDrawn() {
        QTemporaryDir dir;
        QVERIFY(!writeFolder(dir).isEmpty());
        QFile corrupt(dir.filePath("claims.json"));
        QVERIFY(corrupt.open(QIODevice::WriteOnly | QIODevice::Truncate));
        corrupt.write("{\"format\": \"syncscope-claims\", \"claims\": [");
        corrupt.close();
        ResultsWindow window;
        QString error;
        // The parts' figures still open; the broken claims.json is named with what is wrong.
        QVERIFY(window.openFolder(dir.path(), &error));
        QCOMPARE(window.contents()->topLevelItemCount(), 2);
        QVERIFY(window.details()->toPlainText().contains(QStringLiteral("claims.json is not valid JSON")));

        QTemporaryDir empty;
        QVERIFY(!window.openFolder(empty.path(), &error));
        QVERIFY2(error.contains(QStringLiteral("no claims.json or results.csv")), qPrintable(error));
        QCOMPARE(window.contents()->topLevelItemCount(), 0);
        QVERIFY(window.heading()->text().contains(QStringLiteral("no claims.json or results.csv")));
    }

    void plotToolWritesAPngPerClaim() {
        QTemporaryDir dir;
        QVERIFY(!writeFolder(dir).isEmpty());
        QProcess plot;
        plot.start(QStringLiteral(SYNCSCOPE_PLOT_BINARY), {dir.filePath("claims.json"), QStringLiteral("--out"), dir.filePath("png")});
        QVERIFY(plot.waitForFinished(60000));
        QCOMPARE(plot.exitCode(), 0);
        const QImage image(dir.filePath("png/claim_1_straggler-rescue.png"));
        QCOMPARE(image.size(), QSize(1600, 640));
        // A broken file: a clear error and exit 2, no PNG.
        QFile bad(dir.filePath("bad.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("[]");
        bad.close();
        plot.start(QStringLiteral(SYNCSCOPE_PLOT_BINARY), {dir.filePath("bad.json"), QStringLiteral("--out"), dir.filePath("bad")});
        QVERIFY(plot.waitForFinished(60000));
        QCOMPARE(plot.exitCode(), 2);
        QVERIFY(plot.readAllStandardError().contains("not a claims.json"));
    }
};

QTEST_MAIN(TestResultsWindow)
#include "test_results_window.moc"
