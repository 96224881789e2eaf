// KAsyncPolicy: n-softsync (Zhang et al.). No worker ever waits; gradients from anyone, stale
// ones included, are collected, and after every K of them their average (each scaled by its
// staleness modulation) is applied as one update. With N workers the mean staleness is about
// N/K. K=1 is asp.
#pragma once

#include <vector>

#include "engine/policy/sync_policy.h"

namespace syncscope::engine {

class KAsyncPolicy final : public SyncPolicy {
public:
    KAsyncPolicy(PolicyContext& context, const wire::ModeSettings& settings)
        : m_context(context), m_settings(settings), m_sum(context.newSum()) {}

    void onGradient(const GradientIn& gradient) override;
    void onWaiting(uint32_t worker) override { m_context.release(worker); }
    void reconsider() override;
    uint64_t pending() const override { return m_contributions.size(); }
    void drain(bool apply) override;
    /// K among `participants` workers: `k`, or for 0 N/2 (n-softsync with n = 2), at least 1.
    static size_t gradientsPerUpdate(uint32_t k, size_t participants);

private:
    size_t k() const;
    void apply();

    PolicyContext& m_context;
    wire::ModeSettings m_settings;
    GradientAccumulator m_sum;  ///< sum of modulation x gradient
    std::vector<wire::Contribution> m_contributions;
};

}  // namespace syncscope::engine
