// EvaluationPaceWatch (see evaluation_pace_watch.h).
#include "engine/coordinator/evaluation_pace_watch.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace syncscope::engine {

double EvaluationPaceWatch::spacing(double evaluationSeconds, double intervalSeconds) {
    if (!(intervalSeconds > 0) || !(evaluationSeconds > intervalSeconds)) return intervalSeconds;
    return std::ceil(evaluationSeconds / intervalSeconds) * intervalSeconds;
}

std::optional<std::string> EvaluationPaceWatch::observe(const EvaluationResult& evaluation, double intervalSeconds) {
    if (m_said) return std::nullopt;
    if (!(evaluation.seconds > intervalSeconds)) {
        m_slow.clear();
        return std::nullopt;
    }
    m_slow.push_back(evaluation.seconds);
    if (static_cast<int>(m_slow.size()) < kEvaluations) return std::nullopt;
    m_said = true;
    std::sort(m_slow.begin(), m_slow.end());
    const double typical = m_slow[m_slow.size() / 2];
    // An interval a tenth above the slowest of them, in tenths of a second, leaves the evaluator free in time.
    const double evenly = std::ceil(m_slow.back() * 11.0 - 1e-9) / 10.0;
    return fmt::format(
        "a test-set evaluation takes {:.2f} s (the median of the last {}, the slowest {:.2f} s), longer than the {:g} "
        "s asked between evaluations (--eval-interval), so one comes every {:g} s: a model that finds the evaluator "
        "busy is skipped until the next interval; --eval-interval {:g} or more spaces them evenly",
        typical, m_slow.size(), m_slow.back(), intervalSeconds, spacing(typical, intervalSeconds), evenly);
}

}  // namespace syncscope::engine
