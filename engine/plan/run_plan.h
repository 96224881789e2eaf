// RunPlan: one run described once (wire::RunPlan in engine/proto/syncscope.proto): its model, mode,
// stop conditions, layout, checkpoints and recording. `run`, `serve`, `launch` and the console build
// one from their flags or settings, starting from defaultRunPlan(), and check it once with
// validateRunPlan(); a coordinator they start receives it as a file (`serve --plan FILE`).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "engine/core/status.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

/// A run's model that the engine does not have: its (Python) workers bring it and an evaluator
/// they provide tests it; the coordinator holds only its flat parameters and the optimiser.
inline constexpr const char* kExternalModel = "external";

/// Most parameter shards (ranges of the model) one run may have.
inline constexpr uint32_t kMaxParameterShards = 64;
/// Most copies of each shard's range (--shard-replicas).
inline constexpr uint32_t kMaxShardReplicas = 4;

/// Copies of each shard's range in a layout: RunLayout.shard_replicas, 0 read as 1.
inline uint32_t shardReplicas(const wire::RunLayout& layout) { return std::max<uint32_t>(1, layout.shard_replicas()); }
/// The shard processes a layout has: each range times its copies.
inline uint32_t shardProcesses(const wire::RunLayout& layout) { return layout.shards() * shardReplicas(layout); }

/// The plan of a run nobody said anything about: every flag's and setting's default. Its data
/// folder is empty, which means the coordinator's own default (defaultFashionMnistDir()); it has no
/// stop condition, so a builder picks one (the CLI: 5 epochs, the console: what its dialog says).
const wire::RunPlan& defaultRunPlan();

/// Every rule a plan must meet, alone and across fields; each error names the setting as the command
/// line spells it (--lr, --shards) and how to fix it.
Status validateRunPlan(const wire::RunPlan& plan);

/// Writes `plan` to `path` in protobuf text format (a person can read it), made 0600 (it names the
/// run's folders and files).
Status writeRunPlan(const std::string& path, const wire::RunPlan& plan);

/// Reads a plan file and validates it; errors name the file, the line and what is wrong.
Result<wire::RunPlan> readRunPlan(const std::string& path);

}  // namespace syncscope::engine
