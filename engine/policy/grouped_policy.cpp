// GroupedPolicy (see grouped_policy.h). A gradient that is not on its group's pinned version (in
// flight when the mode or the grouping changed, or from a worker that was lost and came back)
// is dropped, and the worker is released into the group's current round.
#include "engine/policy/grouped_policy.h"

#include <algorithm>
#include <limits>

#include "engine/policy/grouping.h"
#include "engine/policy/lr_modulation.h"
#include "engine/plan/mode_catalog.h"

namespace syncscope::engine {

GroupedPolicy::GroupedPolicy(PolicyContext& context, const wire::ModeSettings& settings)
    : m_context(context),
      m_settings(settings),
      m_plannedGroups(plannedGroupCount(settings.group_count(), settings.group_by(), settings.assignment())) {
    const auto groups =
        assignGroups(context.workers(), settings.group_count(), settings.group_by(), settings.assignment());
    for (const auto& [id, group] : groups) {
        m_context.workers().find(id)->group = group;
        m_assigned.insert(id);
        m_groupCount = std::max(m_groupCount, group + 1);
    }
    if (groups.empty()) m_groupCount = m_plannedGroups;
    m_speedKnown = !groups.empty() && allMeasured();
}

bool GroupedPolicy::allMeasured() const {
    for (const auto& [id, w] : m_context.workers().all())
        if (w.participating() && (w.computeSpeed <= 0 || w.pushed < 5)) return false;
    return true;
}

void GroupedPolicy::onTick() {
    if (m_settings.group_by() != wire::GROUP_BY_SPEED || !allMeasured()) return;
    const auto groups = assignGroups(m_context.workers(), m_settings.group_count(), wire::GROUP_BY_SPEED, {});
    if (m_speedKnown) {
        const double best = speedSeparation(m_context.workers(), groups);
        const double now = speedSeparation(m_context.workers(), currentGroups(m_context.workers()));
        const bool better = best >= kRegroupSeparation && best >= now * kRegroupSeparation;
        m_betterTicks = better ? m_betterTicks + 1 : 0;
        if (m_betterTicks < kRegroupTicks) return;
    }
    m_speedKnown = true;
    m_betterTicks = 0;
    bool same = true;
    for (const auto& [id, group] : groups) same = same && m_context.workers().find(id)->group == group;
    if (same) return;
    drain(true);  // a version boundary: partial rounds are applied, their members released
    m_rounds.clear();
    for (const auto& [id, group] : groups) {
        m_context.workers().find(id)->group = group;
        m_groupCount = std::max(m_groupCount, group + 1);
    }
    m_context.announce(wire::EVENT_GROUPS, "regrouped by measured speed: " + describeGroups(m_context.workers()));
    reconsider();
}

uint64_t GroupedPolicy::pending() const {
    uint64_t n = 0;
    for (const auto& [group, round] : m_rounds) n += round.contributions.size();
    return n;
}

void GroupedPolicy::assignNewcomers() {
    for (uint32_t id : m_context.workers().participantIds()) {
        if (m_assigned.count(id)) continue;
        // Up to the groups asked for: a run that formed fewer (fewer workers had started) fills them now.
        std::vector<size_t> sizes(std::max(m_groupCount, m_plannedGroups), 0);
        for (const auto& [other, w] : m_context.workers().all()) {
            if (other == id || !w.active()) continue;
            if (m_assigned.count(other))
                sizes[w.group] += w.participating();
            else  // still starting: it will want its own group
                ++sizes[ownGroup(other, uint32_t(sizes.size()), m_settings.group_by(), m_settings.assignment())];
        }
        const uint32_t group = newcomerGroup(id, sizes, m_settings.group_by(), m_settings.assignment());
        m_context.workers().find(id)->group = group;
        m_groupCount = std::max(m_groupCount, group + 1);
        m_assigned.insert(id);
        m_context.announce(wire::EVENT_GROUPS, "worker " + std::to_string(id) + " joins group " + std::to_string(group) +
                                         ": " + describeGroups(m_context.workers()));
    }
}

void GroupedPolicy::onGradient(const GradientIn& g) {
    WorkerRecord* w = m_context.workers().find(g.worker);
    const uint32_t group = w ? w->group : 0;
    if (m_settings.intra_group_ssp()) {
        const uint64_t staleness = m_context.version() - g.baseVersion;
        m_context.applyUpdate(g, {makeContribution(m_context, g, staleness, 1.0f)},
                              modulatedLearningRate(1.0f, staleness, m_settings.lr_modulation()));
        reconsider();  // the slowest member's clock may have moved
        return;
    }
    if (const std::string why = admit(group, g.baseVersion, {g.worker}); !why.empty()) {
        m_context.dropGradient(g, why);
        return;
    }
    Round& round = m_rounds[group];
    if (round.sum.empty()) round.sum = m_context.newSum();
    round.sum.add(g, static_cast<float>(g.batchSize));
    join(round, g);
}

void GroupedPolicy::join(Round& round, const GradientIn& g) {
    round.samples += g.batchSize;
    round.contributed.insert(g.worker);
    round.contributions.push_back(makeContribution(m_context, g, 0, 0.0f));  // staleness, weight: at apply
}

void GroupedPolicy::onGradientSum(const GradientSum& sum) {
    std::vector<uint32_t> workers;
    std::string why;
    for (const GradientIn& g : sum.members) {
        workers.push_back(g.worker);
        const WorkerRecord* w = m_context.workers().find(g.worker);
        if (!w || w->group != sum.group)  // regrouped while the sum was on its way
            why = "summed for group " + std::to_string(sum.group) + ", and worker " + std::to_string(g.worker) +
                  " is in group " + (w ? std::to_string(w->group) : std::string("none")) + " now";
    }
    if (why.empty()) why = admit(sum.group, sum.baseVersion, workers);
    if (!why.empty()) {
        for (const GradientIn& g : sum.members) m_context.dropGradient(g, why + " (in a group aggregator's sum)");
        return;
    }
    Round& round = m_rounds[sum.group];
    if (round.sum.empty()) round.sum = m_context.newSum();
    round.sum.add(sum);  // already batch x gradient
    for (const GradientIn& g : sum.members) join(round, g);
}

std::string GroupedPolicy::admit(uint32_t group, uint64_t baseVersion, const std::vector<uint32_t>& workers) {
    Round& round = m_rounds[group];
    if (!round.open && baseVersion == m_context.version()) {  // an in-flight gradient can open a round
        round.open = true;
        round.model = m_context.pin();
    }
    if (!round.open || baseVersion != round.model.version)
        return "computed on version " + std::to_string(baseVersion) + ", group " + std::to_string(group) +
               "'s round is on " + (round.open ? "version " + std::to_string(round.model.version) : std::string("none yet"));
    std::set<uint32_t> seen;
    for (uint32_t worker : workers)
        if (round.contributed.count(worker) || !seen.insert(worker).second) return "second gradient in one group round";
    return {};
}

bool GroupedPolicy::mayRunSsp(const WorkerRecord& worker) const {
    uint64_t least = std::numeric_limits<uint64_t>::max();
    for (const auto& [id, w] : m_context.workers().all())
        if (w.participating() && w.group == worker.group) least = std::min(least, w.clock);
    return least == std::numeric_limits<uint64_t>::max() || worker.clock <= least + m_settings.staleness_bound();
}

void GroupedPolicy::releaseIntoRound(WorkerRecord& w) {
    if (m_settings.intra_group_ssp()) {
        if (mayRunSsp(w)) m_context.release(w.id);
        return;
    }
    Round& round = m_rounds[w.group];
    if (!round.open) {
        round.open = true;
        round.model = m_context.pin();
    }
    m_context.releaseAt(w.id, round.model);
}

void GroupedPolicy::onWaiting(uint32_t worker) {
    assignNewcomers();
    WorkerRecord* w = m_context.workers().find(worker);
    if (!w) return;
    if (!m_settings.intra_group_ssp() && m_rounds[w->group].contributed.count(worker))
        completeIfReady(w->group);
    else
        releaseIntoRound(*w);
}

void GroupedPolicy::reconsider() {
    assignNewcomers();
    for (auto& [id, w] : m_context.workers().all()) {
        if (!w.waiting || !w.active()) continue;
        if (m_settings.intra_group_ssp() || !m_rounds[w.group].contributed.count(id)) releaseIntoRound(w);
    }
    if (!m_settings.intra_group_ssp())
        for (uint32_t group = 0; group < m_groupCount; ++group) completeIfReady(group);
}

void GroupedPolicy::completeIfReady(uint32_t group) {
    Round& round = m_rounds[group];
    if (round.contributions.empty()) return;
    for (uint32_t id : m_context.workers().participantIds())
        if (m_context.workers().find(id)->group == group && !round.contributed.count(id)) return;
    applyRound(group);
    releaseHeld(round);
}

void GroupedPolicy::applyRound(uint32_t group) {
    Round& round = m_rounds[group];
    const uint64_t staleness = m_context.version() - round.model.version;
    round.sum.scale(static_cast<float>(1.0 / round.samples));
    for (auto& c : round.contributions) {
        c.set_staleness(static_cast<uint32_t>(staleness));
        c.set_weight(static_cast<float>(c.batch_size() / round.samples));
    }
    m_context.applyUpdate(round.sum, round.contributions,
                          modulatedLearningRate(1.0f, staleness, m_settings.lr_modulation()));
}

void GroupedPolicy::releaseHeld(Round& round) {
    const std::set<uint32_t> held = std::move(round.contributed);
    round = Round{};  // closed: the next member to go pins the central model's version then
    for (uint32_t id : held)
        if (WorkerRecord* w = m_context.workers().find(id); w && w->waiting && w->active()) releaseIntoRound(*w);
}

void GroupedPolicy::drain(bool apply) {
    for (auto& [group, round] : m_rounds) {
        if (round.contributions.empty()) continue;
        if (apply)
            applyRound(group);
        else
            for (const auto& c : round.contributions) m_context.dropGradient(c, "run stopped");
        const std::set<uint32_t> held = std::move(round.contributed);
        round = Round{};
        for (uint32_t id : held) m_context.release(id);  // the next policy decides from the current version
    }
}

}  // namespace syncscope::engine
