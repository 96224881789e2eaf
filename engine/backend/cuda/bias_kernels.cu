// Dense-layer bias: add a per-column bias to a row-major matrix, and its gradient (column sums).
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

}  // namespace

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
