// AsyncPolicy (see async_policy.h).
#include "engine/policy/async_policy.h"

#include "engine/policy/lr_modulation.h"

namespace syncscope::engine {

void AsyncPolicy::onGradient(const GradientIn& g) {
    const uint64_t staleness = m_context.version() - g.baseVersion;
    const float weight =
        m_weightByBatch ? static_cast<float>(g.batchSize) / static_cast<float>(m_context.baseBatchSize()) : 1.0f;
    m_context.applyUpdate(g, {makeContribution(m_context, g, staleness, weight)}, weight * modulatedLearningRate(1.0f, staleness, m_modulation));
    if (m_bound) reconsider();  // the slowest worker's clock may have moved
}

bool AsyncPolicy::mayRun(const WorkerRecord& worker) const {
    return !m_bound || worker.clock <= m_context.workers().minParticipantClock() + *m_bound;
}

void AsyncPolicy::onWaiting(uint32_t worker) {
    if (WorkerRecord* w = m_context.workers().find(worker); w && mayRun(*w)) m_context.release(worker);
}

void AsyncPolicy::reconsider() {
    for (auto& [id, w] : m_context.workers().all())
        if (w.waiting && w.active() && mayRun(w)) m_context.release(id);
}

}  // namespace syncscope::engine
