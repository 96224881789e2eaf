// What-if predictions checked against what happened: in a recording where the run switched mode,
// the newest prediction before each switch for the option switched to is compared with that
// option's measured applied samples/s after it (and its time to the prediction's target, where the
// run reached it in that mode). Issue 29's check of engine/policy/mode_predictions.h on recorded runs.
#pragma once

#include <string>
#include <vector>

#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

struct PredictionCheck {
    std::string from, to;  ///< option labels (WhatIf.current_label) before and after the switch
    double switchedAt = 0;                ///< run time of the first tick in the new mode, s
    double predictedSamplesPerS = 0;      ///< the newest prediction for `to` before the switch
    double measuredSamplesPerS = 0;       ///< applied samples/s over the measured window
    double windowSeconds = 0;             ///< from switchedAt + settle to the mode's last tick
    double targetAccuracy = 0;            ///< the prediction's target
    double predictedSecondsToTarget = -1; ///< -1: no forecast
    double measuredSecondsToTarget = -1;  ///< -1: not reached while in `to`
    /// (predicted - measured) / measured.
    double samplesError() const { return (predictedSamplesPerS - measuredSamplesPerS) / measuredSamplesPerS; }
    /// Relative, where both times exist; NaN otherwise.
    double timeError() const;
};

/// Settle: the first seconds after a switch are left out of the measurement (a version boundary,
/// the new policy's first rounds, elastic's first rebalancing). A stretch shorter than settle +
/// kMinMeasuredSeconds gives no check; neither does a switch from or to auto.
constexpr double kPredictionSettleSeconds = 2.0;
constexpr double kMinMeasuredSeconds = 3.0;

/// Every switch in `records` (a recording's, in order) that can be checked.
std::vector<PredictionCheck> checkPredictions(const std::vector<wire::Record>& records);

}  // namespace syncscope::engine
