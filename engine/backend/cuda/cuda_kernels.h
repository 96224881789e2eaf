// Host launchers of the CUDA backend's small kernels (fill, ReLU, bias, softmax cross-entropy, SGD,
// gathers).
// Each queues its kernel on `stream` and checks the launch; the kernel sits next to its launcher in
// one .cu file per concern. Internal to the CUDA backend: only its own translation units include this.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace syncscope::engine {

/// Threads per block for the element-wise kernels.
constexpr int kElementwiseThreads = 256;

/// Blocks for a grid-stride loop over `count` elements; capped, since each thread loops anyway.
inline unsigned elementwiseBlocks(size_t count) {
    const size_t needed = (count + kElementwiseThreads - 1) / kElementwiseThreads;
    return static_cast<unsigned>(std::min<size_t>(needed, 65536));
}

void launchFill(float* dst, float value, size_t count, cudaStream_t stream);

/// y = max(x, 0).
void launchRelu(const float* x, float* y, size_t count, cudaStream_t stream);
/// dx = dy where y > 0, else 0.
void launchReluBackward(const float* y, const float* dy, float* dx, size_t count, cudaStream_t stream);

/// y[r][c] += bias[c] for a row-major rows x cols matrix.
void launchAddBias(float* y, const float* bias, int rows, int cols, cudaStream_t stream);
/// grad[c] = sum over r of dy[r][c], summed in row order (deterministic; overwrites grad).
void launchBiasGradient(const float* dy, float* grad, int rows, int cols, cudaStream_t stream);
/// A convolution's bias gradient: grad[c] = sum over n, h, w of an NCHW dy (spatial = H * W), in two
/// deterministic passes through `partials` (channels * channelBiasGradientParts(batch, spatial) floats
/// of device memory; overwrites grad). Spread over the whole GPU however few the channels, where
/// cudnnConvolutionBackwardBias took most of the cnn's step at batch 1024 (docs/gpu.md).
void launchChannelBiasGradient(const float* dy, float* grad, int batch, int channels, int spatial, float* partials,
                               cudaStream_t stream);
/// How many partial sums per channel launchChannelBiasGradient makes for this shape.
int channelBiasGradientParts(int batch, int spatial);

/// Per row: stable softmax, rowLoss[r] = -log softmax[label], dlogits = (softmax - onehot) / rows.
void launchSoftmaxCrossEntropy(const float* logits, const int32_t* labels, int rows, int classes, float* rowLoss,
                               float* dlogits, cudaStream_t stream);

/// g' = g + wd * p; v = momentum * v + g'; p -= lr * v, lr read from device memory when it runs.
void launchSgdMomentumStep(float* params, const float* grads, float* velocity, size_t count,
                           const float* learningRate, float momentum, float weightDecay, cudaStream_t stream);

/// dst row i = src row rows[i] (rowLength floats each), for i < count.
void launchGatherRows(const float* src, const int32_t* rows, int count, size_t rowLength, float* dst,
                      cudaStream_t stream);
/// dst[i] = src[rows[i]], for i < count.
void launchGatherLabels(const int32_t* src, const int32_t* rows, int count, int32_t* dst, cudaStream_t stream);

/// cudaSuccess when this build's kernels can run on the current device; otherwise the error a launch
/// would hit (typically cudaErrorNoKernelImageForDevice: built for other GPU architectures).
cudaError_t probeKernelImage();

}  // namespace syncscope::engine
