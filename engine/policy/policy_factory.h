// The policy factory: the one place that knows every SyncPolicy; the coordinator, a control change,
// a checkpoint's restore and the adaptive mode build policies through it.
#pragma once

#include <memory>

#include "engine/core/status.h"
#include "engine/proto/syncscope.pb.h"
#include "engine/policy/sync_policy.h"

namespace syncscope::engine {

/// Builds the policy for valid settings (validateModeSettings first). Grouping policies assign
/// WorkerRecord::group on construction; the caller clears groups before building another.
Result<std::unique_ptr<SyncPolicy>> createSyncPolicy(const wire::ModeSettings& settings, PolicyContext& context);

}  // namespace syncscope::engine
