// createSyncPolicy (the modes' names, parameters and checks are in engine/plan/mode_catalog.h).
#include "engine/policy/policy_factory.h"

#include "engine/plan/mode_catalog.h"
#include "engine/policy/async_policy.h"
#include "engine/policy/auto_policy.h"
#include "engine/policy/bsp_policy.h"
#include "engine/policy/elastic_policy.h"
#include "engine/policy/grouped_policy.h"
#include "engine/policy/kasync_policy.h"

namespace syncscope::engine {

Result<std::unique_ptr<SyncPolicy>> createSyncPolicy(const wire::ModeSettings& settings, PolicyContext& context) {
    if (Status s = validateModeSettings(settings); !s) return s;
    std::unique_ptr<SyncPolicy> policy;
    switch (settings.mode()) {
        case wire::BSP: policy = std::make_unique<BspPolicy>(context, std::nullopt); break;
        case wire::KSYNC: policy = std::make_unique<BspPolicy>(context, settings.k()); break;
        case wire::ASP: policy = std::make_unique<AsyncPolicy>(context, settings, std::nullopt); break;
        case wire::SSP: policy = std::make_unique<AsyncPolicy>(context, settings, settings.staleness_bound()); break;
        case wire::GROUPED: policy = std::make_unique<GroupedPolicy>(context, settings); break;
        case wire::KASYNC: policy = std::make_unique<KAsyncPolicy>(context, settings); break;
        case wire::ELASTIC: policy = std::make_unique<ElasticPolicy>(context, settings); break;
        case wire::AUTO: policy = std::make_unique<AutoPolicy>(context, settings); break;
        default: return invalidArgument("sync mode " + wire::SyncMode_Name(settings.mode()) + " is not available");
    }
    return policy;
}

}  // namespace syncscope::engine
