// What-if predictions checked against what happened: in a recording where the run switched mode,
// the newest prediction before each switch for the option switched to is compared with that
// option's measured applied samples/s after it (and its time to the prediction's target, where the
// run reached it in that mode); and across two runs of an experiment cell (the same seed and
// straggler), one run's predictions for the other's mode against that other run. Issue 29's check of
// engine/policy/mode_predictions.h and accuracy_forecast.h on recorded runs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

struct PredictionCheck {
    std::string from, to;  ///< option labels (WhatIf.current_label) before and after the switch
    double switchedAt = 0;                ///< run time of the first tick in the new mode, s (across runs: of the forecast in `from`)
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

/// Run `from`'s predictions for the option run `to` ran, against `to`, which stands for "switched to
/// it": the runs of an experiment cell start alike (same seed, data order and straggler), and none
/// switches. Samples/s: the median of `from`'s predictions for that option after the settle time,
/// against `to`'s applied samples/s from its settle time to its last running tick. Time to target:
/// `from`'s first forecast for it (at accuracy a), against the time `to`'s model took from a to the
/// target (AccuracyTimeline; a stopped run's last evaluation counts).
/// Nothing when either ran auto, `from` has no prediction for `to`'s option, or `to` ran too short.
std::optional<PredictionCheck> checkPredictionAcross(const std::vector<wire::Record>& from, const std::vector<wire::Record>& to);

/// The errors of one option's checks: medians of |error| and of the signed error (a bias).
struct PredictionSummary {
    std::string option;
    size_t samplesChecks = 0, timeChecks = 0;
    double samplesAbsError = 0, samplesBias = 0;  ///< fractions of the measured value
    double timeAbsError = 0, timeBias = 0;        ///< NaN without time checks
};

/// One summary per option checked (by `to`), in option order of first appearance.
std::vector<PredictionSummary> summarisePredictions(const std::vector<PredictionCheck>& checks);

}  // namespace syncscope::engine
