// ElasticPolicy: batch sizes in proportion to measured speed (LB-BSP; Falcon's EPSP). Every
// rebalancing period each worker's batch is set to its share of N x the run's batch by its
// samples per second of compute, so all arrive together; the samples a straggler no longer
// computes are handed to the fast workers through their larger batches. The barrier is BSP
// (enforced) or SSP with bound s (slack); gradients are weighted by batch size.
#pragma once

#include <memory>

#include "engine/policy/sync_policy.h"
#include "engine/policy/worker_registry.h"

namespace syncscope::engine {

class ElasticPolicy final : public SyncPolicy {
public:
    ElasticPolicy(PolicyContext& context, const wire::ModeSettings& settings);

    void onGradient(const GradientIn& gradient) override { m_barrier->onGradient(gradient); }
    void onWaiting(uint32_t worker) override { m_barrier->onWaiting(worker); }
    void reconsider() override { m_barrier->reconsider(); }
    uint64_t pending() const override { return m_barrier->pending(); }
    /// Also gives every worker the run's batch size back.
    void drain(bool apply) override;
    void onTick() override;

private:
    void rebalance();

    PolicyContext& m_context;
    wire::ModeSettings m_settings;
    std::unique_ptr<SyncPolicy> m_barrier;
    Clock::time_point m_lastRebalance;
};

}  // namespace syncscope::engine
