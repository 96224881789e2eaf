// The auto controller's options and decision (see auto_predictor.h). Each option's prediction is
// predictOption()'s (mode_predictions.h); stale options run with dynsgd modulation under auto.
#include "engine/policy/auto_predictor.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include "engine/policy/mode_predictions.h"

namespace syncscope::engine {
std::vector<wire::AutoCandidate> predictCandidates(const WorkerRegistry& workers, uint32_t batchSize) {
    const size_t n = workers.participantIds().size();
    std::vector<wire::AutoCandidate> out;
    if (n == 0) return out;
    std::vector<wire::ModeSettings> options;
    wire::ModeSettings bsp;
    bsp.set_mode(wire::BSP);
    options.push_back(bsp);
    // ksync: the K fastest set the pace, the others' gradients arrive late and are dropped.
    for (size_t k = n - 1; k >= 1 && k + 3 >= n && 2 * k >= n; --k) {
        wire::ModeSettings s;
        s.set_mode(wire::KSYNC);
        s.set_k(static_cast<uint32_t>(k));
        options.push_back(s);
    }
    for (uint32_t g = 2; g <= 4 && g + 1 <= n; ++g) {
        wire::ModeSettings s;
        s.set_mode(wire::GROUPED);
        s.set_group_count(g);
        s.set_group_by(wire::GROUP_BY_SPEED);
        s.set_lr_modulation(wire::LR_DYNSGD);
        options.push_back(s);
    }
    wire::ModeSettings asp;
    asp.set_mode(wire::ASP);
    asp.set_lr_modulation(wire::LR_DYNSGD);
    options.push_back(asp);
    for (const wire::ModeSettings& s : options) out.push_back(predictOption(workers, batchSize, s));
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
    for (uint32_t id : workers.participantIds())
        times.push_back({iterationSeconds(workers.all().at(id), batchSize) * 1000.0, id});
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
