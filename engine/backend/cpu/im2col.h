// im2col / col2im for NCHW batches: the layout that turns a convolution into one matrix product.
// Columns are [C*K*K rows] x [batch*OH*OW cols], so one GEMM covers the whole batch.
#pragma once

#include "engine/backend/backend.h"

namespace syncscope::engine {

void im2colBatch(const ConvShape& s, const float* x, float* columns);
/// Accumulates columns back into dx (dx must be zeroed first).
void col2imBatch(const ConvShape& s, const float* columns, float* dx);

}  // namespace syncscope::engine
