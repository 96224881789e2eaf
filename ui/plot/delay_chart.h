// One figure of an experiment: a metric against the straggler's delay, one line per mode, drawn
// with Qt Charts (syncscope-plot saves it as a PNG; the console's results window shows it).
#pragma once

#include <QList>
#include <QString>

#include "ui/plot/results_table.h"

class QChart;

namespace syncscope::ui {

struct DelayFigure {
    QString column;  ///< results.csv column
    QString title, yLabel;
    QString file;        ///< PNG name in the output folder
    double scale = 1.0;  ///< shown value = column value × scale (fractions as percent)
    QString missing = QStringLiteral("no value");  ///< what a missing point means, for the legend
};

/// The figures of an experiment's results.csv (time to target, throughput, staleness, accuracy at
/// the fixed time), titled with the table's own target and fixed time.
QList<DelayFigure> delayFigures(const ResultsTable& table);

/// The chart of `figure` (the caller owns it).
QChart* makeDelayChart(const ResultsTable& table, const DelayFigure& figure);

/// Draws `figure` from `table` into a width × height PNG at `path`; false (and *error) on failure.
bool renderDelayChart(const ResultsTable& table, const DelayFigure& figure, const QString& path, QString* error,
                      int width = 960, int height = 600);

}  // namespace syncscope::ui
