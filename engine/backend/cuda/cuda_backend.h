// CudaBackend: the Backend on one NVIDIA GPU. cuBLAS does gemm, cuDNN (CudnnOps) convolution and
// pooling, small kernels the rest; all of it is queued in order on one stream the backend owns.
// Internal to the CUDA backend; the rest of the engine reaches it through cuda_backend_factory.h.
#pragma once

#include <memory>
#include <string>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "engine/backend/backend.h"
#include "engine/backend/cuda/cudnn_ops.h"

namespace syncscope::engine {

class CudaBackend final : public Backend {
public:
    /// Starts the backend on `device`: stream, cuBLAS and cuDNN handles. Returns nullptr and sets
    /// *whyNot when any of them cannot start or this build's kernels cannot run on the device.
    static std::unique_ptr<CudaBackend> create(int device, std::string* whyNot);
    ~CudaBackend() override;
    CudaBackend(const CudaBackend&) = delete;
    CudaBackend& operator=(const CudaBackend&) = delete;

    std::string name() const override { return "cuda"; }
    std::string describe() const override;
    bool supportsOp(const std::string& op) const override;

    void* allocate(size_t bytes) override;
    void release(void* ptr) override;
    void copyToDevice(void* dst, const void* src, size_t bytes) override;
    void copyToHost(void* dst, const void* src, size_t bytes) override;
    void copyOnDevice(void* dst, const void* src, size_t bytes) override;
    void fill(float* dst, float value, size_t count) override;
    void synchronize() override;
    bool sharesHostMemory() const override { return false; }
    bool setConvolutionSettings(const ConvolutionSettings& settings) override;
    std::unique_ptr<RecordedWork> record(const std::function<void()>& work, std::string* whyNot) override;
    void gatherRows(const float* src, const int32_t* rows, int count, size_t rowLength, float* dst) override;
    void gatherLabels(const int32_t* src, const int32_t* rows, int count, int32_t* dst) override;

    void gemm(bool transA, bool transB, int m, int n, int k, float alpha, const float* a, const float* b, float beta,
              float* c) override;
    void addBias(float* y, const float* bias, int rows, int cols) override;
    void biasGradient(const float* dy, float* grad, int rows, int cols) override;

    void relu(const float* x, float* y, size_t count) override;
    void reluBackward(const float* y, const float* dy, float* dx, size_t count) override;

    void conv2dForward(const ConvShape& s, const float* x, const float* w, const float* bias, float* y) override;
    void conv2dBackwardData(const ConvShape& s, const float* w, const float* dy, float* dx) override;
    void conv2dBackwardFilter(const ConvShape& s, const float* x, const float* dy, float* dw, float* dbias) override;

    void maxPool2dForward(const PoolShape& s, const float* x, float* y) override;
    void maxPool2dBackward(const PoolShape& s, const float* x, const float* y, const float* dy, float* dx) override;

    void softmaxCrossEntropy(const float* logits, const int32_t* labels, int rows, int classes, float* rowLoss,
                             float* dlogits) override;
    void sgdMomentumStep(float* params, const float* grads, float* velocity, size_t count, const float* learningRate,
                         float momentum, float weightDecay) override;

private:
    explicit CudaBackend(int device) : m_device(device) {}
    bool start(std::string* whyNot);

    int m_device = 0;
    std::string m_deviceName;
    std::string m_description;  // filled by start(): device, capability, library versions
    cudaStream_t m_stream = nullptr;
    cublasHandle_t m_cublas = nullptr;
    void* m_cublasWorkspace = nullptr;  // set explicitly, so a recorded gemm never asks for memory
    std::unique_ptr<CudnnOps> m_cudnn;
    ConvolutionSettings m_convolutions;
};

}  // namespace syncscope::engine
