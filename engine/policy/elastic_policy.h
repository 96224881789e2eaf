// ElasticPolicy: batch sizes by measured speed (LB-BSP; Falcon's EPSP). Every rebalancing period
// the N x run's batch samples of a round are shared out so that every worker's iteration takes as
// long (its ComputeTimeModel, a fixed part and a part per sample, and its typical communication
// time), so all arrive together; the
// samples a straggler no longer computes are handed to the fast workers through their larger
// batches. The barrier is BSP (enforced) or SSP with bound s (slack); gradients are weighted by batch
// size.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "engine/policy/sync_policy.h"
#include "engine/policy/worker_registry.h"

namespace syncscope::engine {

/// The batches of `ids` (all measured) that make their iteration times equal, together ids.size() x
/// `base`, each within [base / kElasticBatchRange, base x kElasticBatchRange] (a worker held at a
/// bound leaves the others to share the rest). Not rounded. The policy and its prediction use it.
std::map<uint32_t, double> balancedBatches(const WorkerRegistry& workers, const std::vector<uint32_t>& ids,
                                           uint32_t base);

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
    std::map<uint32_t, int> m_lastMove;  ///< each worker's last change of batch: +1 up, -1 down
};

}  // namespace syncscope::engine
