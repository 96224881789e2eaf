// WhatIfTracker: the coordinator's what-if predictions (Tick.what_if). It places each new evaluation
// on the curve of effective samples trained on (applied samples, each worth 1 / (1 + kStalenessCost x
// tau), tau the staleness they were applied at: GradientTotals, counted as gradients are applied) and
// feeds it to an AccuracyForecast; about once a second, once every participating worker has a measured
// speed, it predicts every mode's samples/s, staleness and time to the target (mode_predictions.h).
// The model leaves out the coordinator's and the network's overheads; the running option's measured
// applied samples/s over the last kCalibrationSeconds in that mode, over its prediction, is the
// calibration, which scales every option's (kept while a new mode has run less than two periods).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>

#include "engine/coordinator/coordinator_state.h"
#include "engine/policy/accuracy_forecast.h"

namespace syncscope::engine {

class WhatIfTracker {
public:
    static constexpr double kPeriodSeconds = 1.0;
    /// Without the run's --target-accuracy, the target is this far above the best accuracy so far
    /// (whole percent), moved on when it is reached.
    static constexpr double kTargetStep = 0.02;
    /// (version, effective samples) pairs kept to place an evaluation's version on the curve.
    static constexpr size_t kLedgerCap = 4096;
    /// The calibration is kept within [1 / kCalibrationRange, kCalibrationRange].
    static constexpr double kCalibrationRange = 3.0;
    /// The measured rate behind the calibration: the applied samples of the last this many seconds in
    /// the running mode (a bsp round of a slow straggler can take longer than a period).
    static constexpr double kCalibrationSeconds = 10.0;

    /// Every tick; the predictions when a period has passed and every worker has been measured.
    std::optional<wire::WhatIf> onTick(const CoordinatorState& state);

    const AccuracyForecast& forecast() const { return m_forecast; }

private:
    double effectiveAt(uint64_t version) const;
    double target(const CoordinatorState& state);

    std::deque<std::pair<uint64_t, double>> m_ledger;  ///< (version, effective samples), versions rising
    std::optional<uint64_t> m_evaluated;              ///< the version of the last evaluation fed
    AccuracyForecast m_forecast;
    double m_target = 0.0;
    double m_lastAt = -1e300;
    /// (run time, GradientTotals.appliedSamples) at each period since the running mode began, the
    /// last kCalibrationSeconds of them.
    std::deque<std::pair<double, double>> m_applied;
    std::string m_periodMode;  ///< the mode (serialized) at m_lastAt; another one now: the window starts again
    double m_calibration = 1.0;
};

}  // namespace syncscope::engine
