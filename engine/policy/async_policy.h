// AsyncPolicy: ASP and SSP. Every gradient is applied on arrival, its learning rate modulated
// by staleness; with a bound s (SSP) a worker more than s clocks ahead of the slowest waits.
// Elastic's slack barrier uses it with batch weighting: a gradient of batch b counts b/base.
#pragma once

#include <optional>

#include "engine/policy/sync_policy.h"

namespace syncscope::engine {

class AsyncPolicy final : public SyncPolicy {
public:
    /// bound: SSP's s; none for ASP.
    AsyncPolicy(PolicyContext& context, const wire::ModeSettings& settings, std::optional<uint64_t> bound,
                bool weightByBatch = false)
        : m_context(context), m_modulation(settings.lr_modulation()), m_bound(bound), m_weightByBatch(weightByBatch) {}

    void onGradient(const GradientIn& gradient) override;
    void onWaiting(uint32_t worker) override;
    void reconsider() override;
    uint64_t pending() const override { return 0; }
    void drain(bool) override {}

private:
    bool mayRun(const WorkerRecord& worker) const;

    PolicyContext& m_context;
    wire::LrModulation m_modulation;
    std::optional<uint64_t> m_bound;
    bool m_weightByBatch;
};

}  // namespace syncscope::engine
