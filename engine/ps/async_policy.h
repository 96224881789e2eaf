// AsyncPolicy: ASP and SSP. Every gradient is applied on arrival, its learning rate modulated
// by staleness; with a bound s (SSP) a worker more than s clocks ahead of the slowest waits.
#pragma once

#include <optional>

#include "engine/ps/sync_policy.h"

namespace syncscope::engine {

class AsyncPolicy final : public SyncPolicy {
public:
    /// bound: SSP's s; none for ASP.
    AsyncPolicy(PolicyContext& context, std::optional<uint64_t> bound) : m_context(context), m_bound(bound) {}

    void onGradient(const GradientIn& gradient) override;
    void onWaiting(uint32_t worker) override;
    void reconsider() override;
    uint64_t pending() const override { return 0; }
    void drain(bool) override {}

private:
    bool mayRun(const WorkerRecord& worker) const;

    PolicyContext& m_context;
    std::optional<uint64_t> m_bound;
};

}  // namespace syncscope::engine
