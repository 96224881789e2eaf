// WhatIfTracker (see what_if_tracker.h).
#include "engine/coordinator/what_if_tracker.h"

#include <algorithm>
#include <cmath>

#include "engine/policy/mode_predictions.h"

namespace syncscope::engine {

void WhatIfTracker::count(const CoordinatorState& s) {
    uint64_t applied = 0;
    double stalenessSum = 0;
    for (const auto& [id, w] : s.workers.all()) {
        applied += w.applied;
        stalenessSum += w.stalenessSum;
    }
    const uint64_t newSamples = s.totals.samples - std::min(s.totals.samples, m_samples);
    const uint64_t newPushed = s.totals.pushed - std::min(s.totals.pushed, m_pushed);
    const uint64_t newApplied = applied - std::min(applied, m_applied);
    if (newSamples > 0 && newPushed > 0 && newApplied > 0) {
        // The tick's samples, the share of its gradients applied, at the tick's mean staleness.
        const double share = std::min(1.0, static_cast<double>(newApplied) / static_cast<double>(newPushed));
        const double tau = std::max(0.0, stalenessSum - m_stalenessSum) / static_cast<double>(newApplied);
        m_effective += static_cast<double>(newSamples) * share / (1.0 + kStalenessCost * tau);
        m_appliedSamples += static_cast<double>(newSamples) * share;
    }
    m_samples = s.totals.samples;
    m_pushed = s.totals.pushed;
    m_applied = applied;
    m_stalenessSum = stalenessSum;
    const uint64_t version = s.store.version();
    if (m_ledger.empty() || m_ledger.back().first < version) m_ledger.emplace_back(version, m_effective);
    if (m_ledger.size() > kLedgerCap) m_ledger.pop_front();
}

double WhatIfTracker::effectiveAt(uint64_t version) const {
    // The newest entry at or before the version: the effective samples its model was trained on.
    auto it = std::upper_bound(m_ledger.begin(), m_ledger.end(), version,
                               [](uint64_t v, const std::pair<uint64_t, double>& e) { return v < e.first; });
    return it == m_ledger.begin() ? 0.0 : std::prev(it)->second;
}

double WhatIfTracker::target(const CoordinatorState& s) {
    if (s.options.plan.stop().target_accuracy() > 0) return s.options.plan.stop().target_accuracy();
    const double best = m_forecast.best();
    if (best > 0 && best >= m_target) m_target = std::min(0.99, std::ceil((best + kTargetStep) * 100.0 - 1e-9) / 100.0);
    return m_target;
}

std::optional<wire::WhatIf> WhatIfTracker::onTick(const CoordinatorState& s) {
    count(s);
    if (s.lastEvaluation && s.lastEvaluation->version != m_evaluated) {
        m_evaluated = s.lastEvaluation->version;
        m_forecast.add(effectiveAt(s.lastEvaluation->version), s.lastEvaluation->accuracy);
    }
    const double now = s.elapsedSeconds();
    if (s.state != wire::RUN_RUNNING || now - m_lastAt < kPeriodSeconds) return std::nullopt;
    const std::vector<uint32_t> ids = s.workers.participantIds();
    if (ids.empty()) return std::nullopt;
    for (uint32_t id : ids)
        if (!(s.workers.all().at(id).computeSpeed > 0)) return std::nullopt;
    const double period = now - m_lastAt, applied = m_appliedSamples;
    const std::string mode = s.mode.SerializeAsString();
    const bool sameMode = mode == m_periodMode;
    m_lastAt = now;
    m_appliedSamples = 0;
    m_periodMode = mode;

    wire::WhatIf w;
    const uint32_t batch = s.options.plan.spec().batch_size();
    if (s.mode.mode() == wire::AUTO) {
        m_calibration = 1.0;
    } else if (sameMode && period < 3 * kPeriodSeconds) {
        const double modelled = predictOption(s.workers, batch, s.mode).samples_per_s();
        if (modelled > 0 && applied > 0)
            m_calibration = std::clamp(applied / period / modelled, 1.0 / kCalibrationRange, kCalibrationRange);
    }
    w.set_calibration(m_calibration);
    w.set_target_accuracy(target(s));
    w.set_target_from_plan(s.options.plan.stop().target_accuracy() > 0);
    w.set_current_label(optionLabel(s.workers, s.mode));
    std::vector<wire::ModeSettings> settings = whatIfSettings(ids.size());
    bool currentListed = s.mode.mode() == wire::AUTO;
    for (const wire::ModeSettings& option : settings) currentListed |= optionLabel(s.workers, option) == w.current_label();
    if (!currentListed) settings.push_back(s.mode);
    const std::optional<double> toGo =
        w.target_accuracy() > 0 ? m_forecast.samplesTo(w.target_accuracy(), m_effective) : std::nullopt;
    for (const wire::ModeSettings& option : settings) {
        wire::AutoCandidate c = predictOption(s.workers, batch, option);
        c.set_samples_per_s(c.samples_per_s() * m_calibration);
        c.set_effective(c.effective() * m_calibration);
        c.set_seconds_to_target(toGo && c.effective() > 0 ? *toGo / c.effective() : -1.0);
        *w.add_options() = std::move(c);
    }
    return w;
}

}  // namespace syncscope::engine
