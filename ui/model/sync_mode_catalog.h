// The sync modes as the console presents them: each mode's engine name, its label and help for a
// selector, and which parameters it takes. The steering panel and the connect dialog share it.
#pragma once

#include <QString>

#include <optional>
#include <span>

#include "engine/proto/syncscope.pb.h"

namespace syncscope::ui {

struct SyncModeEntry {
    wire::SyncMode mode;
    const char* engineName;  ///< `--mode` and the events' name: bsp, asp, ..., auto
    const char* label;       ///< untranslated; see translatedLabel()
    const char* help;        ///< untranslated; see translatedHelp()
};

/// The eight modes in selector order.
std::span<const SyncModeEntry> syncModeCatalog();
/// The entry of a mode, or of an engine name ("grouped"); nullptr when there is none.
const SyncModeEntry* findSyncMode(wire::SyncMode mode);
const SyncModeEntry* findSyncMode(const QString& engineName);

QString translatedLabel(const SyncModeEntry& entry);
QString translatedHelp(const SyncModeEntry& entry);

/// Whether the staleness bound s matters: ssp, grouped with SSP inside, elastic with a slack barrier.
bool usesStaleness(const wire::ModeSettings& settings);
/// Whether stale gradients are applied, so the learning-rate modulation matters.
bool usesLrModulation(wire::SyncMode mode);
/// Whether K matters: ksync and kasync.
bool usesK(wire::SyncMode mode);

}  // namespace syncscope::ui
