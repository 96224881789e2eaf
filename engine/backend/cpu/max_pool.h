// Max pooling on host memory in either activation layout (the CPU backend's maxpool2d op).
#pragma once

#include "engine/backend/backend.h"

namespace syncscope::engine {

void maxPoolForward(const PoolShape& s, const float* x, float* y);
/// Routes dy to the first maximum of each window; writes every element of dx.
void maxPoolBackward(const PoolShape& s, const float* x, const float* y, const float* dy, float* dx);

}  // namespace syncscope::engine
