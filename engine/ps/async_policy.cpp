// AsyncPolicy (see async_policy.h).
#include "engine/ps/async_policy.h"

#include "engine/ps/lr_modulation.h"

namespace syncscope::engine {

void AsyncPolicy::onGradient(const GradientIn& g) {
    const uint64_t staleness = m_context.version() - g.baseVersion;
    const float weight =
        m_weightByBatch ? static_cast<float>(g.batchSize) / static_cast<float>(m_context.baseBatchSize()) : 1.0f;
    wire::Contribution c;
    c.set_worker_id(g.worker);
    c.set_base_version(g.baseVersion);
    c.set_staleness(static_cast<uint32_t>(staleness));
    c.set_batch_size(g.batchSize);
    c.set_weight(weight);
    if (WorkerRecord* w = m_context.workers().find(g.worker)) c.set_clock(w->clock);
    m_context.applyUpdate(g.data, {c}, weight * modulatedLearningRate(1.0f, staleness, m_modulation));
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
