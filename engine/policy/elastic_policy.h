// ElasticPolicy: batch sizes by measured speed (LB-BSP; Falcon's EPSP). Every rebalancing period
// the N x run's batch samples of a round are shared out so that every worker's iteration takes as
// long (its ComputeTimeModel, a fixed part and a part per sample, and its typical communication
// time), so all arrive together; the
// samples a straggler no longer computes are handed to the fast workers through their larger
// batches. The barrier is BSP (enforced) or SSP with bound s (slack); gradients are weighted by batch
// size. Between rebalancings, a worker slowed for a while (Falcon's "blocked task") would hold the
// enforced barrier: once it is kHandOffAfter x its expected iteration late, everyone else waits and
// the late are fewer than those waiting, its batch's samples are shared out among the waiting workers
// (by their speeds), computed on the same version, and the
// round closes with them; its own gradient, when it comes after that, is dropped as handed off
// (ModeSettings.elastic_wait_for_late turns this off).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/policy/sync_policy.h"
#include "engine/policy/worker_registry.h"

namespace syncscope::engine {

/// The batches of `ids` (all measured) that make their iteration times equal, together ids.size() x
/// `base`, each within [base / kElasticBatchRange, base x kElasticBatchRange] (a worker held at a
/// bound leaves the others to share the rest). Not rounded. The policy and its prediction use it.
/// How late a worker is, as a multiple of its expected iteration (its fitted compute line at its
/// batch plus its typical communication), before its batch is handed off.
constexpr double kHandOffAfter = 2.0;

class BspPolicy;

std::map<uint32_t, double> balancedBatches(const WorkerRegistry& workers, const std::vector<uint32_t>& ids,
                                           uint32_t base);

class ElasticPolicy final : public SyncPolicy {
public:
    ElasticPolicy(PolicyContext& context, const wire::ModeSettings& settings);

    void onGradient(const GradientIn& gradient) override { m_barrier->onGradient(gradient); }
    void onWaiting(uint32_t worker) override {
        m_barrier->onWaiting(worker);
        handOffLateWork();
    }
    void reconsider() override { m_barrier->reconsider(); }
    uint64_t pending() const override { return m_barrier->pending(); }
    /// Also gives every worker the run's batch size back.
    void drain(bool apply) override;
    void onTick() override;
    std::optional<Clock::time_point> timerDue() const override;
    void onTimer() override { handOffLateWork(); }

private:
    void rebalance();
    /// A round held only by workers still computing their batch (every other has pushed and waits, and
    /// owes no share): who waits, who holds it, and when the last of those is kHandOffAfter late.
    struct HeldRound {
        std::vector<uint32_t> waiting, holding;
        Clock::time_point due;
    };
    std::optional<HeldRound> heldRound() const;
    /// The hand-off (see above), once a held round is due.
    void handOffLateWork();
    void reportHandOff(const std::string& detail, uint32_t samples);

    PolicyContext& m_context;
    wire::ModeSettings m_settings;
    std::unique_ptr<SyncPolicy> m_barrier;
    BspPolicy* m_bsp = nullptr;  ///< m_barrier, when enforced and handing off late work
    Clock::time_point m_lastRebalance;
    std::map<uint32_t, int> m_lastMove;  ///< each worker's last change of batch: +1 up, -1 down
    /// Hand-offs are reported at most once a kHandOffReportSeconds, with a count of those not reported.
    static constexpr double kHandOffReportSeconds = 5.0;
    std::optional<Clock::time_point> m_lastHandOffReport;
    uint32_t m_unreportedHandOffs = 0, m_unreportedSamples = 0;
};

}  // namespace syncscope::engine
