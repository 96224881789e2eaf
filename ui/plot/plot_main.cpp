// syncscope-plot: turns an experiment's results.csv into PNG figures (Qt Charts, offscreen), for
// machines where the engine, which links no Qt, cannot draw them itself.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <cstdio>

#include "ui/plot/delay_chart.h"
#include "ui/plot/results_table.h"

using namespace syncscope::ui;

namespace {

QList<DelayFigure> figures(const ResultsTable& table) {
    const QString target = QString::number(table.shared(QStringLiteral("target_percent")).value_or(85));
    const QString fixed = QString::number(table.shared(QStringLiteral("fixed_time_s")).value_or(20));
    return {
        {QStringLiteral("time_to_target_s"), QStringLiteral("Time to %1% test accuracy (median over seeds)").arg(target),
         QStringLiteral("seconds"), QStringLiteral("time_to_target.png"), 1.0, QStringLiteral("not reached")},
        {QStringLiteral("samples_per_s"), QStringLiteral("Training throughput (median over seeds)"),
         QStringLiteral("samples/s, all workers"), QStringLiteral("samples_per_s.png")},
        {QStringLiteral("staleness_mean"), QStringLiteral("Mean staleness of applied gradients (median over seeds)"),
         QStringLiteral("staleness (model versions)"), QStringLiteral("staleness_mean.png")},
        {QStringLiteral("accuracy_at_fixed_time"), QStringLiteral("Test accuracy after %1 s of training (median over seeds)").arg(fixed),
         QStringLiteral("test accuracy (%)"), QStringLiteral("accuracy_at_fixed_time.png"), 100.0},
    };
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");  // never shows a window
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Draws the figures of a `syncscope-engine experiment` as PNG files"));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("RESULTS"), QStringLiteral("results.csv written by `syncscope-engine experiment`"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Folder for the PNGs (default: next to RESULTS)"),
                                 QStringLiteral("DIR"));
    parser.addOption(out);
    parser.process(app);
    if (parser.positionalArguments().size() != 1) {
        std::fprintf(stderr, "error: give one results.csv, e.g. syncscope-plot experiment-results/results.csv\n");
        return 2;
    }
    const QString csv = parser.positionalArguments().first();
    const QString dir = parser.isSet(out) ? parser.value(out) : QFileInfo(csv).absolutePath();
    QString error;
    const auto table = ResultsTable::read(csv, &error);
    if (!table) {
        std::fprintf(stderr, "error: %s\n", qPrintable(error));
        return 2;
    }
    if (!QDir().mkpath(dir)) {
        std::fprintf(stderr, "error: cannot create the folder %s\n", qPrintable(dir));
        return 2;
    }
    for (const DelayFigure& figure : figures(*table)) {
        const QString path = QDir(dir).filePath(figure.file);
        if (!renderDelayChart(*table, figure, path, &error)) {
            std::fprintf(stderr, "error: %s\n", qPrintable(error));
            return 3;
        }
        std::printf("wrote %s\n", qPrintable(path));
    }
    return 0;
}
