// createSyncPolicy, the checks on a mode's parameters, and the names of modes, learning-rate
// modulations and grouping rules.
#include "engine/ps/sync_policy.h"

#include <cmath>

#include "engine/ps/async_policy.h"
#include "engine/ps/auto_policy.h"
#include "engine/ps/bsp_policy.h"
#include "engine/ps/elastic_policy.h"
#include "engine/ps/grouped_policy.h"
#include "engine/ps/kasync_policy.h"

namespace syncscope::engine {
namespace {

constexpr const char* kModeNames[] = {"?", "bsp", "asp", "ssp", "grouped", "ksync", "kasync", "elastic", "auto"};
constexpr const char* kModulationNames[] = {"none", "inverse", "dynsgd"};
constexpr const char* kGroupByNames[] = {"round-robin", "speed", "explicit"};

std::string lrSuffix(const wire::ModeSettings& s) {
    const int m = s.lr_modulation();
    return std::string(" lr=") + (m >= 0 && m <= 2 ? kModulationNames[m] : "?");
}

}  // namespace

wire::Contribution makeContribution(PolicyContext& context, const GradientIn& g, uint64_t staleness, float weight) {
    wire::Contribution c;
    c.set_worker_id(g.worker);
    c.set_base_version(g.baseVersion);
    c.set_staleness(static_cast<uint32_t>(staleness));
    c.set_batch_size(g.batchSize);
    c.set_weight(weight);
    if (const WorkerRecord* w = context.workers().find(g.worker)) {
        c.set_clock(w->clock);
        c.set_group(w->group);
    }
    return c;
}

Status validateModeSettings(const wire::ModeSettings& s) {
    if (s.mode() < wire::BSP || s.mode() > wire::AUTO)
        return invalidArgument("unknown sync mode " + std::to_string(s.mode()) +
                               "; use bsp, asp, ssp, grouped, ksync, kasync, elastic or auto");
    if (s.staleness_bound() > 1000) return invalidArgument("staleness bound s must be at most 1000");
    if (s.group_count() > 1024) return invalidArgument("group count G must be at most 1024");
    for (const auto& [worker, group] : s.assignment())
        if (s.group_count() > 0 && group >= s.group_count())
            return invalidArgument("worker " + std::to_string(worker) + " is assigned to group " + std::to_string(group) +
                                   " but there are only " + std::to_string(s.group_count()) + " groups (0.." +
                                   std::to_string(s.group_count() - 1) + ")");
    if (s.k() > 1024) return invalidArgument("K must be at most 1024");
    auto seconds = [](double v) { return std::isfinite(v) && v >= 0 && v <= 3600; };
    if (!seconds(s.rebalance_seconds()) || !seconds(s.decision_seconds()))
        return invalidArgument("rebalance and decision periods must be in [0, 3600] seconds (0: the default)");
    return Status::ok();
}

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

std::string describeMode(const wire::ModeSettings& s) {
    const std::string name = syncModeName(s.mode());
    switch (s.mode()) {
        case wire::BSP: return name;
        case wire::ASP: return name + lrSuffix(s);
        case wire::SSP: return name + " s=" + std::to_string(s.staleness_bound()) + lrSuffix(s);
        case wire::GROUPED: {
            const int by = s.group_by();
            std::string text = name + " G=" + std::to_string(s.group_count() ? s.group_count() : 2) + " by " +
                               (by >= 0 && by <= 2 ? kGroupByNames[by] : "?");
            text += s.intra_group_ssp() ? ", ssp s=" + std::to_string(s.staleness_bound()) + " inside" : ", bsp inside";
            return text + lrSuffix(s);
        }
        case wire::KSYNC: return name + (s.k() ? " K=" + std::to_string(s.k()) : std::string(" K=N-1"));
        case wire::KASYNC: return name + (s.k() ? " K=" + std::to_string(s.k()) : std::string(" K=N/2")) + lrSuffix(s);
        case wire::ELASTIC:
            return name + (s.elastic_slack() ? " slack s=" + std::to_string(s.staleness_bound()) : std::string(" enforced"));
        case wire::AUTO: return name;
        default: return name;
    }
}

std::string syncModeName(wire::SyncMode mode) {
    return mode >= wire::BSP && mode <= wire::AUTO ? kModeNames[mode] : wire::SyncMode_Name(mode);
}

Result<wire::SyncMode> parseSyncMode(const std::string& text) {
    for (int m = wire::BSP; m <= wire::AUTO; ++m)
        if (text == kModeNames[m]) return static_cast<wire::SyncMode>(m);
    return invalidArgument("unknown sync mode '" + text + "': use bsp, asp, ssp, grouped, ksync, kasync, elastic or auto");
}

Result<wire::LrModulation> parseLrModulation(const std::string& text) {
    for (int m = 0; m <= 2; ++m)
        if (text == kModulationNames[m]) return static_cast<wire::LrModulation>(m);
    return invalidArgument("unknown learning-rate modulation '" + text + "': use none, inverse or dynsgd");
}

Result<wire::GroupBy> parseGroupBy(const std::string& text) {
    for (int m = 0; m <= 2; ++m)
        if (text == kGroupByNames[m]) return static_cast<wire::GroupBy>(m);
    return invalidArgument("unknown grouping '" + text + "': use round-robin, speed or explicit");
}

}  // namespace syncscope::engine
