// CpuBackend: the Backend on host memory: oneDNN's sgemm for dense layers, oneDNN's convolution
// primitives for convolutions, and plain loops only for the memory-bound element-wise ops and pooling.
// Why oneDNN and not OpenBLAS: docs/performance.md, "OpenBLAS or oneDNN" (measured there).
#pragma once


#include "engine/backend/backend.h"
#include "engine/backend/cpu/dnnl_convolution.h"

namespace syncscope::engine {

class CpuBackend final : public Backend {
public:
    /// threads: OpenMP thread count for oneDNN and the batch loops; 0 keeps the OpenMP default.
    explicit CpuBackend(int threads);

    std::string name() const override { return "cpu"; }
    std::string describe() const override;
    bool supportsOp(const std::string& op) const override;
    /// NChw16c wherever the channels fill whole blocks of 16: oneDNN's AVX-512 convolutions then
    /// read and write activations as they lie, with no reorder pass between layers.
    ActivationLayout preferredLayout(int channels) const override;

    void* allocate(size_t bytes) override;
    void release(void* ptr) override;
    void copyToDevice(void* dst, const void* src, size_t bytes) override;
    void copyToHost(void* dst, const void* src, size_t bytes) override;
    void copyOnDevice(void* dst, const void* src, size_t bytes) override;
    void fill(float* dst, float value, size_t count) override;
    void gatherRows(const float* src, const int32_t* rows, int count, size_t rowLength, float* dst) override;
    void gatherLabels(const int32_t* src, const int32_t* rows, int count, int32_t* dst) override;
    void synchronize() override {}

    void gemm(bool transA, bool transB, int m, int n, int k, float alpha, const float* a, const float* b,
              float beta, float* c) override;
    void addBias(float* y, const float* bias, int rows, int cols) override;
    void biasGradient(const float* dy, float* grad, int rows, int cols) override;

    void relu(const float* x, float* y, size_t count) override;
    void reluBackward(const float* y, const float* dy, float* dx, size_t count) override;

    void conv2dForward(const ConvShape& s, const float* x, const float* w, const float* bias, float* y) override;
    void conv2dBackwardData(const ConvShape& s, const float* w, const float* dy, float* dx) override;
    void conv2dBackwardFilter(const ConvShape& s, const float* x, const float* dy, float* dw,
                              float* dbias) override;

    void maxPool2dForward(const PoolShape& s, const float* x, float* y) override;
    void maxPool2dBackward(const PoolShape& s, const float* x, const float* y, const float* dy,
                           float* dx) override;

    void softmaxCrossEntropy(const float* logits, const int32_t* labels, int rows, int classes, float* rowLoss,
                             float* dlogits) override;
    void sgdMomentumStep(float* params, const float* grads, float* velocity, size_t count, const float* learningRate,
                         float momentum, float weightDecay) override;

private:
    DnnlConvolution m_conv;
};

}  // namespace syncscope::engine
