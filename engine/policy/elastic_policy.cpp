// ElasticPolicy (see elastic_policy.h).
#include "engine/policy/elastic_policy.h"

#include <algorithm>
#include <cmath>

#include "engine/net/protocol.h"
#include "engine/policy/async_policy.h"
#include "engine/policy/bsp_policy.h"
#include "engine/plan/mode_catalog.h"

namespace syncscope::engine {

ElasticPolicy::ElasticPolicy(PolicyContext& context, const wire::ModeSettings& settings)
    : m_context(context), m_settings(settings), m_lastRebalance(context.now()) {
    if (settings.elastic_slack())
        m_barrier = std::make_unique<AsyncPolicy>(context, settings, settings.staleness_bound(), true);
    else
        m_barrier = std::make_unique<BspPolicy>(context, std::nullopt);
}

void ElasticPolicy::onTick() {
    const double period = modeSeconds(m_settings, "rebalance_seconds");
    if (std::chrono::duration<double>(m_context.now() - m_lastRebalance).count() < period) return;
    m_lastRebalance = m_context.now();
    rebalance();
}

void ElasticPolicy::rebalance() {
    // Each worker's median speed over its last pushes: a process preempted for one iteration (the
    // cores are shared) would drag a mean down.
    const std::vector<uint32_t> ids = m_context.workers().participantIds();
    std::vector<double> speeds;
    double totalSpeed = 0;
    for (uint32_t id : ids) {
        speeds.push_back(m_context.workers().find(id)->computeSpeed);
        totalSpeed += speeds.back();
    }
    const bool measured = std::all_of(speeds.begin(), speeds.end(), [](double s) { return s > 0; });
    if (!measured || ids.size() < 2) return;  // keep the sizes and the counts until everyone has pushed
    const uint32_t base = m_context.baseBatchSize();
    const double total = static_cast<double>(base) * ids.size();
    const uint32_t least = std::max<uint32_t>(1, base / kElasticBatchRange), most = base * kElasticBatchRange;
    std::string detail;
    bool changed = false;
    for (size_t i = 0; i < ids.size(); ++i) {
        WorkerRecord& w = *m_context.workers().find(ids[i]);
        // Moved only when more than 4% away: the speeds are medians of noisy iterations (other
        // processes share the cores), and sizes that follow every wiggle churn the workers.
        const double target = std::clamp<double>(total * speeds[i] / totalSpeed, least, most);
        if (std::abs(target - w.batchSize) > 0.04 * w.batchSize) {
            w.batchSize = static_cast<uint32_t>(std::lround(target));
            changed = true;
        }
        if (!detail.empty()) detail += ' ';
        detail += std::to_string(ids[i]);
        detail += ':';
        detail += std::to_string(w.batchSize);
    }
    if (changed) m_context.announce(wire::EVENT_BATCH, "batch sizes by speed " + detail);
}

void ElasticPolicy::drain(bool apply) {
    m_barrier->drain(apply);
    for (auto& [id, w] : m_context.workers().all()) w.batchSize = m_context.baseBatchSize();
}

}  // namespace syncscope::engine
