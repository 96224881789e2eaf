// The delay figures: points a mode lacks (the target not reached) are left out of its line and named
// in its legend entry.
#include "ui/plot/delay_chart.h"

#include <QChart>
#include <QCoreApplication>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>
#include <algorithm>

#include "ui/plot/chart_png.h"
#include "ui/plot/plot_palette.h"

namespace syncscope::ui {
// Translated in the console (context ExperimentPlots); syncscope-plot loads no catalogue, so English.
QList<DelayFigure> delayFigures(const ResultsTable& table) {
    const QString target = QString::number(table.shared(QStringLiteral("target_percent")).value_or(85));
    const QString fixed = QString::number(table.shared(QStringLiteral("fixed_time_s")).value_or(20));
    return {
        {QStringLiteral("time_to_target_s"), QCoreApplication::translate("ExperimentPlots", "Time to %1% test accuracy (median over seeds)").arg(target), QCoreApplication::translate("ExperimentPlots", "seconds"),
         QStringLiteral("time_to_target.png"), 1.0, QCoreApplication::translate("ExperimentPlots", "not reached")},
        {QStringLiteral("samples_per_s"), QCoreApplication::translate("ExperimentPlots", "Training throughput (median over seeds)"), QCoreApplication::translate("ExperimentPlots", "samples/s, all workers"),
         QStringLiteral("samples_per_s.png"), 1.0, QCoreApplication::translate("ExperimentPlots", "no value")},
        {QStringLiteral("staleness_mean"), QCoreApplication::translate("ExperimentPlots", "Mean staleness of applied gradients (median over seeds)"),
         QCoreApplication::translate("ExperimentPlots", "staleness (model versions)"), QStringLiteral("staleness_mean.png"), 1.0, QCoreApplication::translate("ExperimentPlots", "no value")},
        {QStringLiteral("accuracy_at_fixed_time"), QCoreApplication::translate("ExperimentPlots", "Test accuracy after %1 s of training (median over seeds)").arg(fixed),
         QCoreApplication::translate("ExperimentPlots", "test accuracy (%)"), QStringLiteral("accuracy_at_fixed_time.png"), 100.0, QCoreApplication::translate("ExperimentPlots", "no value")},
    };
}

QChart* makeDelayChart(const ResultsTable& table, const DelayFigure& figure) {
    auto* chart = new QChart;
    chart->setTitle(figure.title);
    double top = 0;
    const QList<int> delays = table.delays();
    for (const QString& mode : table.modes()) {
        auto* series = new QLineSeries;
        series->setPointsVisible(true);
        series->setPen(QPen(plotColor(int(chart->series().size())), 2.5));
        QStringList missing;
        for (int delay : delays) {
            if (const auto v = table.value(mode, delay, figure.column); v && *v >= 0) {  // -1: no evaluation yet
                series->append(delay, *v * figure.scale);
                top = std::max(top, *v * figure.scale);
            } else if (table.value(mode, delay, QStringLiteral("runs"))) {
                missing << QString::number(delay) + QLatin1Char('%');
            }
        }
        series->setName(missing.isEmpty() ? mode : QStringLiteral("%1 (%2 at %3)").arg(mode, figure.missing, missing.join(", ")));
        chart->addSeries(series);
    }
    auto* x = new QValueAxis;
    x->setTitleText(QCoreApplication::translate("ExperimentPlots", "extra delay of the straggler (%)"));
    x->setRange(delays.isEmpty() ? 0 : delays.first(), delays.isEmpty() ? 1 : std::max(delays.last(), delays.first() + 1));
    x->setTickCount(std::clamp(int(delays.size()), 2, 11));
    x->setLabelFormat(QStringLiteral("%.0f"));
    auto* y = new QValueAxis;
    y->setTitleText(figure.yLabel);
    y->setRange(0, top > 0 ? top * 1.1 : 1.0);
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.6g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (auto* series : chart->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    chart->legend()->setAlignment(Qt::AlignRight);
    return chart;
}

bool renderDelayChart(const ResultsTable& table, const DelayFigure& figure, const QString& path, QString* error,
                      int width, int height) {
    return saveChartsPng({makeDelayChart(table, figure)}, QString(), path, error, width, height);
}

}  // namespace syncscope::ui
