// syncscope-plot: turns an experiment's results.csv, or a reproduction's claims.json, into PNG figures
// (Qt Charts, offscreen), for machines where the engine, which links no Qt, cannot draw them itself.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <cstdio>

#include "ui/plot/claim_charts.h"
#include "ui/plot/delay_chart.h"
#include "ui/plot/results_table.h"

using namespace syncscope::ui;

namespace {

int fail(const QString& error, int code) {
    std::fprintf(stderr, "error: %s\n", qPrintable(error));
    return code;
}

int plotResults(const QString& csv, const QDir& dir) {
    QString error;
    const auto table = ResultsTable::read(csv, &error);
    if (!table) return fail(error, 2);
    for (const DelayFigure& figure : delayFigures(*table)) {
        const QString path = dir.filePath(figure.file);
        if (!renderDelayChart(*table, figure, path, &error)) return fail(error, 3);
        std::printf("wrote %s\n", qPrintable(path));
    }
    return 0;
}

int plotClaims(const QString& json, const QDir& dir) {
    QString error;
    const auto report = ClaimsReport::read(json, &error);
    if (!report) return fail(error, 2);
    for (qsizetype i = 0; i < report->claims.size(); ++i) {
        const QString path = dir.filePath(claimFigureFile(report->claims[i], int(i)));
        if (!renderClaimFigure(*report, report->claims[i], path, &error)) return fail(error, 3);
        std::printf("wrote %s\n", qPrintable(path));
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");  // never shows a window
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Draws the figures of a `syncscope-engine experiment` as PNG files: "
                                                    "one per metric from results.csv, one per claim from claims.json"));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("RESULTS"),
                                 QStringLiteral("results.csv or claims.json written by `syncscope-engine experiment`"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Folder for the PNGs (default: next to RESULTS)"),
                                 QStringLiteral("DIR"));
    parser.addOption(out);
    parser.process(app);
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("give one results.csv or claims.json, e.g. syncscope-plot experiment-results/results.csv"), 2);
    const QString input = parser.positionalArguments().first();
    const QString dir = parser.isSet(out) ? parser.value(out) : QFileInfo(input).absolutePath();
    if (!QDir().mkpath(dir)) return fail(QStringLiteral("cannot create the folder %1").arg(dir), 2);
    return input.endsWith(QLatin1String(".json")) ? plotClaims(input, QDir(dir)) : plotResults(input, QDir(dir));
}
