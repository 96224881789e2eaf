// When a run would reach a test accuracy, in effective samples (applied samples, each worth
// 1 / (1 + kStalenessCost x tau)): learning curves' error falls about as a power of the samples
// trained on, error = a x^-b, so the newest evaluations are fitted by least squares in log-log
// space, and its slope carried on from the newest evaluation to the target. Dividing what is left by a mode's predicted effective
// samples/s (mode_predictions.h) gives that mode's time to the target.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>

namespace syncscope::engine {

class AccuracyForecast {
public:
    /// Evaluations fitted (the newest): the curve's recent slope, not its start, predicts the rest.
    static constexpr size_t kFitPoints = 8;
    /// Fewer evaluations give no forecast.
    static constexpr size_t kMinPoints = 3;
    /// No forecast beyond this multiple of the samples trained on so far: too far to extrapolate.
    static constexpr double kMaxExtrapolation = 20.0;

    /// One evaluation: `accuracy` (0..1) of the model after `effectiveSamples` (> 0; others are ignored).
    void add(double effectiveSamples, double accuracy);
    /// Effective samples still to train from `effectiveSamplesNow` until the fit reaches `target`: 0
    /// once an evaluation has; none with fewer than kMinPoints evaluations, when the error does not
    /// fall, or past kMaxExtrapolation.
    std::optional<double> samplesTo(double target, double effectiveSamplesNow) const;
    /// The best accuracy evaluated so far (0 before any).
    double best() const { return m_best; }
    size_t size() const { return m_points.size(); }

private:
    struct Point {
        double logSamples, logError;
    };
    std::deque<Point> m_points;  ///< the newest kFitPoints
    double m_best = 0.0;
};

}  // namespace syncscope::engine
