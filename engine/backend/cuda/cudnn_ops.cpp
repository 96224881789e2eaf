// cuDNN half of the CUDA backend: convolution forward/backward and deterministic max pooling. Plans
// (descriptors + algorithms) are built once per distinct shape; math is kept strictly FP32 (no TF32)
// and only deterministic algorithms are chosen, so results repeat and stay close to the CPU backend.
#include "engine/backend/cuda/cudnn_ops.h"

#include <algorithm>
#include <string>
#include <utility>

#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/core/check.h"

namespace syncscope::engine {

namespace {

bool isTensorOpMath(cudnnMathType_t math) {
    return math == CUDNN_TENSOR_OP_MATH || math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
}

// cudnnGet*_v7 (heuristics) and cudnnFind* (measured) list algorithms best first; take the best the
// settings allow: deterministic unless told otherwise, plain FP32 unless TF32 is allowed.
template <typename Perf>
const Perf* bestAllowed(const Perf* results, int count, const ConvolutionSettings& settings) {
    for (int i = 0; i < count; ++i) {
        const Perf& r = results[i];
        if (r.status == CUDNN_STATUS_SUCCESS && (!settings.deterministicOnly || r.determinism == CUDNN_DETERMINISTIC) &&
            (settings.tf32 || !isTensorOpMath(r.mathType)))
            return &r;
    }
    return nullptr;
}

void setReason(std::string* whyNot, std::string reason) {
    if (whyNot) *whyNot = std::move(reason);
}

}  // namespace

struct CudnnOps::ConvPlan {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr, bias = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnConvolutionFwdAlgo_t forwardAlgo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    cudnnConvolutionBwdDataAlgo_t backwardDataAlgo = CUDNN_CONVOLUTION_BWD_DATA_ALGO_1;
    cudnnConvolutionBwdFilterAlgo_t backwardFilterAlgo = CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1;
    size_t forwardBytes = 0, backwardDataBytes = 0, backwardFilterBytes = 0;

    ConvPlan() {
        SS_CUDNN_CHECK(cudnnCreateTensorDescriptor(&x));
        SS_CUDNN_CHECK(cudnnCreateTensorDescriptor(&y));
        SS_CUDNN_CHECK(cudnnCreateTensorDescriptor(&bias));
        SS_CUDNN_CHECK(cudnnCreateFilterDescriptor(&w));
        SS_CUDNN_CHECK(cudnnCreateConvolutionDescriptor(&conv));
    }
    ~ConvPlan() {
        SS_CUDNN_CHECK(cudnnDestroyConvolutionDescriptor(conv));
        SS_CUDNN_CHECK(cudnnDestroyFilterDescriptor(w));
        SS_CUDNN_CHECK(cudnnDestroyTensorDescriptor(bias));
        SS_CUDNN_CHECK(cudnnDestroyTensorDescriptor(y));
        SS_CUDNN_CHECK(cudnnDestroyTensorDescriptor(x));
    }
    ConvPlan(const ConvPlan&) = delete;
    ConvPlan& operator=(const ConvPlan&) = delete;
};

struct CudnnOps::PoolPlan {
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnPoolingDescriptor_t pool = nullptr;

    PoolPlan() {
        SS_CUDNN_CHECK(cudnnCreateTensorDescriptor(&x));
        SS_CUDNN_CHECK(cudnnCreateTensorDescriptor(&y));
        SS_CUDNN_CHECK(cudnnCreatePoolingDescriptor(&pool));
    }
    ~PoolPlan() {
        SS_CUDNN_CHECK(cudnnDestroyPoolingDescriptor(pool));
        SS_CUDNN_CHECK(cudnnDestroyTensorDescriptor(y));
        SS_CUDNN_CHECK(cudnnDestroyTensorDescriptor(x));
    }
    PoolPlan(const PoolPlan&) = delete;
    PoolPlan& operator=(const PoolPlan&) = delete;
};

std::unique_ptr<CudnnOps> CudnnOps::create(cudaStream_t stream, std::string* whyNot) {
    const size_t runtimeVersion = cudnnGetVersion();
    if (runtimeVersion / 10000 != CUDNN_MAJOR) {
        setReason(whyNot, "cuDNN " + std::to_string(runtimeVersion) + " is installed but this build needs cuDNN " +
                              std::to_string(CUDNN_MAJOR) + ".x; install the matching libcudnn or rebuild");
        return nullptr;
    }
    // The legacy convolution and pooling calls live in sub-libraries that libcudnn loads on demand;
    // load them now so a missing one is a clear reason here rather than an abort mid-training.
    for (const cudnnStatus_t status : {cudnnOpsVersionCheck(), cudnnCnnVersionCheck()}) {
        if (status != CUDNN_STATUS_SUCCESS) {
            setReason(whyNot, std::string("cuDNN's ops/cnn libraries could not be loaded: ") + cudnnGetErrorString(status));
            return nullptr;
        }
    }
    cudnnHandle_t handle = nullptr;
    cudnnStatus_t status = cudnnCreate(&handle);
    if (status != CUDNN_STATUS_SUCCESS) {
        setReason(whyNot, std::string("cuDNN could not start: ") + cudnnGetErrorString(status));
        return nullptr;
    }
    status = cudnnSetStream(handle, stream);
    if (status != CUDNN_STATUS_SUCCESS) {
        setReason(whyNot, std::string("cuDNN could not use the backend's stream: ") + cudnnGetErrorString(status));
        cudnnDestroy(handle);
        return nullptr;
    }
    return std::unique_ptr<CudnnOps>(new CudnnOps(handle, stream));
}

CudnnOps::CudnnOps(cudnnHandle_t handle, cudaStream_t stream) : m_handle(handle), m_stream(stream) {}

std::string CudnnOps::describe() const {
    const size_t version = cudnnGetVersion();  // major * 10000 + minor * 100 + patch since cuDNN 9
    return "cuDNN " + std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
           std::to_string(version % 100);
}

CudnnOps::~CudnnOps() {
    SS_CUDA_CHECK(cudaStreamSynchronize(m_stream));
    m_convPlans.clear();
    m_poolPlans.clear();
    if (m_workspace) SS_CUDA_CHECK(cudaFree(m_workspace));
    for (void* retired : m_retiredWorkspaces) SS_CUDA_CHECK(cudaFree(retired));
    SS_CUDNN_CHECK(cudnnDestroy(m_handle));
}

CudnnOps::ConvPlan& CudnnOps::convPlan(const ConvShape& s) {
    const ConvKey key{s.batch, s.inChannels, s.height, s.width, s.outChannels, s.kernel, s.stride, s.padding};
    if (auto found = m_convPlans.find(key); found != m_convPlans.end()) return *found->second;

    SS_CHECK(s.batch > 0 && s.inChannels > 0 && s.outChannels > 0 && s.kernel > 0 && s.stride > 0 && s.padding >= 0,
             "ConvShape has a non-positive size");
    SS_CHECK(s.outHeight() > 0 && s.outWidth() > 0, "ConvShape's kernel is larger than the padded input");
    auto plan = std::make_unique<ConvPlan>();
    ConvPlan& p = *plan;
    SS_CUDNN_CHECK(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, s.batch, s.inChannels,
                                              s.height, s.width));
    SS_CUDNN_CHECK(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, s.batch, s.outChannels,
                                              s.outHeight(), s.outWidth()));
    SS_CUDNN_CHECK(cudnnSetTensor4dDescriptor(p.bias, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, s.outChannels, 1, 1));
    SS_CUDNN_CHECK(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, s.outChannels, s.inChannels,
                                              s.kernel, s.kernel));
    // Cross-correlation, as every deep-learning "convolution" (and the CPU backend) computes it.
    SS_CUDNN_CHECK(cudnnSetConvolution2dDescriptor(p.conv, s.padding, s.padding, s.stride, s.stride, 1, 1,
                                                   CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    // FMA math forbids TF32 tensor cores (which CUDNN_DEFAULT_MATH allows on Ampere and later), keeping
    // results within FP32 rounding of the CPU backend; ConvolutionSettings::tf32 asks for them, as PyTorch does.
    SS_CUDNN_CHECK(cudnnSetConvolutionMathType(p.conv, m_settings.tf32 ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH));

    int n = 0, c = 0, h = 0, w = 0;
    SS_CUDNN_CHECK(cudnnGetConvolution2dForwardOutputDim(p.conv, p.x, p.w, &n, &c, &h, &w));
    SS_CHECK(n == s.batch && c == s.outChannels && h == s.outHeight() && w == s.outWidth(),
             "cuDNN's convolution output geometry differs from ConvShape's");

    // Heuristics (Get_v7) by default, not measurements (Find): the choice is then the same on every run
    // and every worker, which timing under load would not guarantee. Measuring runs each candidate on
    // buffers cuDNN allocates itself, once per shape, outside any recorded step (plans are made by the
    // first, call-by-call step).
    int returned = 0;
    cudnnConvolutionFwdAlgoPerf_t forward[CUDNN_CONVOLUTION_FWD_ALGO_COUNT] = {};
    if (m_settings.measure)
        SS_CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithm(m_handle, p.x, p.w, p.conv, p.y,
                                                            CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, forward));
    else
        SS_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(m_handle, p.x, p.w, p.conv, p.y,
                                                              CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, forward));
    if (const auto* best = bestAllowed(forward, returned, m_settings)) p.forwardAlgo = best->algo;
    SS_CUDNN_CHECK(
        cudnnGetConvolutionForwardWorkspaceSize(m_handle, p.x, p.w, p.conv, p.y, p.forwardAlgo, &p.forwardBytes));

    cudnnConvolutionBwdDataAlgoPerf_t backwardData[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT] = {};
    if (m_settings.measure)
        SS_CUDNN_CHECK(cudnnFindConvolutionBackwardDataAlgorithm(
            m_handle, p.w, p.y, p.conv, p.x, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &returned, backwardData));
    else
        SS_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithm_v7(
            m_handle, p.w, p.y, p.conv, p.x, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &returned, backwardData));
    if (const auto* best = bestAllowed(backwardData, returned, m_settings)) p.backwardDataAlgo = best->algo;
    SS_CUDNN_CHECK(cudnnGetConvolutionBackwardDataWorkspaceSize(m_handle, p.w, p.y, p.conv, p.x, p.backwardDataAlgo,
                                                                &p.backwardDataBytes));

    cudnnConvolutionBwdFilterAlgoPerf_t backwardFilter[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT] = {};
    if (m_settings.measure)
        SS_CUDNN_CHECK(cudnnFindConvolutionBackwardFilterAlgorithm(
            m_handle, p.x, p.y, p.conv, p.w, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &returned, backwardFilter));
    else
        SS_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
            m_handle, p.x, p.y, p.conv, p.w, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &returned, backwardFilter));
    if (const auto* best = bestAllowed(backwardFilter, returned, m_settings)) p.backwardFilterAlgo = best->algo;
    SS_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterWorkspaceSize(m_handle, p.x, p.y, p.conv, p.w,
                                                                  p.backwardFilterAlgo, &p.backwardFilterBytes));

    return *m_convPlans.emplace(key, std::move(plan)).first->second;
}

CudnnOps::PoolPlan& CudnnOps::poolPlan(const PoolShape& s) {
    const PoolKey key{s.batch, s.channels, s.height, s.width, s.window, s.stride};
    if (auto found = m_poolPlans.find(key); found != m_poolPlans.end()) return *found->second;

    SS_CHECK(s.batch > 0 && s.channels > 0 && s.window > 0 && s.stride > 0, "PoolShape has a non-positive size");
    SS_CHECK(s.outHeight() > 0 && s.outWidth() > 0, "PoolShape's window is larger than the input");
    auto plan = std::make_unique<PoolPlan>();
    PoolPlan& p = *plan;
    SS_CUDNN_CHECK(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, s.batch, s.channels, s.height,
                                              s.width));
    SS_CUDNN_CHECK(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, s.batch, s.channels,
                                              s.outHeight(), s.outWidth()));
    // MAX_DETERMINISTIC: the backward pass routes each window's gradient to one maximum without atomics.
    SS_CUDNN_CHECK(cudnnSetPooling2dDescriptor(p.pool, CUDNN_POOLING_MAX_DETERMINISTIC, CUDNN_NOT_PROPAGATE_NAN,
                                               s.window, s.window, 0, 0, s.stride, s.stride));
    int n = 0, c = 0, h = 0, w = 0;
    SS_CUDNN_CHECK(cudnnGetPooling2dForwardOutputDim(p.pool, p.x, &n, &c, &h, &w));
    SS_CHECK(n == s.batch && c == s.channels && h == s.outHeight() && w == s.outWidth(),
             "cuDNN's pooling output geometry differs from PoolShape's");
    return *m_poolPlans.emplace(key, std::move(plan)).first->second;
}

void CudnnOps::setSettings(const ConvolutionSettings& settings) {
    if (settings == m_settings) return;
    m_settings = settings;
    m_convPlans.clear();  // planned under other settings; recorded steps keep their kernels, not these plans
}

void* CudnnOps::workspace(size_t bytes) {
    if (bytes > m_workspaceBytes) {
        // The old buffer stays allocated until the end: queued work and recorded steps (CUDA graphs,
        // Backend::record) may still read it, and a stream synchronisation here would break a recording.
        if (m_workspace) m_retiredWorkspaces.push_back(m_workspace);
        m_workspace = nullptr;
        m_workspaceBytes = 0;
        SS_CUDA_CHECK(cudaMalloc(&m_workspace, bytes));
        m_workspaceBytes = bytes;
    }
    return m_workspace;
}

void CudnnOps::conv2dForward(const ConvShape& s, const float* x, const float* w, const float* bias, float* y) {
    ConvPlan& p = convPlan(s);
    const float one = 1.0f, zero = 0.0f;
    void* scratch = workspace(p.forwardBytes);
    SS_CUDNN_CHECK(cudnnConvolutionForward(m_handle, &one, p.x, x, p.w, w, p.conv, p.forwardAlgo, scratch,
                                           p.forwardBytes, &zero, p.y, y));
    if (bias) SS_CUDNN_CHECK(cudnnAddTensor(m_handle, &one, p.bias, bias, &one, p.y, y));
}

void CudnnOps::conv2dBackwardData(const ConvShape& s, const float* w, const float* dy, float* dx) {
    ConvPlan& p = convPlan(s);
    const float one = 1.0f, zero = 0.0f;
    void* scratch = workspace(p.backwardDataBytes);
    SS_CUDNN_CHECK(cudnnConvolutionBackwardData(m_handle, &one, p.w, w, p.y, dy, p.conv, p.backwardDataAlgo, scratch,
                                                p.backwardDataBytes, &zero, p.x, dx));
}

void CudnnOps::conv2dBackwardFilter(const ConvShape& s, const float* x, const float* dy, float* dw, float* dbias) {
    ConvPlan& p = convPlan(s);
    const float one = 1.0f, zero = 0.0f;  // beta = 0: overwrite, as backend.h asks
    // One workspace for both: the bias kernels are queued after the convolution, on the same stream.
    const size_t partialBytes =
        sizeof(float) * s.outChannels * channelBiasGradientParts(s.batch, s.outHeight() * s.outWidth());
    void* scratch = workspace(std::max(p.backwardFilterBytes, dbias ? partialBytes : 0));
    SS_CUDNN_CHECK(cudnnConvolutionBackwardFilter(m_handle, &one, p.x, x, p.y, dy, p.conv, p.backwardFilterAlgo,
                                                  scratch, p.backwardFilterBytes, &zero, p.w, dw));
    // Our own per-channel sum, not cudnnConvolutionBackwardBias: with 16 or 32 channels cuDNN's took
    // most of the cnn's step at batch 1024 on an H100 (docs/gpu.md, "Where a step's time goes").
    if (dbias)
        launchChannelBiasGradient(dy, dbias, s.batch, s.outChannels, s.outHeight() * s.outWidth(),
                                  static_cast<float*>(scratch), m_stream);
}

void CudnnOps::maxPool2dForward(const PoolShape& s, const float* x, float* y) {
    PoolPlan& p = poolPlan(s);
    const float one = 1.0f, zero = 0.0f;
    SS_CUDNN_CHECK(cudnnPoolingForward(m_handle, p.pool, &one, p.x, x, &zero, p.y, y));
}

void CudnnOps::maxPool2dBackward(const PoolShape& s, const float* x, const float* y, const float* dy, float* dx) {
    PoolPlan& p = poolPlan(s);
    const float one = 1.0f, zero = 0.0f;
    SS_CUDNN_CHECK(cudnnPoolingBackward(m_handle, p.pool, &one, p.y, y, p.y, dy, p.x, x, &zero, p.x, dx));
}

}  // namespace syncscope::engine
