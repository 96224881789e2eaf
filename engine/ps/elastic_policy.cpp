// ElasticPolicy (see elastic_policy.h).
#include "engine/ps/elastic_policy.h"

#include <algorithm>
#include <cmath>

#include "engine/net/protocol.h"
#include "engine/ps/async_policy.h"
#include "engine/ps/bsp_policy.h"

namespace syncscope::engine {

ElasticPolicy::ElasticPolicy(PolicyContext& context, const wire::ModeSettings& settings)
    : m_context(context), m_settings(settings) {
    if (settings.elastic_slack())
        m_barrier = std::make_unique<AsyncPolicy>(context, settings, settings.staleness_bound(), true);
    else
        m_barrier = std::make_unique<BspPolicy>(context, std::nullopt);
}

void ElasticPolicy::onTick() {
    const double period = m_settings.rebalance_seconds() > 0 ? m_settings.rebalance_seconds() : 2.0;
    if (std::chrono::duration<double>(Clock::now() - m_lastRebalance).count() < period) return;
    m_lastRebalance = Clock::now();
    rebalance();
}

void ElasticPolicy::rebalance() {
    const std::vector<uint32_t> ids = m_context.workers().participantIds();
    double totalSpeed = 0;
    for (uint32_t id : ids) {
        const double speed = m_context.workers().find(id)->computeSpeed;
        if (speed <= 0) return;  // not measured yet: keep the sizes
        totalSpeed += speed;
    }
    if (ids.size() < 2) return;
    const uint32_t base = m_context.baseBatchSize();
    const double total = static_cast<double>(base) * ids.size();
    const uint32_t least = std::max<uint32_t>(1, base / kElasticBatchRange), most = base * kElasticBatchRange;
    std::string detail;
    bool changed = false;
    for (uint32_t id : ids) {
        WorkerRecord& w = *m_context.workers().find(id);
        const auto batch = static_cast<uint32_t>(
            std::clamp<double>(std::lround(total * w.computeSpeed / totalSpeed), least, most));
        // Small moves are noise in the speed measurement; they would only churn the workers.
        if (std::abs(static_cast<double>(batch) - w.batchSize) > 0.03 * w.batchSize) {
            w.batchSize = batch;
            changed = true;
        }
        detail += (detail.empty() ? "" : " ") + std::to_string(id) + ":" + std::to_string(w.batchSize);
    }
    if (changed) m_context.announce("batch", "batch sizes by speed " + detail);
}

void ElasticPolicy::drain(bool apply) {
    m_barrier->drain(apply);
    for (auto& [id, w] : m_context.workers().all()) w.batchSize = m_context.baseBatchSize();
}

}  // namespace syncscope::engine
