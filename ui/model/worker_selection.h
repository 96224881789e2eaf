// Which workers a chart draws as lines when there are too many to tell apart: beyond
// kLinesUpToWorkers, the heatmaps show every worker, and the line charts the kSlowestShown slowest
// (by their mean speed over the lag window, ui/model/lag_classifier.h), a chosen one, and the mean.
#pragma once

#include <QPointF>
#include <QVector>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "ui/model/lag_classifier.h"
#include "ui/model/telemetry_frame.h"

namespace syncscope::ui {

/// Up to this many workers, every worker is a line of its own.
constexpr size_t kLinesUpToWorkers = 16;
/// Beyond it, the slowest this many are lines.
constexpr size_t kSlowestShown = 4;

/// The `k` slowest workers (relative speed over the lag window; ties by id), from the frame's lag
/// when the store worked it out. Slowest first; but a worker of `shown` (the last frame's) keeps its
/// place while it is among the slowest 2k, so the lines do not change hands at every flicker of speed
/// (each change of hands also re-lays out the chart's legend).
std::vector<uint32_t> slowestWorkers(const TelemetryFrame& frame, size_t k, const std::vector<uint32_t>& shown = {});

/// Each worker's lag as the console shows it beside many workers: the store's figures
/// (TelemetryFrame::lag), or worked out here for a frame made elsewhere; null up to
/// kLinesUpToWorkers workers, where every worker is a line and no lag column shows.
std::shared_ptr<const std::map<uint32_t, LagFigures>> lagOf(const TelemetryFrame& frame);

/// The workers the line charts draw, in id order: every worker up to kLinesUpToWorkers, else the
/// slowest kSlowestShown (given the workers `shown` last time) and `chosen` (a worker picked on a
/// heatmap; UINT32_MAX: none).
std::vector<uint32_t> lineWorkers(const TelemetryFrame& frame, uint32_t chosen = UINT32_MAX,
                                  const std::vector<uint32_t>& shown = {});

}  // namespace syncscope::ui
