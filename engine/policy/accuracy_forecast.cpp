// AccuracyForecast (see accuracy_forecast.h).
#include "engine/policy/accuracy_forecast.h"

#include <algorithm>
#include <cmath>

namespace syncscope::engine {

void AccuracyForecast::add(double effectiveSamples, double accuracy) {
    if (!(effectiveSamples > 0) || !(accuracy >= 0 && accuracy < 1)) return;
    m_best = std::max(m_best, accuracy);
    m_points.push_back({std::log(effectiveSamples), std::log(1.0 - accuracy)});
    if (m_points.size() > kFitPoints) m_points.pop_front();
}

std::optional<double> AccuracyForecast::samplesTo(double target, double effectiveSamplesNow) const {
    if (m_best >= target) return 0.0;
    if (m_points.size() < kMinPoints || !(target < 1) || !(effectiveSamplesNow > 0)) return std::nullopt;
    double mx = 0, my = 0;
    for (const Point& p : m_points) {
        mx += p.logSamples / m_points.size();
        my += p.logError / m_points.size();
    }
    double sxy = 0, sxx = 0;
    for (const Point& p : m_points) {
        sxy += (p.logSamples - mx) * (p.logError - my);
        sxx += (p.logSamples - mx) * (p.logSamples - mx);
    }
    if (sxx <= 0) return std::nullopt;
    const double slope = sxy / sxx;  // d log(error) / d log(samples): negative while it learns
    if (!(slope < 0)) return std::nullopt;
    // From the newest evaluation along the fitted slope: the line through the mean point can lie
    // below the newest evaluations (a steep start, then a flatter curve) and call a target that no
    // evaluation has reached "reached already".
    const Point& newest = m_points.back();
    const double logSamples = newest.logSamples + (std::log(1.0 - target) - newest.logError) / slope;
    const double samples = std::exp(logSamples);
    if (!(samples <= kMaxExtrapolation * effectiveSamplesNow)) return std::nullopt;
    return std::max(0.0, samples - effectiveSamplesNow);
}

}  // namespace syncscope::engine
