// PinnedModel: one version of the model kept for the workers released on it while any copy of this
// lives (a grouped round pins the version its members compute on). Where the coordinator holds the
// model it carries that version's parameters; where parameter shards hold it, it carries a hold on
// the shards' copy, which they let go of when the last copy of the hold goes. Policies never look
// inside: they pin, release on it, and drop it.
#pragma once

#include <cstdint>
#include <memory>

#include "engine/net/tensor_frame.h"

namespace syncscope::engine {

struct PinnedModel {
    uint64_t version = 0;
    SharedFloats parameters;           ///< null where the shards keep the version
    std::shared_ptr<const void> hold;  ///< the shards keep the version while it lives
};

}  // namespace syncscope::engine
