// WhatIfTracker (see what_if_tracker.h).
#include "engine/coordinator/what_if_tracker.h"

#include <algorithm>
#include <cmath>

#include "engine/policy/mode_predictions.h"

namespace syncscope::engine {

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
    const uint64_t version = s.store.version();
    if (m_ledger.empty() || m_ledger.back().first < version) m_ledger.emplace_back(version, s.totals.effectiveSamples);
    if (m_ledger.size() > kLedgerCap) m_ledger.pop_front();
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
    const std::string mode = s.mode.SerializeAsString();
    if (mode != m_periodMode || now - m_lastAt > 3 * kPeriodSeconds) m_applied.clear();  // a new mode, or a pause
    m_lastAt = now;
    m_periodMode = mode;
    m_applied.emplace_back(now, s.totals.appliedSamples);
    while (m_applied.size() > 2 && now - m_applied[1].first >= kCalibrationSeconds) m_applied.pop_front();

    wire::WhatIf w;
    const uint32_t batch = s.options.plan.spec().batch_size();
    if (s.mode.mode() == wire::AUTO) {
        m_calibration = 1.0;
    } else if (m_applied.size() >= 3) {  // two periods or more in this mode
        const double seconds = m_applied.back().first - m_applied.front().first;
        const double applied = m_applied.back().second - m_applied.front().second;
        const double modelled = predictOption(s.workers, batch, s.mode).samples_per_s();
        if (modelled > 0 && applied > 0 && seconds > 0)
            m_calibration = std::clamp(applied / seconds / modelled, 1.0 / kCalibrationRange, kCalibrationRange);
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
        w.target_accuracy() > 0 ? m_forecast.samplesTo(w.target_accuracy(), s.totals.effectiveSamples) : std::nullopt;
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
