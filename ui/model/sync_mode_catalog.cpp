// The sync-mode catalogue (see sync_mode_catalog.h). The texts are translated in the context
// "syncscope::ui::SteeringPanel", where they were first written (translations/*.ts).
#include "ui/model/sync_mode_catalog.h"

#include <QCoreApplication>

#include <algorithm>

namespace syncscope::ui {
namespace {

constexpr const char* kContext = "syncscope::ui::SteeringPanel";

constexpr SyncModeEntry kModes[] = {
    {wire::BSP, "bsp", QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel", "BSP (bulk synchronous)"),
     QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel",
                       "Wait for every worker, average their gradients, apply once. No staleness, but the "
                       "slowest worker sets the pace.")},
    {wire::ASP, "asp", QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel", "ASP (asynchronous)"),
     QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel",
                       "Apply each gradient as it arrives. Nobody waits, but gradients can be stale.")},
    {wire::SSP, "ssp", QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel", "SSP (stale synchronous)"),
     QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel",
                       "Apply on arrival; a worker more than s clocks ahead of the slowest waits. s = 0 is BSP.")},
    {wire::GROUPED, "grouped", QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel", "Grouped (hybrid)"),
     QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel",
                       "G groups: BSP (or SSP) inside a group, groups update the model asynchronously. "
                       "G = 1 is BSP, G = N is ASP.")},
    {wire::KSYNC, "ksync", QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel", "K-sync (backup workers)"),
     QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel",
                       "Average the first K gradients of each version; late ones are dropped and counted. "
                       "K = N is BSP.")},
    {wire::KASYNC, "kasync", QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel", "K-async (n-softsync)"),
     QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel",
                       "Update after every K gradients from anyone, stale ones included. K = 1 is ASP.")},
    {wire::ELASTIC, "elastic", QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel", "Elastic batch"),
     QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel",
                       "Each worker's batch is sized in proportion to its speed so all arrive together; "
                       "enforced (BSP) or slack (SSP) barrier.")},
    {wire::AUTO, "auto", QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel", "Auto (adaptive)"),
     QT_TRANSLATE_NOOP("syncscope::ui::SteeringPanel",
                       "A controller measures the workers' speeds and picks mode and grouping; each decision "
                       "appears as a marker with its reason.")},
};

}  // namespace

std::span<const SyncModeEntry> syncModeCatalog() { return kModes; }

const SyncModeEntry* findSyncMode(wire::SyncMode mode) {
    const auto it = std::find_if(std::begin(kModes), std::end(kModes), [&](const auto& e) { return e.mode == mode; });
    return it == std::end(kModes) ? nullptr : &*it;
}

const SyncModeEntry* findSyncMode(const QString& engineName) {
    const auto it = std::find_if(std::begin(kModes), std::end(kModes),
                                 [&](const auto& e) { return engineName == QLatin1String(e.engineName); });
    return it == std::end(kModes) ? nullptr : &*it;
}

QString translatedLabel(const SyncModeEntry& entry) { return QCoreApplication::translate(kContext, entry.label); }
QString translatedHelp(const SyncModeEntry& entry) { return QCoreApplication::translate(kContext, entry.help); }

bool usesStaleness(const wire::ModeSettings& s) {
    return s.mode() == wire::SSP || (s.mode() == wire::GROUPED && s.intra_group_ssp()) ||
           (s.mode() == wire::ELASTIC && s.elastic_slack());
}

bool usesLrModulation(wire::SyncMode mode) {
    return mode == wire::ASP || mode == wire::SSP || mode == wire::KASYNC || mode == wire::GROUPED;
}

bool usesK(wire::SyncMode mode) { return mode == wire::KSYNC || mode == wire::KASYNC; }

}  // namespace syncscope::ui
