// BspPolicy (see bsp_policy.h). A gradient on an older version (a worker that was mid-iteration
// when the mode became bsp) is dropped, and that worker is sent the current version at once.
#include "engine/ps/bsp_policy.h"

#include <algorithm>

namespace syncscope::engine {

void BspPolicy::onGradient(const GradientIn& g) {
    const uint64_t version = m_context.version();
    if (g.baseVersion != version) {
        m_context.dropGradient(g.worker, g.baseVersion,
                               "computed on version " + std::to_string(g.baseVersion) + ", bsp round is at " +
                                   std::to_string(version));
        return;
    }
    if (!m_contributed.insert(g.worker).second) {
        m_context.dropGradient(g.worker, g.baseVersion, "second gradient in one bsp round");
        return;
    }
    const size_t n = m_context.parameterCount();
    if (m_sum.empty())
        m_sum.assign(g.data, g.data + n);
    else
        for (size_t i = 0; i < n; ++i) m_sum[i] += g.data[i];
    wire::Contribution c;
    c.set_worker_id(g.worker);
    c.set_base_version(g.baseVersion);
    c.set_staleness(0);
    c.set_batch_size(g.batchSize);
    if (WorkerRecord* w = m_context.workers().find(g.worker)) c.set_clock(w->clock);
    m_contributions.push_back(std::move(c));
}

void BspPolicy::onWaiting(uint32_t worker) {
    // A worker with nothing in this round needs the current version to compute its gradient.
    if (!m_contributed.count(worker)) {
        m_context.release(worker);
        return;
    }
    completeRoundIfReady();
}

void BspPolicy::reconsider() {
    for (auto& [id, w] : m_context.workers().all())
        if (w.waiting && !m_contributed.count(id)) m_context.release(id);
    completeRoundIfReady();
}

void BspPolicy::completeRoundIfReady() {
    if (m_contributions.empty()) return;
    const std::vector<uint32_t> active = m_context.workers().participantIds();
    const bool everyone = std::all_of(active.begin(), active.end(), [&](uint32_t id) { return m_contributed.count(id); });
    if (!everyone) return;
    applyAverage();
    const std::set<uint32_t> released = std::move(m_contributed);
    clearRound();
    for (uint32_t id : released)
        if (WorkerRecord* w = m_context.workers().find(id); w && w->waiting) m_context.release(id);
}

void BspPolicy::drain(bool apply) {
    if (m_contributions.empty()) return;
    if (apply) {
        applyAverage();
    } else {
        for (const auto& c : m_contributions) m_context.dropGradient(c.worker_id(), c.base_version(), "run stopped");
    }
    const std::set<uint32_t> held = std::move(m_contributed);
    clearRound();
    for (uint32_t id : held)
        if (WorkerRecord* w = m_context.workers().find(id); w && w->waiting) m_context.release(id);
}

void BspPolicy::applyAverage() {
    const float inverse = 1.0f / static_cast<float>(m_contributions.size());
    for (float& g : m_sum) g *= inverse;  // the sum becomes the average in place; the round ends here
    m_context.applyUpdate(m_sum.data(), m_contributions, 1.0f);
}

void BspPolicy::clearRound() {
    m_sum.clear();
    m_contributions.clear();
    m_contributed.clear();
}

}  // namespace syncscope::engine
