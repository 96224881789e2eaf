// RunCurves: what the console's comparison of runs draws from one recording: test accuracy,
// training loss and updates/s over time, the run's events (to align runs on one), and its figures
// (engine/telemetry/run_metrics.h). Times count from the start of training. Qt Core only.
#pragma once

#include <QPointF>
#include <QString>
#include <QVector>

#include <optional>

#include "engine/proto/syncscope.pb.h"
#include "engine/telemetry/run_metrics.h"

namespace syncscope::ui {

struct RunCurves {
    QString name;  ///< the recording's file name
    QString path;
    QVector<QPointF> accuracy;  ///< percent, one point per evaluated model version
    QVector<QPointF> loss, updatesPerSecond;
    QVector<wire::Event> events;  ///< time_s counted from the start of training, as the curves
    engine::RunMetrics metrics;   ///< for a target accuracy of `targetPercent`
    double targetPercent = 85;
    QString warning;  ///< the recording's tail was cut off, or similar; empty when whole

    /// The time of the first event of `kind` (from the start of training), if it has one.
    std::optional<double> firstEvent(wire::EventKind kind) const;
};

/// Reads a recording; fails with a message that says what is wrong with the file.
std::optional<RunCurves> loadRunCurves(const QString& path, double targetPercent, QString* error);

/// The comparison table as CSV (a header, then one line per run): run, time to target, final
/// accuracy, samples/s, staleness mean and p99, gradients dropped.
QString runComparisonCsv(const QVector<RunCurves>& runs);

}  // namespace syncscope::ui
