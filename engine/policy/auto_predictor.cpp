// The auto controller's prediction (see auto_predictor.h). For iteration times t_i at batch b:
//   bsp:       N b / max t_i, staleness 0
//   ksync K:   K b / t_(K) (the K-th fastest), staleness 0, for K = N-1 .. N-3 (at least N/2)
//   grouped G: each group j applies |j| b samples every max_{i in j} t_i; a group's update is as
//              stale as the updates of the other groups during its round (sample-weighted mean)
//   asp:       sum b / t_i, staleness N - 1
// Stale updates run with dynsgd modulation (lr / (tau + 1)) under auto.
#include "engine/policy/auto_predictor.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include "engine/policy/grouping.h"

namespace syncscope::engine {
namespace {

void finish(wire::AutoCandidate& c, std::vector<wire::AutoCandidate>& out) {
    c.set_effective(c.samples_per_s() / (1.0 + kAutoStalenessCost * c.mean_staleness()));
    out.push_back(c);
}

// Iteration time at the run's batch: its own compute speed plus its last communication time.
std::map<uint32_t, double> iterationSeconds(const WorkerRegistry& workers, uint32_t batchSize) {
    std::map<uint32_t, double> seconds;
    for (uint32_t id : workers.participantIds()) {
        const WorkerRecord& w = workers.all().at(id);
        seconds[id] = batchSize / w.computeSpeed + w.commMs / 1000.0;
    }
    return seconds;
}

wire::AutoCandidate groupedCandidate(const WorkerRegistry& workers, const std::map<uint32_t, double>& seconds,
                                     uint32_t g, double batch) {
    wire::AutoCandidate c;
    c.mutable_settings()->set_mode(wire::GROUPED);
    c.mutable_settings()->set_group_count(g);
    c.mutable_settings()->set_group_by(wire::GROUP_BY_SPEED);
    c.mutable_settings()->set_lr_modulation(wire::LR_DYNSGD);
    std::map<uint32_t, std::pair<double, double>> perGroup;  // group -> (members, slowest time)
    for (const auto& [id, group] : assignGroups(workers, g, wire::GROUP_BY_SPEED, {})) {
        perGroup[group].first += 1;
        perGroup[group].second = std::max(perGroup[group].second, seconds.at(id));
    }
    double updatesPerSecond = 0, samples = 0, staleSamples = 0;
    for (const auto& [group, m] : perGroup) updatesPerSecond += 1.0 / m.second;
    for (const auto& [group, m] : perGroup) {
        const double rate = 1.0 / m.second, groupSamples = m.first * batch * rate;
        samples += groupSamples;
        staleSamples += groupSamples * (updatesPerSecond - rate) / rate;
    }
    c.set_samples_per_s(samples);
    c.set_mean_staleness(staleSamples / samples);
    c.set_label(fmt::format("grouped G={} by speed", perGroup.size()));
    return c;
}

}  // namespace

std::vector<wire::AutoCandidate> predictCandidates(const WorkerRegistry& workers, uint32_t batchSize) {
    const std::map<uint32_t, double> seconds = iterationSeconds(workers, batchSize);
    std::vector<wire::AutoCandidate> out;
    if (seconds.empty()) return out;
    const double batch = batchSize;
    std::vector<double> sorted;
    double rateSum = 0;
    for (const auto& [id, t] : seconds) {
        sorted.push_back(t);
        rateSum += batch / t;
    }
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();

    wire::AutoCandidate bsp;
    bsp.mutable_settings()->set_mode(wire::BSP);
    bsp.set_samples_per_s(n * batch / sorted.back());
    bsp.set_label("bsp");
    finish(bsp, out);
    // ksync: the K fastest set the pace, the others' gradients arrive late and are dropped.
    for (size_t k = n - 1; k >= 1 && k + 3 >= n && 2 * k >= n; --k) {
        wire::AutoCandidate c;
        c.mutable_settings()->set_mode(wire::KSYNC);
        c.mutable_settings()->set_k(static_cast<uint32_t>(k));
        c.set_samples_per_s(k * batch / sorted[k - 1]);
        c.set_label(fmt::format("ksync K={}", k));
        finish(c, out);
    }
    for (uint32_t g = 2; g <= 4 && g + 1 <= n; ++g) {
        wire::AutoCandidate c = groupedCandidate(workers, seconds, g, batch);
        finish(c, out);
    }
    wire::AutoCandidate asp;
    asp.mutable_settings()->set_mode(wire::ASP);
    asp.mutable_settings()->set_lr_modulation(wire::LR_DYNSGD);
    asp.set_samples_per_s(rateSum);
    asp.set_mean_staleness(static_cast<double>(n) - 1.0);
    asp.set_label("asp");
    finish(asp, out);
    return out;
}

wire::AutoDecision decideMode(const WorkerRegistry& workers, uint32_t batchSize, const std::string& currentLabel) {
    wire::AutoDecision d;
    d.set_current_label(currentLabel);
    const std::vector<wire::AutoCandidate> options = predictCandidates(workers, batchSize);
    if (options.empty()) {
        d.set_verdict(wire::AutoDecision::STAYS);
        return d;
    }
    for (const auto& c : options) *d.add_candidates() = c;
    std::vector<std::pair<double, uint32_t>> times;  // the slowest worker against the median
    for (const auto& [id, t] : iterationSeconds(workers, batchSize)) times.push_back({t * 1000.0, id});
    std::sort(times.begin(), times.end());
    d.set_slowest_worker(times.back().second);
    d.set_slowest_ms(times.back().first);
    d.set_median_ms(times[times.size() / 2].first);

    const auto best = std::max_element(options.begin(), options.end(),
                                       [](const auto& a, const auto& b) { return a.effective() < b.effective(); });
    const auto current = std::find_if(options.begin(), options.end(),
                                      [&](const auto& c) { return c.label() == currentLabel; });
    const bool better = current == options.end() || best->effective() > kAutoSwitchGain * current->effective();
    const bool switches = best->label() != currentLabel && better;
    d.set_verdict(switches ? wire::AutoDecision::SWITCHES : wire::AutoDecision::STAYS);
    *d.mutable_chosen() = switches || current == options.end() ? *best : *current;
    return d;
}

std::string describeDecision(const wire::AutoDecision& d) {
    std::string text;
    switch (d.verdict()) {
        case wire::AutoDecision::SWITCHES: text = "switches to " + d.chosen().label(); break;
        case wire::AutoDecision::ADVISES:
            text = fmt::format("advises {} (advice {}, now {})", d.chosen().label(), d.advice_id(), d.current_label());
            break;
        default: text = "stays " + d.current_label(); break;
    }
    if (!d.groups().empty()) text += " " + d.groups();
    if (d.candidates_size() == 0) return text;
    text += fmt::format(": worker {} takes {:.0f} ms per iteration, the median {:.0f} ms ({:.1f}x); "
                   "predicted effective samples/s:",
                   d.slowest_worker(), d.slowest_ms(), d.median_ms(), d.slowest_ms() / d.median_ms());
    for (int i = 0; i < d.candidates_size(); ++i) {
        const wire::AutoCandidate& c = d.candidates(i);
        text += fmt::format("{}{} {:.0f}", i ? ", " : " ", c.label(), c.effective());
        if (c.mean_staleness() > 0) text += fmt::format(" (tau {:.1f})", c.mean_staleness());
    }
    return text;
}

}  // namespace syncscope::engine
