// BspPolicy: bulk-synchronous SGD, and its backup-worker variant ksync (Chen et al.). One
// gradient per worker, all on the current version, averaged (weighted by batch size) into one
// update. BSP waits for every active worker; ksync for the first K, and drops the late ones. Elastic
// (Falcon's hand-off) can let BSP's round stop waiting for a late worker and take the same samples
// from workers that have pushed.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/policy/sync_policy.h"

namespace syncscope::engine {

class BspPolicy final : public SyncPolicy {
public:
    /// quorum: ksync's K (0: N-1 from 4 workers on, else N); none: every participating worker (bsp).
    BspPolicy(PolicyContext& context, std::optional<uint32_t> quorum)
        : m_context(context), m_quorum(quorum), m_sum(context.newSum()) {}

    void onGradient(const GradientIn& gradient) override;
    /// bsp only: ksync takes the first K gradients, which a sum held back for its slowest member
    /// would change.
    bool takesSums() const override { return !m_quorum; }
    /// ksync's K among `participants` workers: `k` (at most all of them), or for 0 one backup worker
    /// (N-1) from 4 workers on, below that every worker.
    static size_t quorum(uint32_t k, size_t participants);
    void onGradientSum(const GradientSum& sum) override;
    void onWaiting(uint32_t worker) override;
    void reconsider() override;
    uint64_t pending() const override { return m_contributions.size(); }
    void drain(bool apply) override;

    // Elastic's hand-off of late work (Falcon), bsp only.
    /// Whether `worker` has a gradient in this round.
    bool contributed(uint32_t worker) const { return m_contributed.count(worker) > 0; }
    /// Whether `worker` computes a share of a late worker's batch for this round.
    bool owesShare(uint32_t worker) const { return m_shares.count(worker) > 0; }
    /// The round no longer waits for `late` (participants with no gradient in it) but for `shares`
    /// (worker -> samples), second gradients on this version from workers that have pushed theirs.
    /// A late worker's own gradient is still taken while the round is open, and once every late
    /// worker's is, the shares are no longer waited for (dropped as not needed when they come); after
    /// the round, a late gradient is dropped as handed off.
    void handOff(const std::vector<uint32_t>& late, const std::map<uint32_t, uint32_t>& shares);

private:
    /// Why gradients on `baseVersion` from `workers` cannot join this round; empty: they can.
    std::string refusal(uint64_t baseVersion, const std::vector<uint32_t>& workers) const;
    void addContribution(const GradientIn& gradient);
    /// A gradient of `worker` has come (and was `dropped` or not): the hand-off's bookkeeping.
    void noteArrival(uint32_t worker, bool dropped);
    bool roundReady() const;
    void completeRoundIfReady();
    void applyAverage();
    void releaseHeld();

    PolicyContext& m_context;
    std::optional<uint32_t> m_quorum;
    GradientAccumulator m_sum;  ///< sum of batch x gradient
    double m_samples = 0;      ///< sum of batch sizes
    std::vector<wire::Contribution> m_contributions;
    std::set<uint32_t> m_contributed;
    std::set<uint32_t> m_excused;            ///< late workers whose batch was handed off this round
    std::map<uint32_t, uint32_t> m_shares;   ///< hand-off shares not pushed yet: worker -> samples
    std::map<uint32_t, uint64_t> m_unneededShares;  ///< worker -> the version of its share the round closed without
    std::map<uint32_t, uint64_t> m_handedOff;  ///< worker -> the version its batch was handed off on, until it pushes
};

}  // namespace syncscope::engine
