// createSyncPolicy and the names of modes and learning-rate modulations.
#include "engine/ps/sync_policy.h"

#include "engine/ps/async_policy.h"
#include "engine/ps/bsp_policy.h"

namespace syncscope::engine {

Result<std::unique_ptr<SyncPolicy>> createSyncPolicy(const wire::ModeSettings& settings, PolicyContext& context) {
    switch (settings.mode()) {
        case wire::BSP: return std::unique_ptr<SyncPolicy>(std::make_unique<BspPolicy>(context));
        case wire::ASP: return std::unique_ptr<SyncPolicy>(std::make_unique<AsyncPolicy>(context, std::nullopt));
        case wire::SSP:
            return std::unique_ptr<SyncPolicy>(std::make_unique<AsyncPolicy>(context, settings.staleness_bound()));
        default:
            return invalidArgument("sync mode " + wire::SyncMode_Name(settings.mode()) +
                                   " is not available in this build; use bsp, asp or ssp");
    }
}

std::string describeMode(const wire::ModeSettings& s) {
    std::string text;
    switch (s.mode()) {
        case wire::BSP: return "bsp";
        case wire::ASP: text = "asp"; break;
        case wire::SSP: text = "ssp s=" + std::to_string(s.staleness_bound()); break;
        default: text = wire::SyncMode_Name(s.mode()); break;
    }
    static const char* kModulation[] = {"none", "inverse", "dynsgd"};
    const int m = s.lr_modulation();
    return text + " lr=" + (m >= 0 && m <= 2 ? kModulation[m] : "?");
}

Result<wire::SyncMode> parseSyncMode(const std::string& text) {
    if (text == "bsp") return wire::BSP;
    if (text == "asp") return wire::ASP;
    if (text == "ssp") return wire::SSP;
    return invalidArgument("unknown sync mode '" + text + "': use bsp, asp or ssp");
}

Result<wire::LrModulation> parseLrModulation(const std::string& text) {
    if (text == "none") return wire::LR_NONE;
    if (text == "inverse") return wire::LR_INVERSE;
    if (text == "dynsgd") return wire::LR_DYNSGD;
    return invalidArgument("unknown learning-rate modulation '" + text + "': use none, inverse or dynsgd");
}

}  // namespace syncscope::engine
