// One run's figures read back from its recording: time to a target accuracy, accuracy at a fixed
// time, final accuracy, samples/s, staleness mean and p99, drops. The experiment's tables and the
// console's run comparison both compute them here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/status.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

/// One run's figures. Times count from the "start" event (all workers in), not process start.
struct RunMetrics {
    /// When the model first reached the target (AccuracyTimeline: the time its version was current,
    /// interpolated between evaluations), not when the coordinator knew; empty: not reached.
    std::optional<double> timeToTarget;
    double accuracyAtFixedTime = -1;     ///< see measureRun for the rule; -1 before any evaluation
    double finalAccuracy = -1;           ///< the coordinator's final evaluation
    double samplesPerSecond = 0;         ///< samples trained / training seconds
    double stalenessMean = 0;            ///< over every applied gradient
    double stalenessP99 = 0;             ///< nearest-rank 99th percentile over every applied gradient
    uint64_t applied = 0, dropped = 0;
    double trainingSeconds = 0;          ///< start event to the last tick while running
};

/// The figures built up record by record, for a reader that also wants the records for itself (the
/// console's run comparison reads a recording once for its curves and these).
class RunMetricsScan {
public:
    void add(const wire::Record& record);
    /// `path` names the recording in the error of one without a start of training.
    Result<RunMetrics> finish(const std::string& path, double targetAccuracy, double fixedTimeSeconds);

private:
    std::optional<double> m_startTime;
    std::vector<wire::Tick> m_ticks;  ///< the few figures used of each tick
    std::vector<uint32_t> m_staleness;  ///< of every applied gradient
};

/// Reads a recording and computes its figures. Accuracy at fixed time T: the test accuracy of the
/// newest evaluated model that was current at T (AccuracyTimeline; until 2026-11-29 the accuracy the
/// coordinator knew at T, of a model up to two evaluations older); a run that ended before T (it
/// reached the target) counts with its final accuracy, since training stopped there.
Result<RunMetrics> measureRun(const std::string& recordingPath, double targetAccuracy, double fixedTimeSeconds);

}  // namespace syncscope::engine
