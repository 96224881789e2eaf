// SyncPolicy's defaults and the record of a contribution (policies are built in policy_factory.cpp).
#include "engine/policy/sync_policy.h"

#include <cmath>


namespace syncscope::engine {

wire::Contribution makeContribution(PolicyContext& context, const GradientIn& g, uint64_t staleness, float weight) {
    wire::Contribution c;
    c.set_worker_id(g.worker);
    c.set_base_version(g.baseVersion);
    c.set_staleness(static_cast<uint32_t>(staleness));
    c.set_batch_size(g.batchSize);
    c.set_weight(weight);
    c.set_sequence(g.sequence);
    if (const WorkerRecord* w = context.workers().find(g.worker)) {
        c.set_clock(w->clock);
        c.set_group(w->group);
    }
    return c;
}

Status SyncPolicy::answerAdvice(uint64_t adviceId, bool) {
    return invalidArgument("there is no advice " + std::to_string(adviceId) +
                           " to answer: only auto in its advise role proposes changes");
}

}  // namespace syncscope::engine
