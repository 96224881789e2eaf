// CudnnOps: the CUDA backend's convolution and max-pooling, done by cuDNN (legacy v7-style API, still in
// cuDNN 9's libcudnn_cnn). Every cuDNN call lives in cudnn_ops.cpp; descriptors and chosen algorithms
// are cached per shape, and one workspace grows to the largest need.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <cudnn.h>

#include "engine/backend/backend.h"

namespace syncscope::engine {

class CudnnOps {
public:
    /// Creates the cuDNN handle on `stream` (owned by the caller and outliving this object). Returns
    /// nullptr and sets *whyNot when cuDNN cannot start (missing sub-library, driver too old, ...).
    static std::unique_ptr<CudnnOps> create(cudaStream_t stream, std::string* whyNot);
    ~CudnnOps();
    CudnnOps(const CudnnOps&) = delete;
    CudnnOps& operator=(const CudnnOps&) = delete;

    /// "cuDNN 9.19.0": the library version actually loaded, for Backend::describe().
    std::string describe() const;

    /// Applies to convolutions planned from now on (Backend::setConvolutionSettings).
    void setSettings(const ConvolutionSettings& settings);

    // Semantics as in backend.h; every output is overwritten, never accumulated into.
    void conv2dForward(const ConvShape& s, const float* x, const float* w, const float* bias, float* y);
    void conv2dBackwardData(const ConvShape& s, const float* w, const float* dy, float* dx);
    void conv2dBackwardFilter(const ConvShape& s, const float* x, const float* dy, float* dw, float* dbias);
    void maxPool2dForward(const PoolShape& s, const float* x, float* y);
    void maxPool2dBackward(const PoolShape& s, const float* x, const float* y, const float* dy, float* dx);

private:
    struct ConvPlan;  // descriptors + chosen algorithms for one ConvShape (cudnn_ops.cpp)
    struct PoolPlan;  // descriptors for one PoolShape
    using ConvKey = std::array<int, 8>;
    using PoolKey = std::array<int, 6>;

    CudnnOps(cudnnHandle_t handle, cudaStream_t stream);
    ConvPlan& convPlan(const ConvShape& s);
    PoolPlan& poolPlan(const PoolShape& s);
    void* workspace(size_t bytes);

    cudnnHandle_t m_handle = nullptr;
    cudaStream_t m_stream = nullptr;
    std::map<ConvKey, std::unique_ptr<ConvPlan>> m_convPlans;
    std::map<PoolKey, std::unique_ptr<PoolPlan>> m_poolPlans;
    void* m_workspace = nullptr;
    size_t m_workspaceBytes = 0;
    ConvolutionSettings m_settings;
    std::vector<void*> m_retiredWorkspaces;  // outgrown, kept until the end (see workspace())
};

}  // namespace syncscope::engine
