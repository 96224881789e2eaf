// The models SyncScope trains: `mlp` (784-256-128-10) and `cnn` (LeNet-style), by name.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/core/status.h"
#include "engine/model/model.h"

namespace syncscope::engine {

/// Names accepted by createModel, for help texts and validation.
const std::vector<std::string>& modelNames();

/// Builds and initialises the named model for 1x28x28 inputs and 10 classes.
Result<std::unique_ptr<Model>> createModel(Backend& backend, const std::string& name, int maxBatch, uint64_t seed);

}  // namespace syncscope::engine
