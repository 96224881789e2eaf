// AutoPolicy (see auto_policy.h): when to decide, and how a decision is carried out.
#include "engine/policy/auto_policy.h"

#include "engine/policy/auto_predictor.h"
#include "engine/policy/bsp_policy.h"
#include "engine/policy/grouping.h"
#include "engine/policy/policy_factory.h"
#include "engine/plan/mode_catalog.h"

namespace syncscope::engine {

AutoPolicy::AutoPolicy(PolicyContext& context, const wire::ModeSettings& settings)
    // Until it has measured, one backup worker (Chen et al.): on shared or noisy machines one of
    // N is nearly always late, and waiting for it costs more than its gradient is worth.
    : m_context(context),
      m_settings(settings),
      m_inner(std::make_unique<BspPolicy>(context, 0)),
      m_lastDecision(context.now()) {}

std::string AutoPolicy::currentLabel() const {
    if (m_current) return *m_current;
    const size_t n = m_context.workers().participantIds().size();
    return n >= 4 ? "ksync K=" + std::to_string(n - 1) : std::string("bsp");
}

void AutoPolicy::onTick() {
    const std::vector<uint32_t> ids = m_context.workers().participantIds();
    if (ids.empty()) return;
    for (uint32_t id : ids) {
        const WorkerRecord& w = *m_context.workers().find(id);
        if (w.computeSpeed <= 0 || w.pushed < kAutoPushesBeforeDeciding) return;  // not measured yet
    }
    const double period = modeSeconds(m_settings, "decision_seconds");
    if (m_decided && std::chrono::duration<double>(m_context.now() - m_lastDecision).count() < period) return;
    m_lastDecision = m_context.now();
    decide();
}

void AutoPolicy::decide() {
    wire::AutoDecision d = decideMode(m_context.workers(), m_context.baseBatchSize(), currentLabel());
    const bool firstDecision = !m_decided;
    m_decided = true;
    if (d.verdict() != wire::AutoDecision::SWITCHES) {
        if (firstDecision) m_context.announce(wire::EVENT_AUTO, describeDecision(d), &d);
        return;
    }
    if (!m_settings.advise_only()) return switchTo(d.chosen(), d, wire::EVENT_AUTO);
    // The advisor proposes the same change once, not every period; a new proposal replaces it.
    if (m_advice && m_advice->chosen().label() == d.chosen().label()) return;
    d.set_verdict(wire::AutoDecision::ADVISES);
    d.set_advice_id(m_nextAdviceId++);
    if (d.chosen().settings().mode() == wire::GROUPED) {
        const auto groups = assignGroups(m_context.workers(), d.chosen().settings().group_count(),
                                         wire::GROUP_BY_SPEED, {});
        d.set_groups(describeAssignment(groups));
    }
    m_advice = d;
    m_context.announce(wire::EVENT_ADVICE, describeDecision(d), &d);
}

Status AutoPolicy::answerAdvice(uint64_t adviceId, bool accept) {
    if (!m_advice || m_advice->advice_id() != adviceId)
        return invalidArgument("advice " + std::to_string(adviceId) + " is not open" +
                               (m_advice ? " (the open one is " + std::to_string(m_advice->advice_id()) + ")"
                                         : std::string(" (no advice is open)")));
    wire::AutoDecision answered = *m_advice;
    m_advice.reset();
    answered.set_accepted(accept);
    if (!accept) {
        m_context.announce(wire::EVENT_ADVICE_ANSWERED,
                           "advice " + std::to_string(adviceId) + " dismissed: stays " + currentLabel(), &answered);
        return Status::ok();
    }
    switchTo(answered.chosen(), answered, wire::EVENT_ADVICE_ANSWERED);
    return Status::ok();
}

void AutoPolicy::switchTo(const wire::AutoCandidate& choice, wire::AutoDecision decision, wire::EventKind kind) {
    m_inner->drain(true);  // a version boundary, as for any mode change
    m_inner.reset();
    m_context.workers().clearGroups();
    auto next = createSyncPolicy(choice.settings(), m_context);
    m_inner = next ? std::move(*next) : std::make_unique<BspPolicy>(m_context, std::nullopt);
    m_current = next ? choice.label() : "bsp";
    if (choice.settings().mode() == wire::GROUPED) decision.set_groups(describeGroups(m_context.workers()));
    std::string detail = describeDecision(decision);
    if (kind == wire::EVENT_ADVICE_ANSWERED)
        detail = "advice " + std::to_string(decision.advice_id()) + " taken: switches to " + *m_current;
    m_context.announce(kind, detail, &decision);
    m_inner->reconsider();
}

}  // namespace syncscope::engine
