// Which workers a chart draws as lines when there are too many to tell apart: beyond
// kLinesUpToWorkers, the heatmaps show every worker, and the line charts the kSlowestShown slowest
// (by their mean speed over the lag window, ui/model/lag_classifier.h), a chosen one, and the mean.
#pragma once

#include <QPointF>
#include <QVector>

#include <cstdint>
#include <vector>

#include "ui/model/telemetry_frame.h"

namespace syncscope::ui {

/// Up to this many workers, every worker is a line of its own.
constexpr size_t kLinesUpToWorkers = 16;
/// Beyond it, the slowest this many are lines.
constexpr size_t kSlowestShown = 4;

/// The `k` slowest workers, slowest first (relative speed over the lag window; ties by id).
std::vector<uint32_t> slowestWorkers(const TelemetryFrame& frame, size_t k);

/// The mean over workers of one series at each tick time (the workers present at that time).
QVector<QPointF> meanOverWorkers(const TelemetryFrame& frame, QVector<QPointF> WorkerSeries::*series);

/// The frame the line charts draw: every worker up to kLinesUpToWorkers, else the slowest
/// kSlowestShown and `chosen` (a worker picked on a heatmap; UINT32_MAX: none).
TelemetryFrame linesFrame(const TelemetryFrame& frame, uint32_t chosen = UINT32_MAX);

}  // namespace syncscope::ui
