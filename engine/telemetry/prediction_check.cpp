// checkPredictions (see prediction_check.h).
#include "engine/telemetry/prediction_check.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
    const double pushed = static_cast<double>(b.pushed() - a.pushed());
    if (!(seconds > 0) || !(pushed > 0)) return 0;
    const double share = std::min(1.0, static_cast<double>(b.applied() - a.applied()) / pushed);
    return static_cast<double>(b.samples_total() - a.samples_total()) * share / seconds;
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
        // From the switch to the first evaluation at the target, while in this mode.
        for (const wire::Tick* t : after.ticks)
            if (t->test_accuracy() >= c.targetAccuracy && c.targetAccuracy > 0) {
                c.measuredSecondsToTarget = t->time_s() - switchedAt;
                break;
            }
        if (c.measuredSamplesPerS > 0) checks.push_back(c);
    }
    return checks;
}

}  // namespace syncscope::engine
