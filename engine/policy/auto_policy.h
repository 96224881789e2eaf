// AutoPolicy: a controller in the spirit of STAR. It runs one of the other policies under the hood,
// measures each worker, and every decision period asks the predictor (auto_predictor.h) whether
// another mode and grouping would train faster; a switch needs a predicted gain of 25% (no
// flapping). Until every worker is measured it runs one backup worker: ksync K=N-1 (bsp below 4
// workers). Each decision is an EVENT_AUTO with its figures. As an advisor (advise_only) it
// proposes instead (EVENT_ADVICE, numbered) and switches only when a person accepts.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "engine/policy/sync_policy.h"
#include "engine/policy/worker_registry.h"

namespace syncscope::engine {

class AutoPolicy final : public SyncPolicy {
public:
    AutoPolicy(PolicyContext& context, const wire::ModeSettings& settings);

    void onGradient(const GradientIn& gradient) override { m_inner->onGradient(gradient); }
    void onWaiting(uint32_t worker) override { m_inner->onWaiting(worker); }
    void reconsider() override { m_inner->reconsider(); }
    uint64_t pending() const override { return m_inner->pending(); }
    void drain(bool apply) override { m_inner->drain(apply); }
    void onTick() override;
    std::optional<Clock::time_point> timerDue() const override { return m_inner->timerDue(); }
    void onTimer() override { m_inner->onTimer(); }
    Status answerAdvice(uint64_t adviceId, bool accept) override;

    /// What runs under the hood now: "ksync K=7", "grouped G=2 by speed".
    std::string currentLabel() const;

private:
    void decide();
    void switchTo(const wire::AutoCandidate& choice, wire::AutoDecision decision, wire::EventKind kind);

    PolicyContext& m_context;
    wire::ModeSettings m_settings;
    std::unique_ptr<SyncPolicy> m_inner;
    std::optional<std::string> m_current;  ///< empty: the start option (ksync K=N-1 / bsp)
    bool m_decided = false;
    Clock::time_point m_lastDecision;
    std::optional<wire::AutoDecision> m_advice;  ///< the open proposal (advisor)
    uint64_t m_nextAdviceId = 1;
};

}  // namespace syncscope::engine
