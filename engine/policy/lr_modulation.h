// Learning-rate modulation for stale gradients: none, inverse (Zhang et al.: lr/tau for tau > 0),
// dynsgd (lr/(tau+1)).
#pragma once

#include <cstdint>

#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

inline float modulatedLearningRate(float base, uint64_t staleness, wire::LrModulation modulation) {
    switch (modulation) {
        case wire::LR_INVERSE: return staleness == 0 ? base : base / static_cast<float>(staleness);
        case wire::LR_DYNSGD: return base / static_cast<float>(staleness + 1);
        default: return base;
    }
}

}  // namespace syncscope::engine
