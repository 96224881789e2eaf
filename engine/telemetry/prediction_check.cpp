// checkPredictions (see prediction_check.h).
#include "engine/telemetry/prediction_check.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "engine/core/median.h"
#include "engine/telemetry/accuracy_timeline.h"

namespace syncscope::engine {

double PredictionCheck::timeError() const {
    if (predictedSecondsToTarget < 0 || measuredSecondsToTarget <= 0) return std::numeric_limits<double>::quiet_NaN();
    return (predictedSecondsToTarget - measuredSecondsToTarget) / measuredSecondsToTarget;
}

namespace {

// One stretch of ticks in one mode, while running.
struct Stretch {
    std::string mode;  ///< ModeSettings, serialized
    std::vector<const wire::Tick*> ticks;
};

std::vector<Stretch> stretches(const std::vector<wire::Record>& records) {
    std::vector<Stretch> out;
    for (const wire::Record& r : records) {
        if (!r.has_tick() || r.tick().state() != wire::RUN_RUNNING) continue;
        const std::string mode = r.tick().mode().SerializeAsString();
        if (out.empty() || out.back().mode != mode) out.push_back({mode, {}});
        out.back().ticks.push_back(&r.tick());
    }
    return out;
}

// Applied samples/s between two ticks: the samples pushed, times the share of gradients applied.
double appliedSamplesPerS(const wire::Tick& a, const wire::Tick& b) {
    const double seconds = b.time_s() - a.time_s();
    if (!(seconds > 0)) return 0;
    // Counted by the coordinator (1.13). Recordings from before have only counts of gradients: the
    // samples pushed times the share of gradients applied, which is off where the dropped gradients
    // are smaller or larger than the applied ones (elastic's handed-off late batches and shares).
    if (b.applied_samples() > 0 && b.applied_samples() >= a.applied_samples())
        return (b.applied_samples() - a.applied_samples()) / seconds;
    const double pushed = static_cast<double>(b.pushed() - a.pushed());
    if (!(pushed > 0)) return 0;
    const double share = std::min(1.0, static_cast<double>(b.applied() - a.applied()) / pushed);
    return static_cast<double>(b.samples_total() - a.samples_total()) * share / seconds;
}

// The option a run ran, as its own what-ifs label it (the most frequent while running).
std::string runLabel(const std::vector<const wire::Tick*>& running) {
    std::map<std::string, int> count;
    for (const wire::Tick* t : running)
        if (t->has_what_if()) ++count[t->what_if().current_label()];
    std::string best;
    for (const auto& [label, n] : count)
        if (best.empty() || n > count[best]) best = label;
    return best;
}

const wire::AutoCandidate* optionOf(const wire::WhatIf& w, const std::string& label) {
    for (const wire::AutoCandidate& c : w.options())
        if (c.label() == label) return &c;
    return nullptr;
}

std::vector<const wire::Tick*> ticksOf(const std::vector<wire::Record>& records, bool runningOnly) {
    std::vector<const wire::Tick*> out;
    for (const wire::Record& r : records)
        if (r.has_tick() && (!runningOnly || r.tick().state() == wire::RUN_RUNNING)) out.push_back(&r.tick());
    return out;
}

}  // namespace

std::vector<PredictionCheck> checkPredictions(const std::vector<wire::Record>& records) {
    std::vector<PredictionCheck> checks;
    const std::vector<Stretch> all = stretches(records);
    for (size_t i = 1; i < all.size(); ++i) {
        const Stretch &before = all[i - 1], &after = all[i];
        const wire::WhatIf* predicted = nullptr;  // the newest before the switch
        for (const wire::Tick* t : before.ticks)
            if (t->has_what_if()) predicted = &t->what_if();
        std::string label;  // the new mode's option label, as its own what-ifs call it
        for (const wire::Tick* t : after.ticks)
            if (t->has_what_if()) {
                label = t->what_if().current_label();
                break;
            }
        if (!predicted || label.empty() || predicted->current_label() == "auto" || label == "auto") continue;
        const wire::AutoCandidate* option = nullptr;
        for (const wire::AutoCandidate& c : predicted->options())
            if (c.label() == label) option = &c;
        if (!option) continue;
        const double switchedAt = after.ticks.front()->time_s();
        const wire::Tick* from = nullptr;
        for (const wire::Tick* t : after.ticks)
            if (t->time_s() >= switchedAt + kPredictionSettleSeconds) {
                from = t;
                break;
            }
        const wire::Tick* to = after.ticks.back();
        if (!from || to->time_s() - from->time_s() < kMinMeasuredSeconds) continue;
        PredictionCheck c;
        c.from = predicted->current_label();
        c.to = label;
        c.switchedAt = switchedAt;
        c.predictedSamplesPerS = option->samples_per_s();
        c.measuredSamplesPerS = appliedSamplesPerS(*from, *to);
        c.windowSeconds = to->time_s() - from->time_s();
        c.targetAccuracy = predicted->target_accuracy();
        c.predictedSecondsToTarget = option->seconds_to_target();
        // From the switch to when a model of this mode reached the target (AccuracyTimeline).
        if (c.targetAccuracy > 0) {
            AccuracyTimeline timeline;
            for (const wire::Tick* t : after.ticks) timeline.add(*t);
            if (auto reached = timeline.timeReached(c.targetAccuracy, switchedAt)) c.measuredSecondsToTarget = *reached - switchedAt;
        }
        if (c.measuredSamplesPerS > 0) checks.push_back(c);
    }
    return checks;
}

std::optional<PredictionCheck> checkPredictionAcross(const std::vector<wire::Record>& from, const std::vector<wire::Record>& to) {
    const auto fromRunning = ticksOf(from, true), toRunning = ticksOf(to, true);
    const std::string fromLabel = runLabel(fromRunning), label = runLabel(toRunning);
    if (fromLabel.empty() || label.empty() || fromLabel == "auto" || label == "auto" || fromLabel == label) return std::nullopt;
    PredictionCheck c;
    c.from = fromLabel;
    c.to = label;
    std::vector<double> predicted;
    const wire::Tick* forecastAt = nullptr;
    for (const wire::Tick* t : fromRunning) {
        if (!t->has_what_if() || t->time_s() < kPredictionSettleSeconds) continue;
        const wire::AutoCandidate* option = optionOf(t->what_if(), label);
        if (!option) continue;
        predicted.push_back(option->samples_per_s());
        if (!forecastAt && option->seconds_to_target() >= 0 && t->test_accuracy() >= 0) {
            forecastAt = t;
            c.predictedSecondsToTarget = option->seconds_to_target();
            c.targetAccuracy = t->what_if().target_accuracy();
        }
    }
    const wire::Tick* start = nullptr;
    for (const wire::Tick* t : toRunning)
        if (t->time_s() >= kPredictionSettleSeconds) {
            start = t;
            break;
        }
    if (predicted.empty() || !start || toRunning.back()->time_s() - start->time_s() < kMinMeasuredSeconds) return std::nullopt;
    c.predictedSamplesPerS = median(predicted);
    c.measuredSamplesPerS = appliedSamplesPerS(*start, *toRunning.back());
    c.windowSeconds = toRunning.back()->time_s() - start->time_s();
    if (!(c.measuredSamplesPerS > 0)) return std::nullopt;
    if (forecastAt) {
        c.switchedAt = forecastAt->time_s();
        AccuracyTimeline timeline;  // a run that stopped at the target evaluated it last
        for (const wire::Tick* t : ticksOf(to, false)) timeline.add(*t);
        const auto reachedFrom = timeline.timeReached(forecastAt->test_accuracy());
        const auto reachedTarget = c.targetAccuracy > 0 ? timeline.timeReached(c.targetAccuracy) : std::nullopt;
        if (reachedFrom && reachedTarget && *reachedTarget > *reachedFrom) c.measuredSecondsToTarget = *reachedTarget - *reachedFrom;
    }
    return c;
}

std::vector<PredictionSummary> summarisePredictions(const std::vector<PredictionCheck>& checks) {
    std::vector<PredictionSummary> out;
    for (const PredictionCheck& first : checks) {
        if (std::any_of(out.begin(), out.end(), [&](const PredictionSummary& s) { return s.option == first.to; })) continue;
        std::vector<double> samples, absSamples, time, absTime;
        for (const PredictionCheck& c : checks) {
            if (c.to != first.to) continue;
            samples.push_back(c.samplesError());
            absSamples.push_back(std::fabs(c.samplesError()));
            if (const double e = c.timeError(); !std::isnan(e)) time.push_back(e), absTime.push_back(std::fabs(e));
        }
        PredictionSummary s;
        s.option = first.to;
        s.samplesChecks = samples.size();
        s.samplesAbsError = median(absSamples);
        s.samplesBias = median(samples);
        s.timeChecks = time.size();
        s.timeAbsError = median(absTime);  // NaN without time checks
        s.timeBias = median(time);
        out.push_back(s);
    }
    return out;
}

}  // namespace syncscope::engine
