// GradientAccumulator (see gradient_accumulator.h).
#include "engine/policy/gradient_accumulator.h"

#include <algorithm>

#include "engine/core/check.h"

namespace syncscope::engine {

wire::GradientTerm gradientTerm(const GradientIn& g, float scale) {
    wire::GradientTerm term;
    term.set_worker_id(g.worker);
    term.set_sequence(g.sequence);
    term.set_scale(scale);
    term.set_batch_size(g.batchSize);
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
    for (size_t i = 0; i < m_bufferBegin; ++i) sum[i] += scale * g.data[i];
    if (m_bufferBegin < m_count) {
        const double batch = g.batchSize;
        m_weighted.assign(g.data + m_bufferBegin, g.data + m_count);
        for (float& v : m_weighted) v = float(batch * v);
        addBuffers(m_weighted.data(), batch);
    }
}

void GradientAccumulator::addBuffers(const float* values, double weight) {
    if (weight <= 0) return;
    const double total = m_bufferWeight + weight;
    float* mean = m_sum.data() + m_bufferBegin;
    for (size_t i = 0; i < m_count - m_bufferBegin; ++i) mean[i] = float((mean[i] * m_bufferWeight + values[i]) / total);
    m_bufferWeight = total;
}

void GradientAccumulator::add(const GradientSum& sum) {
    SS_CHECK(!m_sharded, "group aggregators' sums only where the coordinator holds the model");
    if (m_sum.empty()) m_sum.assign(m_count, 0.0f);
    float* out = m_sum.data();
    for (size_t i = 0; i < m_bufferBegin; ++i) out[i] += sum.weightedSum[i];
    if (m_bufferBegin < m_count) {  // the aggregator summed batch x buffers too
        double weight = 0;
        for (const GradientIn& member : sum.members) weight += member.batchSize;
        addBuffers(sum.weightedSum + m_bufferBegin, weight);
    }
}

void GradientAccumulator::scale(float factor) {
    for (size_t i = 0; i < std::min(m_bufferBegin, m_sum.size()); ++i) m_sum[i] *= factor;
    for (wire::GradientTerm& term : m_terms) term.set_scale(term.scale() * factor);
}

void GradientAccumulator::clear() {
    m_sum.clear();
    m_bufferWeight = 0;
    m_terms.clear();
}

}  // namespace syncscope::engine
