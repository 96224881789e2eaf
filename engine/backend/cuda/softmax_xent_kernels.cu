// Softmax cross-entropy over a batch of logits: per-row loss and the gradient of the mean loss.
// One warp per row; classes are few (10 for Fashion-MNIST), so each lane loops over a handful.
#include <cmath>

#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/cuda_kernels.h"

namespace syncscope::engine {

namespace {

constexpr int kWarp = 32;
constexpr int kRowsPerBlock = 4;

__device__ float warpMax(float value) {
    for (int offset = kWarp / 2; offset > 0; offset /= 2)
        value = fmaxf(value, __shfl_xor_sync(0xffffffffu, value, offset));
    return value;
}

__device__ float warpSum(float value) {
    for (int offset = kWarp / 2; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
    return value;
}

__global__ void softmaxCrossEntropyKernel(const float* logits, const int32_t* labels, int rows, int classes,
                                          float* rowLoss, float* dlogits) {
    const int lane = static_cast<int>(threadIdx.x) % kWarp;
    const int row = static_cast<int>(blockIdx.x) * kRowsPerBlock + static_cast<int>(threadIdx.x) / kWarp;
    if (row >= rows) return;  // the whole warp leaves together, so the shuffles below stay full-warp
    const float* in = logits + static_cast<size_t>(row) * classes;
    float* out = dlogits + static_cast<size_t>(row) * classes;

    // Subtracting the row maximum keeps every exp() in (0, 1], so large logits cannot overflow.
    float maxLogit = -INFINITY;
    for (int c = lane; c < classes; c += kWarp) maxLogit = fmaxf(maxLogit, in[c]);
    maxLogit = warpMax(maxLogit);
    float sum = 0.0f;
    for (int c = lane; c < classes; c += kWarp) sum += expf(in[c] - maxLogit);
    sum = warpSum(sum);

    // Same arithmetic as the CPU backend (multiply by 1/sum and 1/rows), so the two agree to rounding.
    const int label = labels[row];
    const float inverseSum = 1.0f / sum;
    const float scale = 1.0f / static_cast<float>(rows);
    for (int c = lane; c < classes; c += kWarp)
        out[c] = (expf(in[c] - maxLogit) * inverseSum - (c == label ? 1.0f : 0.0f)) * scale;
    // -log(exp(z_l - max) / sum) = log(sum) - (z_l - max). A label out of range is a bug upstream;
    // NaN makes it visible in the loss instead of reading past the row.
    if (lane == 0) rowLoss[row] = (label >= 0 && label < classes) ? logf(sum) - (in[label] - maxLogit) : NAN;
}

}  // namespace

void launchSoftmaxCrossEntropy(const float* logits, const int32_t* labels, int rows, int classes, float* rowLoss,
                               float* dlogits, cudaStream_t stream) {
    if (rows <= 0 || classes <= 0) return;
    const unsigned blocks = static_cast<unsigned>((rows + kRowsPerBlock - 1) / kRowsPerBlock);
    softmaxCrossEntropyKernel<<<blocks, kRowsPerBlock * kWarp, 0, stream>>>(logits, labels, rows, classes, rowLoss,
                                                                             dlogits);
    SS_CUDA_CHECK_LAUNCH();
}

}  // namespace syncscope::engine
