// BspPolicy (see bsp_policy.h). A gradient on an older version (a worker that was mid-iteration
// when the mode changed, or one too late for a ksync round) is dropped, and that worker is sent
// the current version at once.
#include "engine/policy/bsp_policy.h"

#include <algorithm>

namespace syncscope::engine {

std::string BspPolicy::refusal(uint64_t baseVersion, const std::vector<uint32_t>& workers) const {
    const uint64_t version = m_context.version();
    const char* mode = m_quorum ? "ksync" : "bsp";
    if (baseVersion != version && workers.size() == 1)
        if (auto handed = m_handedOff.find(workers.front()); handed != m_handedOff.end() && handed->second == baseVersion)
            return "its batch on version " + std::to_string(baseVersion) +
                   " was handed to workers that were waiting (elastic), and that round closed without it";
    if (baseVersion != version && workers.size() == 1)
        if (auto share = m_unneededShares.find(workers.front()); share != m_unneededShares.end() && share->second == baseVersion)
            return "a share of a late worker's batch on version " + std::to_string(baseVersion) +
                   ", not needed: that worker's own gradient came in time (elastic)";
    if (baseVersion != version)
        return std::string(m_quorum ? "late: " : "") + "computed on version " + std::to_string(baseVersion) +
               ", the " + mode + " round is at " + std::to_string(version);
    std::set<uint32_t> seen;
    for (uint32_t worker : workers)
        if ((m_contributed.count(worker) && !m_shares.count(worker)) || !seen.insert(worker).second)
            return std::string("second gradient in one ") + mode + " round";
    return {};
}

void BspPolicy::addContribution(const GradientIn& g) {
    m_samples += g.batchSize;
    if (m_contributed.count(g.worker)) m_shares.erase(g.worker);  // its share of a late worker's batch
    m_contributed.insert(g.worker);
    // Late, but in time: once every late worker's gradient is in, the round stops waiting for the
    // shares (an update now beats a larger one later; the shares are dropped when they come).
    if (m_excused.erase(g.worker) && m_excused.empty()) {
        for (const auto& [worker, samples] : m_shares) m_unneededShares[worker] = m_context.version();
        m_shares.clear();
    }
    m_contributions.push_back(makeContribution(m_context, g, 0, 0.0f));  // weight: when the round closes
}

void BspPolicy::noteArrival(uint32_t worker, bool dropped) {
    m_handedOff.erase(worker);  // its late gradient (or share) has come
    m_unneededShares.erase(worker);
    // Dropped while excused from this round, it is sent this version now, and the round does not wait for it.
    if (dropped && m_excused.count(worker)) m_handedOff[worker] = m_context.version();
}

void BspPolicy::onGradient(const GradientIn& g) {
    const std::string why = refusal(g.baseVersion, {g.worker});
    noteArrival(g.worker, !why.empty());
    if (!why.empty()) {
        m_context.dropGradient(g, why);
        return;
    }
    m_sum.add(g, static_cast<float>(g.batchSize));
    addContribution(g);
    if (m_quorum) completeRoundIfReady();  // the K-th gradient closes the round, whoever waits
}

void BspPolicy::onGradientSum(const GradientSum& sum) {
    std::vector<uint32_t> workers;
    for (const GradientIn& g : sum.members) workers.push_back(g.worker);
    const std::string why = refusal(sum.baseVersion, workers);
    for (uint32_t worker : workers) noteArrival(worker, !why.empty());
    if (!why.empty()) {
        for (const GradientIn& g : sum.members) m_context.dropGradient(g, why + " (in a group aggregator's sum)");
        return;
    }
    m_sum.add(sum);  // already batch x gradient
    for (const GradientIn& g : sum.members) addContribution(g);
}

void BspPolicy::onWaiting(uint32_t worker) {
    // A worker with nothing in this round needs the current version to compute its gradient; so does
    // one with a share of a late worker's batch that could not be sent (paused, moving).
    if (!m_contributed.count(worker) || m_shares.count(worker)) {
        m_context.release(worker);
        return;
    }
    completeRoundIfReady();
}

void BspPolicy::reconsider() {
    for (auto& [id, w] : m_context.workers().all())
        if (w.waiting && (!m_contributed.count(id) || m_shares.count(id))) m_context.release(id);
    for (auto it = m_shares.begin(); it != m_shares.end();) {  // a lost worker's share never comes
        const WorkerRecord* w = m_context.workers().find(it->first);
        it = w && w->participating() ? std::next(it) : m_shares.erase(it);
    }
    completeRoundIfReady();
}

void BspPolicy::handOff(const std::vector<uint32_t>& late, const std::map<uint32_t, uint32_t>& shares) {
    m_excused.insert(late.begin(), late.end());
    for (uint32_t id : late) m_handedOff.emplace(id, m_context.version());  // the first: a worker late for
                                                                            // two rounds computes on the first
    for (const auto& [worker, samples] : shares) m_shares[worker] += samples;
}

bool BspPolicy::roundReady() const {
    if (m_contributions.empty()) return false;
    const std::vector<uint32_t> active = m_context.workers().participantIds();
    if (m_quorum) return m_contributions.size() >= quorum(*m_quorum, active.size());
    // Every participant (one that joined mid-round holds the round), but for late workers whose
    // batch was handed off, once the shares are in.
    return m_shares.empty() && std::all_of(active.begin(), active.end(), [&](uint32_t id) {
               return m_contributed.count(id) || m_excused.count(id);
           });
}

size_t BspPolicy::quorum(uint32_t k, size_t participants) {
    const size_t n = k ? k : (participants >= 4 ? participants - 1 : participants);
    return std::max<size_t>(1, std::min(n, participants));
}

void BspPolicy::completeRoundIfReady() {
    if (!roundReady()) return;
    applyAverage();
    releaseHeld();
}

void BspPolicy::drain(bool apply) {
    if (m_contributions.empty()) return;
    if (apply) {
        applyAverage();
    } else {
        for (const auto& c : m_contributions) m_context.dropGradient(c, "run stopped");
    }
    releaseHeld();
}

void BspPolicy::applyAverage() {
    m_sum.scale(static_cast<float>(1.0 / m_samples));  // the weighted sum becomes the average in place
    for (auto& c : m_contributions) c.set_weight(static_cast<float>(c.batch_size() / m_samples));
    m_context.applyUpdate(m_sum, m_contributions, 1.0f);
}

void BspPolicy::releaseHeld() {
    m_excused.clear();
    m_shares.clear();
    const std::set<uint32_t> held = std::move(m_contributed);
    m_sum.clear();
    m_samples = 0;
    m_contributions.clear();
    m_contributed.clear();
    for (uint32_t id : held)
        if (WorkerRecord* w = m_context.workers().find(id); w && w->waiting) m_context.release(id);
}

}  // namespace syncscope::engine
