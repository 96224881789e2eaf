// The per-mode predictions (see mode_predictions.h for the model).
#include "engine/policy/mode_predictions.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include "engine/net/protocol.h"
#include "engine/plan/mode_catalog.h"
#include "engine/policy/bsp_policy.h"
#include "engine/policy/elastic_policy.h"
#include "engine/policy/grouping.h"
#include "engine/policy/kasync_policy.h"

namespace syncscope::engine {
namespace {

struct Measured {
    std::map<uint32_t, double> seconds;  ///< iteration time at the run's batch
    std::vector<double> sorted;          ///< the same, fastest first
    double rateSum = 0;                  ///< sum of 1 / t_i
};

Measured measure(const WorkerRegistry& workers, uint32_t batchSize) {
    Measured m;
    for (uint32_t id : workers.participantIds()) {
        const WorkerRecord& w = workers.all().at(id);
        const double t = iterationSeconds(w, batchSize);
        m.seconds[id] = t;
        m.sorted.push_back(t);
        m.rateSum += 1.0 / t;
    }
    std::sort(m.sorted.begin(), m.sorted.end());
    return m;
}

void grouped(const WorkerRegistry& workers, const Measured& m, double batch, wire::AutoCandidate& c) {
    const wire::ModeSettings& s = c.settings();
    std::map<uint32_t, std::pair<double, double>> perGroup;  // group -> (members, slowest time)
    for (const auto& [id, group] : assignGroups(workers, groupCount(s), s.group_by(), s.assignment())) {
        perGroup[group].first += 1;
        perGroup[group].second = std::max(perGroup[group].second, m.seconds.at(id));
    }
    double updatesPerSecond = 0, samples = 0, staleSamples = 0;
    for (const auto& [group, g] : perGroup) updatesPerSecond += 1.0 / g.second;
    for (const auto& [group, g] : perGroup) {
        const double rate = 1.0 / g.second, groupSamples = g.first * batch * rate;
        samples += groupSamples;
        staleSamples += groupSamples * (updatesPerSecond - rate) / rate;
    }
    c.set_samples_per_s(samples);
    c.set_mean_staleness(samples > 0 ? staleSamples / samples : 0.0);
}

void elastic(const WorkerRegistry& workers, const Measured& m, uint32_t batchSize, wire::AutoCandidate& c) {
    std::vector<uint32_t> ids;
    for (const auto& [id, t] : m.seconds) ids.push_back(id);
    double samples = 0, round = 0;
    for (const auto& [id, b] : balancedBatches(workers, ids, batchSize)) {
        samples += b;
        round = std::max(round, iterationSeconds(workers.all().at(id), b));
    }
    c.set_samples_per_s(samples / round);
}

}  // namespace

double iterationSeconds(const WorkerRecord& w, double batchSize) {
    return (w.compute.milliseconds(batchSize) + w.typicalCommMs) / 1000.0;
}

std::string optionLabel(const WorkerRegistry& workers, const wire::ModeSettings& s) {
    const size_t n = workers.participantIds().size();
    switch (s.mode()) {
        case wire::SSP: return fmt::format("ssp s={}", s.staleness_bound());
        case wire::KSYNC: return fmt::format("ksync K={}", BspPolicy::quorum(s.k(), n));
        case wire::KASYNC: return fmt::format("kasync K={}", KAsyncPolicy::gradientsPerUpdate(s.k(), n));
        case wire::GROUPED: {
            std::map<uint32_t, int> groups;
            for (const auto& [id, group] : assignGroups(workers, groupCount(s), s.group_by(), s.assignment())) ++groups[group];
            const wire::ParameterSpec* by = findParameter(modeCatalog(), "group_by");
            return fmt::format("grouped G={} by {}", groups.size(), by ? choiceName(s, *by) : "?");
        }
        default: return syncModeName(s.mode());
    }
}

wire::AutoCandidate predictOption(const WorkerRegistry& workers, uint32_t batchSize, const wire::ModeSettings& settings) {
    wire::AutoCandidate c;
    *c.mutable_settings() = settings;
    const Measured m = measure(workers, batchSize);
    if (m.sorted.empty() || settings.mode() == wire::AUTO) return c;
    c.set_label(optionLabel(workers, settings));
    const double batch = batchSize, n = static_cast<double>(m.sorted.size());
    const double slowest = m.sorted.back();
    switch (settings.mode()) {
        case wire::BSP: c.set_samples_per_s(n * batch / slowest); break;
        case wire::SSP: {
            double meanTime = 0;
            for (double t : m.sorted) meanTime += t / n;
            c.set_samples_per_s(n * batch / slowest);
            c.set_mean_staleness((n - 1.0) * meanTime / slowest);
            break;
        }
        case wire::ASP:
            c.set_samples_per_s(batch * m.rateSum);
            c.set_mean_staleness(n - 1.0);
            break;
        case wire::KSYNC: {
            const size_t k = BspPolicy::quorum(settings.k(), m.sorted.size());
            c.set_samples_per_s(k * batch / m.sorted[k - 1]);
            break;
        }
        case wire::KASYNC:
            c.set_samples_per_s(batch * m.rateSum);
            c.set_mean_staleness(n / KAsyncPolicy::gradientsPerUpdate(settings.k(), m.sorted.size()));
            break;
        case wire::GROUPED: grouped(workers, m, batch, c); break;
        case wire::ELASTIC: elastic(workers, m, batchSize, c); break;
        default: break;
    }
    // A worker whose pushes report no compute time has no finite speed: no prediction, not a NaN.
    if (!std::isfinite(c.samples_per_s()) || !std::isfinite(c.mean_staleness())) {
        c.set_samples_per_s(0.0);
        c.set_mean_staleness(0.0);
    }
    c.set_effective(c.samples_per_s() / (1.0 + kStalenessCost * c.mean_staleness()));
    return c;
}

std::vector<wire::ModeSettings> whatIfSettings(size_t n) {
    const auto modulated = [](wire::SyncMode mode) {
        wire::ModeSettings s = defaultModeSettings(mode);
        s.set_lr_modulation(wire::LR_DYNSGD);
        return s;
    };
    std::vector<wire::ModeSettings> out{defaultModeSettings(wire::BSP), modulated(wire::SSP), modulated(wire::ASP)};
    if (n >= 3) out.push_back(defaultModeSettings(wire::KSYNC));
    if (n >= 4) out.push_back(modulated(wire::KASYNC));
    if (n >= 3) {
        wire::ModeSettings g = modulated(wire::GROUPED);
        g.set_group_count(2);
        g.set_group_by(wire::GROUP_BY_SPEED);
        out.push_back(g);
    }
    if (n >= 2) out.push_back(defaultModeSettings(wire::ELASTIC));
    return out;
}

}  // namespace syncscope::engine
