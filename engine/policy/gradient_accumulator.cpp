// GradientAccumulator (see gradient_accumulator.h).
#include "engine/policy/gradient_accumulator.h"

#include "engine/core/check.h"

namespace syncscope::engine {

wire::GradientTerm gradientTerm(const GradientIn& g, float scale) {
    wire::GradientTerm term;
    term.set_worker_id(g.worker);
    term.set_sequence(g.sequence);
    term.set_scale(scale);
    return term;
}

void GradientAccumulator::add(const GradientIn& g, float scale) {
    if (m_sharded) {
        m_terms.push_back(gradientTerm(g, scale));
        return;
    }
    SS_CHECK(g.data, "a gradient's values where the coordinator holds the model");
    if (m_sum.empty()) m_sum.assign(m_count, 0.0f);
    float* sum = m_sum.data();
    for (size_t i = 0; i < m_count; ++i) sum[i] += scale * g.data[i];
}

void GradientAccumulator::add(const GradientSum& sum) {
    SS_CHECK(!m_sharded, "group aggregators' sums only where the coordinator holds the model");
    if (m_sum.empty()) m_sum.assign(m_count, 0.0f);
    float* out = m_sum.data();
    for (size_t i = 0; i < m_count; ++i) out[i] += sum.weightedSum[i];
}

void GradientAccumulator::scale(float factor) {
    for (float& g : m_sum) g *= factor;
    for (wire::GradientTerm& term : m_terms) term.set_scale(term.scale() * factor);
}

void GradientAccumulator::clear() {
    m_sum.clear();
    m_terms.clear();
}

}  // namespace syncscope::engine
