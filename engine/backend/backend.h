// Backend: the compute interface every layer runs on. CPU (BLAS) and CUDA (cuBLAS/cuDNN) implement it;
// this header names no CUDA type, so engine code and cluster tools build without the CUDA toolkit.
// All float pointers passed to a backend point into memory that backend allocated ("device memory").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engine/core/status.h"

namespace syncscope::engine {

/// Which backend to run on; Auto means CUDA when compiled in and a GPU is present, else CPU.
enum class BackendKind { Auto, Cpu, Cuda };

/// How a 4-D activation (N, C, H, W) lies in memory between layers. Every backend takes Nchw.
/// NChw16c (channels in blocks of 16, the block innermost; C a multiple of 16) is oneDNN's native
/// layout: its AVX-512 convolutions read and write it without reorders, and pooling vectorises over
/// the 16 channels. A backend offers it through preferredLayout(); parameters are always plain.
enum class ActivationLayout { Nchw, NChw16c };

/// Offset of element (n, c, h, w) of a C x H x W activation in the given layout.
inline size_t activationOffset(ActivationLayout layout, int n, int c, int h, int w, int channels, int height,
                               int width) {
    if (layout == ActivationLayout::Nchw) return ((size_t(n) * channels + c) * height + h) * width + w;
    return (((size_t(n) * (channels / 16) + c / 16) * height + h) * width + w) * 16 + c % 16;
}

/// Convolution geometry for one call (square kernel, same stride and padding on both axes); weights
/// OIHW. x and dx are in srcLayout, y and dy in dstLayout.
struct ConvShape {
    int batch = 0, inChannels = 0, height = 0, width = 0;
    int outChannels = 0, kernel = 0, stride = 1, padding = 0;
    ActivationLayout srcLayout = ActivationLayout::Nchw, dstLayout = ActivationLayout::Nchw;
    int outHeight() const { return (height + 2 * padding - kernel) / stride + 1; }
    int outWidth() const { return (width + 2 * padding - kernel) / stride + 1; }
};

/// Max-pool geometry (square window, no padding); x and dx in inLayout, y and dy in outLayout.
struct PoolShape {
    int batch = 0, channels = 0, height = 0, width = 0;
    int window = 2, stride = 2;
    ActivationLayout inLayout = ActivationLayout::Nchw, outLayout = ActivationLayout::Nchw;
    int outHeight() const { return (height - window) / stride + 1; }
    int outWidth() const { return (width - window) / stride + 1; }
};

/// How a backend picks and runs its convolutions. The defaults give the same bits on every run and
/// results within FP32 rounding of the CPU backend; PyTorch's defaults on CUDA are tf32 and measure on.
struct ConvolutionSettings {
    bool tf32 = false;              // tensor cores with 10-bit mantissas (TF32) allowed
    bool measure = false;           // time the candidate algorithms once per shape instead of asking the
                                    // library's heuristics (PyTorch's torch.backends.cudnn.benchmark)
    bool deterministicOnly = true;  // only algorithms without atomics: the same bits on every run
    bool operator==(const ConvolutionSettings&) const = default;
};

/// A sequence of backend calls recorded once and run again as a unit (on CUDA, a CUDA graph: one
/// launch instead of one per kernel). It reads and writes the same buffers each time it is replayed,
/// and the values those buffers hold at replay time (a learning rate in a buffer, a new batch).
class RecordedWork {
public:
    virtual ~RecordedWork() = default;
    /// Queues the recorded calls again, ordered like any other call on the backend.
    virtual void replay() = 0;
};

/// The operations a training step needs. Matrices are row-major. Every call is ordered after
/// the previous one on the same backend; copyToHost waits for the work before it.
class Backend {
public:
    virtual ~Backend() = default;

    virtual std::string name() const = 0;
    /// One line on the libraries and device behind this backend, for logs and benchmark tables.
    virtual std::string describe() const = 0;
    /// Whether this backend runs the named op (ggml's supports_op); "conv2d", "maxpool2d", ...
    virtual bool supportsOp(const std::string& op) const = 0;
    /// The layout this backend's convolutions and pools run fastest on for `channels` channels;
    /// models keep activations in it between such layers (Model::finalize plans where).
    virtual ActivationLayout preferredLayout(int /*channels*/) const { return ActivationLayout::Nchw; }

    // Memory.
    virtual void* allocate(size_t bytes) = 0;
    virtual void release(void* ptr) = 0;
    virtual void copyToDevice(void* dst, const void* src, size_t bytes) = 0;
    virtual void copyToHost(void* dst, const void* src, size_t bytes) = 0;
    virtual void copyOnDevice(void* dst, const void* src, size_t bytes) = 0;
    virtual void fill(float* dst, float value, size_t count) = 0;
    /// Waits until all queued work is done.
    virtual void synchronize() = 0;

    /// True when backend memory is host memory (the CPU backend): a batch gathered on the host is
    /// already where the ops read it. False on a GPU, where BatchFeeder keeps the data set resident.
    virtual bool sharesHostMemory() const { return true; }

    /// Records the backend calls `work` makes, without running them, for replay(). Returns nullptr
    /// and sets *whyNot where the backend cannot record (the CPU backend runs each call as it comes)
    /// or a call inside `work` cannot be recorded; the caller then makes the calls itself. `work`
    /// must not copy to or from the host.
    /// (Inline, like every other non-pure member: Backend has no key function, so each library that
    /// implements it carries its type information, whatever the order static libraries link in.)
    virtual std::unique_ptr<RecordedWork> record(const std::function<void()>& /*work*/, std::string* whyNot) {
        if (whyNot) *whyNot = "the " + name() + " backend runs each call as it comes and records none";
        return nullptr;
    }

    /// How convolutions are chosen and run (ConvolutionSettings). Returns false where the backend
    /// cannot honour a setting (the CPU backend has only the defaults); set it before the first one.
    virtual bool setConvolutionSettings(const ConvolutionSettings& settings) { return settings == ConvolutionSettings{}; }

    /// dst row i = src row rows[i], for i < count; rows of rowLength floats; rows in backend memory.
    virtual void gatherRows(const float* src, const int32_t* rows, int count, size_t rowLength, float* dst) = 0;
    /// dst[i] = src[rows[i]], for i < count; everything in backend memory.
    virtual void gatherLabels(const int32_t* src, const int32_t* rows, int count, int32_t* dst) = 0;

    // Dense algebra: C = alpha * op(A) * op(B) + beta * C, op(A) is MxK, op(B) is KxN.
    virtual void gemm(bool transA, bool transB, int m, int n, int k, float alpha, const float* a,
                      const float* b, float beta, float* c) = 0;
    /// y[r][c] += bias[c] for a rows x cols matrix.
    virtual void addBias(float* y, const float* bias, int rows, int cols) = 0;
    /// grad[c] = sum over r of dy[r][c] (overwrites grad).
    virtual void biasGradient(const float* dy, float* grad, int rows, int cols) = 0;

    // Element-wise.
    virtual void relu(const float* x, float* y, size_t count) = 0;
    /// dx = dy where y > 0, else 0.
    virtual void reluBackward(const float* y, const float* dy, float* dx, size_t count) = 0;

    // Convolution (activations in the shape's layouts, weights OIHW, bias per output channel).
    virtual void conv2dForward(const ConvShape& s, const float* x, const float* w, const float* bias,
                               float* y) = 0;
    virtual void conv2dBackwardData(const ConvShape& s, const float* w, const float* dy, float* dx) = 0;
    /// Overwrites dw and dbias with this batch's gradients.
    virtual void conv2dBackwardFilter(const ConvShape& s, const float* x, const float* dy, float* dw,
                                      float* dbias) = 0;

    // Max pooling (in the shape's layouts). Backward routes dy to the first maximum of each window
    // (in h, then w order), and 0 to every other element of dx.
    virtual void maxPool2dForward(const PoolShape& s, const float* x, float* y) = 0;
    virtual void maxPool2dBackward(const PoolShape& s, const float* x, const float* y, const float* dy,
                                   float* dx) = 0;

    /// Mean softmax cross-entropy over a batch of logits (rows x classes) with int32 labels on
    /// the device. Writes dlogits = (softmax - onehot) / rows, and per-row loss to rowLoss.
    virtual void softmaxCrossEntropy(const float* logits, const int32_t* labels, int rows, int classes,
                                     float* rowLoss, float* dlogits) = 0;

    /// SGD with momentum and decoupled-from-nothing (L2) weight decay, PyTorch's formulation:
    /// g' = g + wd * p; v = momentum * v + g'; p -= lr * v. The learning rate is read from backend
    /// memory (one float) when the step runs, so a recorded step follows a changing schedule.
    virtual void sgdMomentumStep(float* params, const float* grads, float* velocity, size_t count,
                                 const float* learningRate, float momentum, float weightDecay) = 0;
};

/// Creates a backend. `threads` sets the CPU backend's thread count (0: library default).
/// Cuda without a usable GPU (or without CUDA compiled in) is an error saying so; Auto falls
/// back to CPU and sets `notice` to a one-line explanation.
Result<std::unique_ptr<Backend>> createBackend(BackendKind kind, int threads, std::string* notice = nullptr);

/// Parses "auto" | "cpu" | "cuda".
Result<BackendKind> parseBackendKind(const std::string& text);

/// True when the CUDA backend was compiled into this build.
bool cudaCompiledIn();

}  // namespace syncscope::engine
