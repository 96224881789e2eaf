// The per-mode predictions (see mode_predictions.h for the model).
#include "engine/policy/mode_predictions.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

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
    std::map<uint32_t, double> seconds;  ///< typical iteration time at the run's batch
    std::vector<double> sorted;          ///< the same, fastest first
    double rateSum = 0;                  ///< sum of 1 / t_i
    std::map<uint32_t, std::vector<double>> samples;  ///< recent iteration times at the run's batch
};

// A worker's recent iterations at `batch`: each push's compute time moved along its line to that
// batch, plus its typical communication. Bursts and preempted pushes stay in, as a barrier pays them.
// None is shorter than its quota bound: under a CPU quota a fast iteration spends quota a later one
// waits for.
std::vector<double> iterationSamples(const WorkerRecord& w, double batch) {
    std::vector<double> out;
    const double at = w.compute.milliseconds(batch), bound = w.quotaBoundMs(batch);
    for (const ComputeTimeModel::Push& p : w.compute.recent())
        out.push_back(std::max(p.ms * at / w.compute.milliseconds(p.batch) + w.typicalCommMs, bound) / 1000.0);
    if (out.empty()) out.push_back(iterationSeconds(w, batch));
    return out;
}

// The mean of `roundOf(draw)` over draws of one iteration from each list (draw[i] from samples[i]).
// Monte Carlo with a fixed seed, so a prediction is the same on every call: 4,096 draws for a few
// workers (a 10% burst's share of rounds to about 0.5 points), fewer for many, at most 2^17 values
// drawn (512 draws at 256 workers: a few ms for the what-if view's options each second).
template <typename RoundOf>
double expectedRound(const std::vector<const std::vector<double>*>& samples, const RoundOf& roundOf) {
    const int kDraws = static_cast<int>(std::clamp<size_t>((size_t(1) << 17) / samples.size(), 256, 4096));
    std::mt19937 rng(0x5eed);
    std::vector<double> draw(samples.size());
    double sum = 0;
    for (int d = 0; d < kDraws; ++d) {
        for (size_t i = 0; i < samples.size(); ++i) {
            const std::vector<double>& list = *samples[i];
            draw[i] = list.size() == 1 ? list[0] : list[std::uniform_int_distribution<size_t>(0, list.size() - 1)(rng)];
        }
        sum += roundOf(draw);
    }
    return sum / kDraws;
}

// The expected k-th shortest (1-based) of one iteration drawn from each list: a barrier of k waits for it.
double expectedKth(const std::vector<const std::vector<double>*>& samples, size_t k) {
    return expectedRound(samples, [k](std::vector<double>& draw) {
        std::nth_element(draw.begin(), draw.begin() + static_cast<std::ptrdiff_t>(k - 1), draw.end());
        return draw[k - 1];
    });
}

double expectedSlowest(const std::vector<const std::vector<double>*>& samples) {
    return expectedKth(samples, samples.size());
}

std::vector<const std::vector<double>*> lists(const std::map<uint32_t, std::vector<double>>& samples) {
    std::vector<const std::vector<double>*> out;
    for (const auto& [id, list] : samples) out.push_back(&list);
    return out;
}

Measured measure(const WorkerRegistry& workers, uint32_t batchSize) {
    Measured m;
    for (uint32_t id : workers.participantIds()) {
        const WorkerRecord& w = workers.all().at(id);
        const double t = iterationSeconds(w, batchSize);
        m.seconds[id] = t;
        m.sorted.push_back(t);
        m.rateSum += 1.0 / t;
        m.samples[id] = iterationSamples(w, batchSize);
    }
    std::sort(m.sorted.begin(), m.sorted.end());
    return m;
}

void grouped(const WorkerRegistry& workers, const Measured& m, double batch, wire::AutoCandidate& c) {
    const wire::ModeSettings& s = c.settings();
    std::map<uint32_t, std::vector<const std::vector<double>*>> members;  // group -> its workers' samples
    for (const auto& [id, group] : assignGroups(workers, s.group_count(), s.group_by(), s.assignment()))
        members[group].push_back(&m.samples.at(id));
    std::map<uint32_t, std::pair<double, double>> perGroup;  // group -> (members, its round: slowest time)
    for (const auto& [group, samples] : members) perGroup[group] = {double(samples.size()), expectedSlowest(samples)};
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

// Elastic's round with the hand-off (elastic_policy.h), by the same Monte Carlo: in each draw the
// workers arrive in order; the round is handed off at the first moment the k arrived outnumber (or
// match) the n - k still computing and every one of those is kHandOffAfter x its typical iteration
// late, and then ends when the waiting have computed a share of the late batches, or when the last
// late one arrives, whichever is first. `typical`: each worker's typical iteration at its balanced
// batch; `share(fraction)`: a waiting worker's time to compute that fraction of a batch.
template <typename Share>
double expectedHandOffRound(const std::vector<const std::vector<double>*>& samples, const std::vector<double>& typical,
                            const Share& share) {
    const size_t n = samples.size();
    std::vector<std::pair<double, double>> arrivals(n);  // (arrival, due)
    std::vector<double> latestDue(n + 1);
    return expectedRound(samples, [&](const std::vector<double>& draw) {
        for (size_t i = 0; i < n; ++i) arrivals[i] = {draw[i], kHandOffAfter * typical[i]};
        std::sort(arrivals.begin(), arrivals.end());
        latestDue[n] = 0;
        for (size_t i = n; i-- > 0;) latestDue[i] = std::max(latestDue[i + 1], arrivals[i].second);
        double round = arrivals[n - 1].first;
        for (size_t k = (n + 1) / 2; k < n; ++k) {  // k arrived, n - k still computing
            const double at = std::max(arrivals[k - 1].first, latestDue[k]);
            if (at >= arrivals[k].first) continue;  // the next one arrives before the hand-off
            round = std::min(round, at + share(double(n - k) / double(k)));
            break;
        }
        return round;
    });
}

void elastic(const WorkerRegistry& workers, const Measured& m, uint32_t batchSize, wire::AutoCandidate& c) {
    std::vector<uint32_t> ids;
    for (const auto& [id, t] : m.seconds) ids.push_back(id);
    double samples = 0;
    std::map<uint32_t, std::vector<double>> times;
    std::vector<double> typical;
    for (const auto& [id, b] : balancedBatches(workers, ids, batchSize)) {
        samples += b;
        times[id] = iterationSamples(workers.all().at(id), b);
        typical.push_back(iterationSeconds(workers.all().at(id), b));
    }
    const wire::ModeSettings& s = c.settings();
    if (s.elastic_slack() || s.elastic_wait_for_late() || ids.size() < 2) {
        c.set_samples_per_s(samples / expectedSlowest(lists(times)));
        return;
    }
    // A share is computed by the median worker (its fixed part, its part per sample, its communication).
    std::vector<std::pair<double, uint32_t>> bySpeed;
    for (const auto& [id, t] : m.seconds) bySpeed.push_back({t, id});
    std::sort(bySpeed.begin(), bySpeed.end());
    const WorkerRecord& median = workers.all().at(bySpeed[bySpeed.size() / 2].second);
    const auto share = [&](double fraction) { return iterationSeconds(median, fraction * batchSize); };
    c.set_samples_per_s(samples / expectedHandOffRound(lists(times), typical, share));
}

}  // namespace

double iterationSeconds(const WorkerRecord& w, double batchSize) { return w.iterationMs(batchSize) / 1000.0; }

std::string optionLabel(const WorkerRegistry& workers, const wire::ModeSettings& s) {
    const size_t n = workers.participantIds().size();
    switch (s.mode()) {
        case wire::SSP: return fmt::format("ssp s={}", s.staleness_bound());
        case wire::KSYNC: return fmt::format("ksync K={}", BspPolicy::quorum(s.k(), n));
        case wire::KASYNC: return fmt::format("kasync K={}", KAsyncPolicy::gradientsPerUpdate(s.k(), n));
        case wire::GROUPED: {
            std::map<uint32_t, int> groups;
            for (const auto& [id, group] : assignGroups(workers, s.group_count(), s.group_by(), s.assignment())) ++groups[group];
            const wire::ParameterSpec* by = findParameter(modeCatalog(), "group_by");
            return fmt::format("grouped G={} by {}", groups.size(), by ? choiceName(s, *by) : "?");
        }
        case wire::ELASTIC: return s.elastic_wait_for_late() && !s.elastic_slack() ? "elastic waiting for the late" : "elastic";
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
        case wire::BSP: c.set_samples_per_s(n * batch / expectedSlowest(lists(m.samples))); break;
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
            c.set_samples_per_s(k * batch / expectedKth(lists(m.samples), k));
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
