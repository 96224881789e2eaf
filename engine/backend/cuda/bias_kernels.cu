// Dense-layer bias: add a per-column bias to a row-major matrix, and its gradient (column sums); a
// convolution's bias gradient (per-channel sums of an NCHW tensor).
#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/cuda_kernels.h"

namespace syncscope::engine {

namespace {

__global__ void addBiasKernel(float* y, const float* bias, size_t rows, size_t cols) {
    const size_t count = rows * cols;
    const size_t step = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step)
        y[i] += bias[i % cols];
}

// One thread per column, adding rows in order: the same order as a plain CPU loop, so the result is
// repeatable bit for bit, and neighbouring threads read neighbouring addresses of each row.
__global__ void biasGradientKernel(const float* dy, float* grad, int rows, int cols) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    float sum = 0.0f;
    for (int r = 0; r < rows; ++r) sum += dy[static_cast<size_t>(r) * cols + col];
    grad[col] = sum;
}

// Pass 1 of a channel's sum: block (part, channel) adds its contiguous slice of the channel's
// batch * spatial values (image by image, as NCHW stores them), then reduces across the block in a
// fixed tree. Fixed slices and trees: the same bits on every run, no atomics.
__global__ void channelPartialSumsKernel(const float* dy, float* partials, int batch, int channels, int spatial,
                                         int parts) {
    const int channel = blockIdx.y, part = blockIdx.x;
    const long long total = static_cast<long long>(batch) * spatial;
    const long long chunk = (total + parts - 1) / parts;
    const long long begin = part * chunk, end = begin + chunk < total ? begin + chunk : total;
    float sum = 0.0f;
    for (long long e = begin + threadIdx.x; e < end; e += blockDim.x) {
        const long long image = e / spatial;
        sum += dy[(image * channels + channel) * spatial + (e - image * spatial)];
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    __shared__ float warpSums[32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warpSums[warp] = sum;
    __syncthreads();
    if (warp != 0) return;
    const int warps = static_cast<int>(blockDim.x) / 32;
    sum = lane < warps ? warpSums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) partials[channel * parts + part] = sum;
}

// Pass 2: one thread per channel adds its parts in order.
__global__ void channelSumKernel(const float* partials, float* grad, int channels, int parts) {
    const int channel = blockIdx.x * blockDim.x + threadIdx.x;
    if (channel >= channels) return;
    float sum = 0.0f;
    for (int p = 0; p < parts; ++p) sum += partials[channel * parts + p];
    grad[channel] = sum;
}

constexpr int kChannelSumThreads = 256;

}  // namespace

int channelBiasGradientParts(int batch, int spatial) {
    // About 16 values per thread and part; at least one part, and few enough for pass 2 to stay cheap.
    const long long total = static_cast<long long>(batch) * spatial;
    const long long parts = (total + 16 * kChannelSumThreads - 1) / (16 * kChannelSumThreads);
    return static_cast<int>(std::clamp<long long>(parts, 1, 256));
}

void launchChannelBiasGradient(const float* dy, float* grad, int batch, int channels, int spatial, float* partials,
                               cudaStream_t stream) {
    if (channels <= 0) return;
    const int parts = channelBiasGradientParts(batch, spatial);
    channelPartialSumsKernel<<<dim3(static_cast<unsigned>(parts), static_cast<unsigned>(channels)), kChannelSumThreads,
                               0, stream>>>(dy, partials, batch < 0 ? 0 : batch, channels, spatial, parts);
    SS_CUDA_CHECK_LAUNCH();
    constexpr int kThreads = 128;
    channelSumKernel<<<static_cast<unsigned>((channels + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
        partials, grad, channels, parts);
    SS_CUDA_CHECK_LAUNCH();
}

void launchAddBias(float* y, const float* bias, int rows, int cols, cudaStream_t stream) {
    if (rows <= 0 || cols <= 0) return;
    const size_t count = static_cast<size_t>(rows) * cols;
    addBiasKernel<<<elementwiseBlocks(count), kElementwiseThreads, 0, stream>>>(y, bias, rows, cols);
    SS_CUDA_CHECK_LAUNCH();
}

void launchBiasGradient(const float* dy, float* grad, int rows, int cols, cudaStream_t stream) {
    if (cols <= 0) return;
    constexpr int kThreads = 128;
    const unsigned blocks = static_cast<unsigned>((cols + kThreads - 1) / kThreads);
    biasGradientKernel<<<blocks, kThreads, 0, stream>>>(dy, grad, rows < 0 ? 0 : rows, cols);
    SS_CUDA_CHECK_LAUNCH();
}

}  // namespace syncscope::engine
