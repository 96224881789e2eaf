// ChanceLevelWatch: notices a model that stopped learning while it is still being updated: its test
// accuracy stays at chance (one class in `classes`) over several evaluations and many updates. That
// is how a ReLU network dies after one huge step (asp with momentum on many workers does it): every
// unit's output is zero, the model predicts every class alike, the loss sits at ln(classes), and no
// gradient is NaN, so the gradient check never fires. Said once per run, with the fix.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/coordinator/background_evaluator.h"

namespace syncscope::engine {

class ChanceLevelWatch {
public:
    /// Evaluations in a row at chance, and model versions they must span, before it speaks.
    static constexpr int kEvaluations = 3;
    static constexpr uint64_t kVersions = 500;
    /// How close to chance counts as chance (in accuracy, 0..1).
    static constexpr double kMargin = 0.02;

    explicit ChanceLevelWatch(int classes) : m_chance(classes > 0 ? 1.0 / classes : 0.0) {}

    /// The warning to raise after this evaluation, once; nothing otherwise.
    std::optional<std::string> observe(const EvaluationResult& evaluation);

private:
    double m_chance;
    int m_inRow = 0;
    uint64_t m_firstVersion = 0;
    bool m_said = false;
};

}  // namespace syncscope::engine
