// KAsyncPolicy (see kasync_policy.h). Staleness is taken on arrival; the version cannot move
// before the K-th gradient arrives, since this policy is the only one applying.
#include "engine/policy/kasync_policy.h"

#include <algorithm>

#include "engine/policy/lr_modulation.h"

namespace syncscope::engine {

size_t KAsyncPolicy::gradientsPerUpdate(uint32_t k, size_t participants) {
    return k ? k : std::max<size_t>(1, participants / 2);
}

size_t KAsyncPolicy::k() const { return gradientsPerUpdate(m_settings.k(), m_context.workers().participantIds().size()); }

void KAsyncPolicy::onGradient(const GradientIn& g) {
    const uint64_t staleness = m_context.version() - g.baseVersion;
    const float scale = modulatedLearningRate(1.0f, staleness, m_settings.lr_modulation());
    m_sum.add(g, scale);
    m_contributions.push_back(makeContribution(m_context, g, staleness, scale));  // weight / K when applied
    if (m_contributions.size() >= k()) apply();
}

void KAsyncPolicy::reconsider() {
    for (auto& [id, w] : m_context.workers().all())
        if (w.waiting && w.active()) m_context.release(id);
    if (!m_contributions.empty() && m_contributions.size() >= k()) apply();  // a worker left: K may be smaller
}

void KAsyncPolicy::apply() {
    const float inverse = 1.0f / static_cast<float>(m_contributions.size());
    m_sum.scale(inverse);
    for (auto& c : m_contributions) c.set_weight(c.weight() * inverse);
    m_context.applyUpdate(m_sum, m_contributions, 1.0f);
    m_sum.clear();
    m_contributions.clear();
}

void KAsyncPolicy::drain(bool applyPartial) {
    if (m_contributions.empty()) return;
    if (applyPartial) {
        apply();
        return;
    }
    for (const auto& c : m_contributions) m_context.dropGradient(c, "run stopped");
    m_sum.clear();
    m_contributions.clear();
}

}  // namespace syncscope::engine
