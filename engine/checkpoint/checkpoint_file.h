// A checkpoint file: the 8-byte magic "SSCKPT1\n", a frame (length, CRC-32, payload as in
// recordings) holding a wire::CheckpointState, then the parameters and the optimiser's momentum as
// raw float32, then a CRC-32 of everything before it. Written atomically: a temporary file, fsync,
// rename over the final name, fsync of the folder; a torn or corrupt file is refused whole.
#pragma once

#include <string>
#include <vector>

#include "engine/core/status.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

struct CheckpointData {
    wire::CheckpointState state;
    std::vector<float> parameters, momentum;
};

Status writeCheckpointFile(const std::string& path, const CheckpointData& data);
/// The whole checkpoint, or why the file cannot be one (torn, corrupt, another model's size).
Result<CheckpointData> readCheckpointFile(const std::string& path);

}  // namespace syncscope::engine
