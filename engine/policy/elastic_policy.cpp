// ElasticPolicy (see elastic_policy.h).
#include "engine/policy/elastic_policy.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "engine/net/protocol.h"
#include "engine/policy/async_policy.h"
#include "engine/policy/bsp_policy.h"
#include "engine/plan/mode_catalog.h"

namespace syncscope::engine {

ElasticPolicy::ElasticPolicy(PolicyContext& context, const wire::ModeSettings& settings)
    : m_context(context), m_settings(settings), m_lastRebalance(context.now()) {
    if (settings.elastic_slack())
        m_barrier = std::make_unique<AsyncPolicy>(context, settings, settings.staleness_bound(), true);
    else
        m_barrier = std::make_unique<BspPolicy>(context, std::nullopt);
    if (!settings.elastic_slack() && !settings.elastic_wait_for_late()) m_bsp = static_cast<BspPolicy*>(m_barrier.get());
}

std::optional<ElasticPolicy::HeldRound> ElasticPolicy::heldRound() const {
    if (!m_bsp) return std::nullopt;
    const WorkerRegistry& workers = m_context.workers();
    HeldRound round;
    bool first = true;
    for (uint32_t id : workers.participantIds()) {
        const WorkerRecord& w = workers.all().at(id);
        if (m_bsp->contributed(id)) {
            if (!w.waiting || m_bsp->owesShare(id)) return std::nullopt;
            round.waiting.push_back(id);
            continue;
        }
        // Only a worker computing, whose iteration time is known, can be late.
        if (w.waiting || !w.compute.measured() || w.assignedBatch == 0) return std::nullopt;
        const auto expected = std::chrono::duration<double, std::milli>(kHandOffAfter * w.iterationMs(w.assignedBatch));
        const Clock::time_point due = w.releasedAt + std::chrono::duration_cast<Clock::duration>(expected);
        round.due = first ? due : std::max(round.due, due);
        first = false;
        round.holding.push_back(id);
    }
    // Stragglers are the few: where as many are late as wait, the waiting ones are the outliers, and
    // would each take more than a batch of theirs to cover the rest.
    if (round.waiting.empty() || round.holding.empty() || round.holding.size() > round.waiting.size()) return std::nullopt;
    return round;
}

std::optional<Clock::time_point> ElasticPolicy::timerDue() const {
    const std::optional<HeldRound> round = heldRound();
    return round ? std::optional(round->due) : std::nullopt;
}

void ElasticPolicy::handOffLateWork() {
    const std::optional<HeldRound> round = heldRound();
    const Clock::time_point now = m_context.now();
    if (!round || now < round->due) return;
    WorkerRegistry& workers = m_context.workers();
    uint32_t samples = 0;
    std::string lateness;
    for (uint32_t id : round->holding) {
        const WorkerRecord& w = *workers.find(id);
        samples += w.batchSize;  // its part of this round (what it computes may be an earlier round's share)
        if (!lateness.empty()) lateness += ", ";
        lateness += fmt::format("worker {} ({:.0f} ms into an iteration expected to take {:.0f})", id,
                                std::chrono::duration<double, std::milli>(now - w.releasedAt).count(),
                                w.iterationMs(w.assignedBatch));
    }
    // Shared so the waiting workers finish together (by their measured speeds), each at least one
    // sample and at most the largest batch elastic gives (workers size their buffers for it).
    const std::vector<uint32_t>& waiting = round->waiting;
    const bool measured = std::all_of(waiting.begin(), waiting.end(), [&](uint32_t id) { return workers.find(id)->compute.measured(); });
    const uint32_t base = static_cast<uint32_t>((samples + waiting.size() - 1) / waiting.size());
    const std::map<uint32_t, double> balanced = measured ? balancedBatches(workers, waiting, base) : std::map<uint32_t, double>{};
    std::map<uint32_t, uint32_t> shares;
    std::string sharesText;
    for (uint32_t id : waiting) {
        const double b = measured ? balanced.at(id) : base;
        shares[id] = std::clamp<uint32_t>(static_cast<uint32_t>(std::lround(b)), 1, kElasticBatchRange * m_context.baseBatchSize());
        sharesText += fmt::format(" {}:{}", id, shares[id]);
    }
    m_bsp->handOff(round->holding, shares);
    for (const auto& [id, share] : shares) {
        workers.find(id)->handOffBatch = share;
        m_context.release(id);
    }
    reportHandOff(fmt::format("{}: {} samples to the waiting workers{}", lateness, samples, sharesText), samples);
}

void ElasticPolicy::reportHandOff(const std::string& detail, uint32_t samples) {
    ++m_unreportedHandOffs;
    m_unreportedSamples += samples;
    const Clock::time_point now = m_context.now();
    if (m_lastHandOffReport &&
        std::chrono::duration<double>(now - *m_lastHandOffReport).count() < kHandOffReportSeconds)
        return;
    std::string text = detail;
    if (m_unreportedHandOffs > 1)
        text += fmt::format(" ({} hand-offs, {} samples, since the last report)", m_unreportedHandOffs, m_unreportedSamples);
    m_context.announce(wire::EVENT_HAND_OFF, text);
    m_lastHandOffReport = now;
    m_unreportedHandOffs = m_unreportedSamples = 0;
}

void ElasticPolicy::onTick() {
    handOffLateWork();
    const double period = modeSeconds(m_settings, "rebalance_seconds");
    if (std::chrono::duration<double>(m_context.now() - m_lastRebalance).count() < period) return;
    m_lastRebalance = m_context.now();
    rebalance();
}

void ElasticPolicy::rebalance() {
    const std::vector<uint32_t> ids = m_context.workers().participantIds();
    const bool measured = std::all_of(ids.begin(), ids.end(), [&](uint32_t id) {
        return m_context.workers().find(id)->compute.measured();
    });
    if (!measured || ids.size() < 2) return;  // keep the sizes and the counts until everyone has pushed
    const std::map<uint32_t, double> target = balancedBatches(m_context.workers(), ids, m_context.baseBatchSize());
    // A rebalancing that turns a worker's size back moves everyone halfway (the round's total stays):
    // where a worker's time is not a line in its batch (a process under a CPU quota runs a small batch
    // at full speed on the quota it saved while waiting), the line fitted across two sizes overshoots
    // each way in turn, and halving each reversal narrows the swing.
    double step = 1.0;
    for (uint32_t id : ids) {
        const double move = target.at(id) - m_context.workers().find(id)->batchSize;
        if (move * m_lastMove[id] < 0) step = 0.5;
    }
    // All move or none, so the round keeps its N x batch samples; only when one is more than 4% away:
    // the times are medians of noisy iterations (other processes share the cores), and sizes that
    // follow every wiggle churn the workers.
    std::map<uint32_t, double> size;
    bool changed = false;
    for (uint32_t id : ids) {
        const double current = m_context.workers().find(id)->batchSize;
        size[id] = current + step * (target.at(id) - current);
        changed |= std::abs(size[id] - current) > 0.04 * current;
    }
    if (!changed) return;
    std::string detail;
    for (uint32_t id : ids) {
        WorkerRecord& w = *m_context.workers().find(id);
        const uint32_t next = static_cast<uint32_t>(std::lround(size[id]));
        if (next != w.batchSize) m_lastMove[id] = next > w.batchSize ? 1 : -1;
        w.batchSize = next;
        if (!detail.empty()) detail += ' ';
        detail += std::to_string(id);
        detail += ':';
        detail += std::to_string(w.batchSize);
    }
    m_context.announce(wire::EVENT_BATCH, "batch sizes by speed " + detail);
}

std::map<uint32_t, double> balancedBatches(const WorkerRegistry& workers, const std::vector<uint32_t>& ids,
                                           uint32_t base) {
    const double total = static_cast<double>(base) * ids.size();
    const double least = std::max<uint32_t>(1, base / kElasticBatchRange), most = base * kElasticBatchRange;
    // The batch each worker gets through in an iteration of `ms` (compute and communication: a
    // worker whose process is starved is slow to send and receive too; under a CPU quota, no more
    // than the quota's CPU time buys: WorkerRecord::batchWithin); their sum grows with ms, so the
    // common time that shares out `total` is found by bisection between the fastest least batch and
    // the slowest largest one.
    const auto batchesIn = [&](double ms, std::map<uint32_t, double>* out) {
        double sum = 0;
        for (uint32_t id : ids) {
            const WorkerRecord& w = workers.all().at(id);
            const double b = std::clamp(w.batchWithin(ms), least, most);
            if (out) (*out)[id] = b;
            sum += b;
        }
        return sum;
    };
    double low = std::numeric_limits<double>::max(), high = 0;
    for (uint32_t id : ids) {
        low = std::min(low, workers.all().at(id).iterationMs(least));
        high = std::max(high, workers.all().at(id).iterationMs(most));
    }
    for (int i = 0; i < 100 && high - low > 1e-9 * high; ++i) {
        const double mid = 0.5 * (low + high);
        (batchesIn(mid, nullptr) < total ? low : high) = mid;
    }
    std::map<uint32_t, double> out;
    batchesIn(0.5 * (low + high), &out);
    return out;
}

void ElasticPolicy::drain(bool apply) {
    m_barrier->drain(apply);
    for (auto& [id, w] : m_context.workers().all()) {
        w.batchSize = m_context.baseBatchSize();
        w.handOffBatch = 0;  // a share not sent yet (paused) is no one's now
    }
    m_lastMove.clear();
}

}  // namespace syncscope::engine
