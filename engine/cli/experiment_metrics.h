// The median of an experiment's cell (one mode at one delay) over its seeds; each run's figures
// come from engine/telemetry/run_metrics.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/median.h"  // median(), used with the summaries
#include "engine/core/status.h"
#include "engine/telemetry/run_metrics.h"

namespace syncscope::engine {

/// The median of one (mode, delay) cell over its seeds.
struct CellSummary {
    std::string mode;
    int delayPercent = 0;
    int runs = 0, reached = 0;           ///< seeds, and how many reached the target
    std::optional<double> timeToTarget;  ///< median with "not reached" as +infinity; empty if that is it
    double accuracyAtFixedTime = 0, finalAccuracy = 0, samplesPerSecond = 0;
    double stalenessMean = 0, stalenessP99 = 0, dropped = 0;
};

/// Median of the runs (not empty) of one cell.
CellSummary summarise(const std::string& mode, int delayPercent, const std::vector<RunMetrics>& runs);


}  // namespace syncscope::engine
