// Gathers: a batch's rows picked out of a data set that stays in GPU memory, so staging a batch moves
// its indices to the GPU and not its images.
#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/cuda_kernels.h"

namespace syncscope::engine {

namespace {

// One block per row (grid-stride over rows); the block's threads copy the row's floats, coalesced.
__global__ void gatherRowsKernel(const float* src, const int32_t* rows, int count, size_t rowLength, float* dst) {
    for (int i = blockIdx.x; i < count; i += gridDim.x) {
        const float* from = src + static_cast<size_t>(rows[i]) * rowLength;
        float* to = dst + static_cast<size_t>(i) * rowLength;
        for (size_t j = threadIdx.x; j < rowLength; j += blockDim.x) to[j] = from[j];
    }
}

__global__ void gatherLabelsKernel(const int32_t* src, const int32_t* rows, int count, int32_t* dst) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) dst[i] = src[rows[i]];
}

}  // namespace

void launchGatherRows(const float* src, const int32_t* rows, int count, size_t rowLength, float* dst,
                      cudaStream_t stream) {
    if (count <= 0 || rowLength == 0) return;
    gatherRowsKernel<<<static_cast<unsigned>(std::min(count, 65535)), kElementwiseThreads, 0, stream>>>(
        src, rows, count, rowLength, dst);
    SS_CUDA_CHECK_LAUNCH();
}

void launchGatherLabels(const int32_t* src, const int32_t* rows, int count, int32_t* dst, cudaStream_t stream) {
    if (count <= 0) return;
    const unsigned blocks = static_cast<unsigned>((count + kElementwiseThreads - 1) / kElementwiseThreads);
    gatherLabelsKernel<<<blocks, kElementwiseThreads, 0, stream>>>(src, rows, count, dst);
    SS_CUDA_CHECK_LAUNCH();
}

}  // namespace syncscope::engine
