// SGD with momentum and L2 weight decay (PyTorch's formulation), one element per thread.
#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/cuda_kernels.h"

namespace syncscope::engine {

namespace {

__global__ void sgdMomentumStepKernel(float* params, const float* grads, float* velocity, size_t count,
                                      const float* learningRate, float momentum, float weightDecay) {
    const float lr = *learningRate;
    const size_t step = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) {
        const float p = params[i];
        const float g = grads[i] + weightDecay * p;
        const float v = momentum * velocity[i] + g;
        velocity[i] = v;
        params[i] = p - lr * v;
    }
}

}  // namespace

void launchSgdMomentumStep(float* params, const float* grads, float* velocity, size_t count,
                           const float* learningRate, float momentum, float weightDecay, cudaStream_t stream) {
    if (count == 0) return;
    sgdMomentumStepKernel<<<elementwiseBlocks(count), kElementwiseThreads, 0, stream>>>(
        params, grads, velocity, count, learningRate, momentum, weightDecay);
    SS_CUDA_CHECK_LAUNCH();
}

}  // namespace syncscope::engine
