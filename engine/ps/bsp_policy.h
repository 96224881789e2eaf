// BspPolicy: bulk-synchronous SGD. One gradient from every active worker, all on the current
// version, averaged into one update; each worker waits at the barrier until then.
#pragma once

#include <set>
#include <vector>

#include "engine/ps/sync_policy.h"

namespace syncscope::engine {

class BspPolicy final : public SyncPolicy {
public:
    explicit BspPolicy(PolicyContext& context) : m_context(context) {}

    void onGradient(const GradientIn& gradient) override;
    void onWaiting(uint32_t worker) override;
    void reconsider() override;
    uint64_t pending() const override { return m_contributions.size(); }
    void drain(bool apply) override;

private:
    void completeRoundIfReady();
    void applyAverage();
    void clearRound();

    PolicyContext& m_context;
    std::vector<float> m_sum;
    std::vector<wire::Contribution> m_contributions;
    std::set<uint32_t> m_contributed;
};

}  // namespace syncscope::engine
