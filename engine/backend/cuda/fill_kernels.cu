// fill: sets every element of a device array to one value. Its kernel doubles as the probe that tells
// createCudaBackend whether this build's kernels can run on the GPU at hand.
#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/cuda_kernels.h"

namespace syncscope::engine {

namespace {

__global__ void fillKernel(float* dst, float value, size_t count) {
    const size_t step = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step) dst[i] = value;
}

}  // namespace

void launchFill(float* dst, float value, size_t count, cudaStream_t stream) {
    if (count == 0) return;
    fillKernel<<<elementwiseBlocks(count), kElementwiseThreads, 0, stream>>>(dst, value, count);
    SS_CUDA_CHECK_LAUNCH();
}

cudaError_t probeKernelImage() {
    // Loading one kernel's attributes forces the module to load (lazy loading included), which fails
    // when the binary holds neither SASS nor PTX this device can run.
    cudaFuncAttributes attributes{};
    const cudaError_t error = cudaFuncGetAttributes(&attributes, fillKernel);
    if (error != cudaSuccess) (void)cudaGetLastError();  // clear it so later calls do not report it
    return error;
}

}  // namespace syncscope::engine
