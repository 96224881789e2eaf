// GroupedPolicy: hybrid synchronisation (Basu et al.). Workers form G groups; inside a group BSP
// (or SSP with bound s), between groups asynchronous. A BSP group works like a group parameter
// server: a round pins the central parameters of one version, every member computes on exactly
// that version, and the members' batch-weighted average goes to the central model as one update
// with staleness = central version - pinned version (learning rate modulated by it).
// G=1 is bsp; G=N is asp.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/policy/sync_policy.h"

namespace syncscope::engine {

class GroupedPolicy final : public SyncPolicy {
public:
    GroupedPolicy(PolicyContext& context, const wire::ModeSettings& settings);

    void onGradient(const GradientIn& gradient) override;
    /// With bsp inside groups: a group aggregator sums one group's round.
    bool takesSums() const override { return !m_settings.intra_group_ssp(); }
    void onGradientSum(const GradientSum& sum) override;
    void onWaiting(uint32_t worker) override;
    void reconsider() override;
    uint64_t pending() const override;
    void drain(bool apply) override;
    /// By speed: once every worker has been measured, the groups are formed again by speed; later,
    /// again whenever the measured speeds separate clearly better than the groups do (a first
    /// measurement taken under load, a worker slowed or recovered), seen on kRegroupTicks ticks in a row.
    void onTick() override;

    /// A regrouping by speed must separate the workers at least this well (slowest of one group /
    /// fastest of the next), and this many times better than the groups in place.
    static constexpr double kRegroupSeparation = 1.5;
    static constexpr int kRegroupTicks = 5;

private:
    bool allMeasured() const;
    struct Round {
        bool open = false;  ///< parameters pinned; members compute on `version`
        PinnedModel model;                  ///< the version its members compute on
        GradientAccumulator sum{0, false};  ///< sum of batch x gradient (made when the first arrives)
        double samples = 0;
        std::vector<wire::Contribution> contributions;
        std::set<uint32_t> contributed;
    };

    /// Opens the group's round when none is (an in-flight gradient can open one) and says why
    /// gradients of `workers` on `baseVersion` cannot join it; empty: they can.
    std::string admit(uint32_t group, uint64_t baseVersion, const std::vector<uint32_t>& workers);
    void join(Round& round, const GradientIn& gradient);
    void assignNewcomers();
    void releaseIntoRound(WorkerRecord& worker);
    void completeIfReady(uint32_t group);
    void applyRound(uint32_t group);
    void releaseHeld(Round& round);
    bool mayRunSsp(const WorkerRecord& worker) const;

    PolicyContext& m_context;
    wire::ModeSettings m_settings;
    uint32_t m_plannedGroups;   ///< asked for (plannedGroupCount)
    uint32_t m_groupCount = 1;  ///< formed: groups 0..m_groupCount-1 may have members
    std::map<uint32_t, Round> m_rounds;
    std::set<uint32_t> m_assigned;
    bool m_speedKnown = false;  ///< groups were formed from measured speeds
    int m_betterTicks = 0;      ///< ticks in a row on which the speeds called for other groups
};

}  // namespace syncscope::engine
