// EvaluationPaceWatch: notices test-set evaluations that take longer than the interval asked between
// them (--eval-interval). The coordinator gathers a model once an interval; a model that finds the
// evaluator still busy is skipped until the next interval (no gather queued behind a busy evaluator),
// so evaluations then come every ceil(evaluation / interval) x interval: every 1 s where 0.5 s was
// asked and one takes 0.6 s. Said once per run, with an interval that spaces them evenly.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/coordinator/background_evaluator.h"

namespace syncscope::engine {

class EvaluationPaceWatch {
public:
    /// Evaluations in a row longer than the interval before it speaks (one slow evaluation, e.g. while
    /// the workers start, costs one interval and is not worth a note).
    static constexpr int kEvaluations = 3;

    /// The note to raise after this evaluation, given the interval asked (seconds), once; nothing otherwise.
    std::optional<std::string> observe(const EvaluationResult& evaluation, double intervalSeconds);

    /// The spacing of evaluations that each take `evaluationSeconds`, gathered every `intervalSeconds`
    /// when the evaluator is free: the first whole number of intervals that outlasts one evaluation.
    static double spacing(double evaluationSeconds, double intervalSeconds);

private:
    std::vector<double> m_slow;  ///< the durations of the slow evaluations in a row
    bool m_said = false;
};

}  // namespace syncscope::engine
