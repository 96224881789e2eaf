// AutoPolicy (see auto_policy.h). The prediction, for iteration times t_i at the run's batch b:
//   bsp:       N b / max t_i, staleness 0
//   ksync K:   K b / t_(K) (the K-th fastest), staleness 0, for K = N-1 .. N-3 (at least N/2)
//   grouped G: each group j applies |j| b samples every max_{i in j} t_i; a group's update is as
//              stale as the updates of the other groups during its round (sample-weighted mean)
//   asp:       sum b / t_i, staleness N - 1
// Stale updates run with dynsgd modulation (lr / (tau + 1)) under auto.
#include "engine/ps/auto_policy.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "engine/ps/bsp_policy.h"
#include "engine/ps/grouping.h"

namespace syncscope::engine {
namespace {

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

}  // namespace

AutoPolicy::AutoPolicy(PolicyContext& context, const wire::ModeSettings& settings)
    // Until it has measured, one backup worker (Chen et al.): on shared or noisy machines one of
    // N is nearly always late, and waiting for it costs more than its gradient is worth.
    : m_context(context), m_settings(settings), m_inner(std::make_unique<BspPolicy>(context, 0)) {}

std::string AutoPolicy::currentLabel() const {
    if (m_current != kStartLabel) return m_current;
    const size_t n = m_context.workers().participantIds().size();
    return n >= 4 ? "ksync K=" + std::to_string(n - 1) : std::string("bsp");
}

void AutoPolicy::onTick() {
    const std::vector<uint32_t> ids = m_context.workers().participantIds();
    if (ids.empty()) return;
    for (uint32_t id : ids) {
        const WorkerRecord& w = *m_context.workers().find(id);
        if (w.computeSpeed <= 0 || w.pushed < 6) return;  // not measured yet (the first 2 pushes do not count)
    }
    const double period = m_settings.decision_seconds() > 0 ? m_settings.decision_seconds() : 5.0;
    if (m_decided && std::chrono::duration<double>(Clock::now() - m_lastDecision).count() < period) return;
    m_lastDecision = Clock::now();
    decide();
}

std::vector<AutoCandidate> AutoPolicy::candidates() const {
    const WorkerRegistry& workers = m_context.workers();
    const std::vector<uint32_t> ids = workers.participantIds();
    const double batch = m_context.baseBatchSize();
    std::map<uint32_t, double> seconds;  // iteration time at the run's batch
    for (uint32_t id : ids) {
        const WorkerRecord& w = workers.all().at(id);
        seconds[id] = batch / w.computeSpeed + w.commMs / 1000.0;
    }
    std::vector<AutoCandidate> out;
    auto finish = [&](AutoCandidate c) {
        c.effective = c.samplesPerSecond / (1.0 + kStalenessCost * c.meanStaleness);
        out.push_back(std::move(c));
    };
    double slowest = 0, rateSum = 0;
    for (const auto& [id, t] : seconds) {
        slowest = std::max(slowest, t);
        rateSum += batch / t;
    }
    AutoCandidate bsp;
    bsp.settings.set_mode(wire::BSP);
    bsp.samplesPerSecond = ids.size() * batch / slowest;
    bsp.label = "bsp";
    finish(bsp);
    // ksync: the K fastest set the pace, the others' gradients arrive late and are dropped.
    std::vector<double> sorted;
    for (const auto& [id, t] : seconds) sorted.push_back(t);
    std::sort(sorted.begin(), sorted.end());
    for (size_t k = sorted.size() - 1; k >= 1 && k + 3 >= sorted.size() && 2 * k >= sorted.size(); --k) {
        AutoCandidate c;
        c.settings.set_mode(wire::KSYNC);
        c.settings.set_k(static_cast<uint32_t>(k));
        c.samplesPerSecond = k * batch / sorted[k - 1];
        c.label = "ksync K=" + std::to_string(k);
        finish(c);
    }
    for (uint32_t g = 2; g <= 4 && g + 1 <= ids.size(); ++g) {
        AutoCandidate c;
        c.settings.set_mode(wire::GROUPED);
        c.settings.set_group_count(g);
        c.settings.set_group_by(wire::GROUP_BY_SPEED);
        c.settings.set_lr_modulation(wire::LR_DYNSGD);
        const auto groups = assignGroups(workers, g, wire::GROUP_BY_SPEED, {});
        std::map<uint32_t, std::pair<double, double>> perGroup;  // group -> (members, slowest time)
        for (const auto& [id, group] : groups) {
            perGroup[group].first += 1;
            perGroup[group].second = std::max(perGroup[group].second, seconds[id]);
        }
        double updatesPerSecond = 0;
        for (const auto& [group, m] : perGroup) updatesPerSecond += 1.0 / m.second;
        double staleSamples = 0;
        for (const auto& [group, m] : perGroup) {
            const double rate = 1.0 / m.second, samples = m.first * batch * rate;
            c.samplesPerSecond += samples;
            staleSamples += samples * (updatesPerSecond - rate) / rate;
        }
        c.meanStaleness = staleSamples / c.samplesPerSecond;
        c.label = "grouped G=" + std::to_string(perGroup.size()) + " by speed";
        finish(c);
    }
    AutoCandidate asp;
    asp.settings.set_mode(wire::ASP);
    asp.settings.set_lr_modulation(wire::LR_DYNSGD);
    asp.samplesPerSecond = rateSum;
    asp.meanStaleness = static_cast<double>(ids.size()) - 1.0;
    asp.label = "asp";
    finish(asp);
    return out;
}

void AutoPolicy::decide() {
    const std::vector<AutoCandidate> options = candidates();
    const auto best = std::max_element(options.begin(), options.end(),
                                       [](const auto& a, const auto& b) { return a.effective < b.effective; });
    const std::string now = currentLabel();
    const auto current = std::find_if(options.begin(), options.end(), [&](const auto& c) { return c.label == now; });
    // Why: the slowest worker against the median, and each option's predicted figure.
    std::vector<std::pair<double, uint32_t>> times;
    for (uint32_t id : m_context.workers().participantIds()) {
        const WorkerRecord& w = *m_context.workers().find(id);
        times.push_back({m_context.baseBatchSize() / w.computeSpeed * 1000.0 + w.commMs, id});
    }
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2].first;
    char head[160];
    std::snprintf(head, sizeof head, "worker %u takes %.0f ms per iteration, the median %.0f ms (%.1fx); "
                  "predicted effective samples/s:", times.back().second, times.back().first, median,
                  times.back().first / median);
    std::string reason = head;
    for (size_t i = 0; i < options.size(); ++i) {
        reason += i ? ", " : " ";
        reason += options[i].label;
        reason += format(" %.0f", options[i].effective);
        if (options[i].meanStaleness > 0) reason += format(" (tau %.1f)", options[i].meanStaleness);
    }
    const bool better = current == options.end() || best->effective > kSwitchGain * current->effective;
    if (best->label != now && better) {
        switchTo(*best, reason);
    } else if (!m_decided) {
        m_context.announce("auto", "stays " + now + ": " + reason);
    }
    m_decided = true;
}

void AutoPolicy::switchTo(const AutoCandidate& choice, const std::string& reason) {
    m_inner->drain(true);  // a version boundary, as for any mode change
    m_inner.reset();
    m_context.workers().clearGroups();
    auto next = createSyncPolicy(choice.settings, m_context);
    m_inner = next ? std::move(*next) : std::make_unique<BspPolicy>(m_context, std::nullopt);
    m_current = next ? choice.label : "bsp";
    std::string detail = "switches to " + m_current;
    if (choice.settings.mode() == wire::GROUPED) {
        detail += ' ';
        detail += describeGroups(m_context.workers());
    }
    detail += ": ";
    detail += reason;
    m_context.announce("auto", detail);
    m_inner->reconsider();
}

}  // namespace syncscope::engine
