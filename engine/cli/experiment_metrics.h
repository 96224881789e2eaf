// What one experiment run measured, read back from its recording, and the median of a cell
// (one mode at one delay) over its seeds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/status.h"

namespace syncscope::engine {

/// One run's figures. Times count from the "start" event (all workers in), not process start.
struct RunMetrics {
    std::optional<double> timeToTarget;  ///< first tick with test accuracy >= target; empty: not reached
    double accuracyAtFixedTime = -1;     ///< see measureRun for the rule; -1 before any evaluation
    double finalAccuracy = -1;           ///< the coordinator's final evaluation
    double samplesPerSecond = 0;         ///< samples trained / training seconds
    double stalenessMean = 0;            ///< over every applied gradient
    double stalenessP99 = 0;             ///< nearest-rank 99th percentile over every applied gradient
    uint64_t applied = 0, dropped = 0;
    double trainingSeconds = 0;          ///< start event to the last tick while running
};

/// Reads a recording and computes its figures. Accuracy at fixed time T: the test accuracy the
/// coordinator knew at T (its last tick at or before T); a run that ended before T (it reached the
/// target) counts with its final accuracy, since training stopped there.
Result<RunMetrics> measureRun(const std::string& recordingPath, double targetAccuracy, double fixedTimeSeconds);

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

/// The median of values (not empty): the middle one, or the mean of the two middle ones.
double median(std::vector<double> values);

}  // namespace syncscope::engine
