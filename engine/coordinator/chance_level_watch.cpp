// ChanceLevelWatch (see chance_level_watch.h).
#include "engine/coordinator/chance_level_watch.h"

#include <fmt/format.h>

#include <cmath>

namespace syncscope::engine {

std::optional<std::string> ChanceLevelWatch::observe(const EvaluationResult& evaluation) {
    if (m_said || m_chance <= 0) return std::nullopt;
    if (!std::isfinite(evaluation.loss) || evaluation.accuracy > m_chance + kMargin) {  // NaN: the gradient check's
        m_inRow = 0;
        return std::nullopt;
    }
    if (m_inRow++ == 0) m_firstVersion = evaluation.version;
    if (m_inRow < kEvaluations || evaluation.version < m_firstVersion + kVersions) return std::nullopt;
    m_said = true;
    return fmt::format(
        "training stopped learning: test accuracy {:.1f}% (chance: {:.0f}%) in {} evaluations in a row over {} "
        "updates, test loss {:.2f} (ln {} = {:.2f}: the model predicts every class alike, as a network whose "
        "units one huge step killed does); lower the learning rate, or in asynchronous modes modulate it by "
        "staleness (dynsgd or inverse) or lower the momentum, and roll back to a checkpoint if one was written",
        100.0 * evaluation.accuracy, 100.0 * m_chance, m_inRow, evaluation.version - m_firstVersion, evaluation.loss,
        std::lround(1.0 / m_chance), std::log(1.0 / m_chance));
}

}  // namespace syncscope::engine
