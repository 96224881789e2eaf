// ReLU forward and backward, element-wise.
#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/cuda_kernels.h"

namespace syncscope::engine {

namespace {

__global__ void reluKernel(const float* x, float* y, size_t count) {
    const size_t step = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step)
        y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

__global__ void reluBackwardKernel(const float* y, const float* dy, float* dx, size_t count) {
    const size_t step = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step)
        dx[i] = y[i] > 0.0f ? dy[i] : 0.0f;
}

}  // namespace

void launchRelu(const float* x, float* y, size_t count, cudaStream_t stream) {
    if (count == 0) return;
    reluKernel<<<elementwiseBlocks(count), kElementwiseThreads, 0, stream>>>(x, y, count);
    SS_CUDA_CHECK_LAUNCH();
}

void launchReluBackward(const float* y, const float* dy, float* dx, size_t count, cudaStream_t stream) {
    if (count == 0) return;
    reluBackwardKernel<<<elementwiseBlocks(count), kElementwiseThreads, 0, stream>>>(y, dy, dx, count);
    SS_CUDA_CHECK_LAUNCH();
}

}  // namespace syncscope::engine
