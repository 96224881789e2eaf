// CudaBackend: memory and copies on the backend's stream, gemm through cuBLAS, the rest handed to
// CudnnOps (convolution, pooling) and the small kernels in cuda_kernels.h.
#include "engine/backend/cuda/cuda_backend.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/cuda_kernels.h"
#include "engine/core/check.h"

namespace syncscope::engine {

namespace {

constexpr size_t kCublasWorkspaceBytes = size_t{32} << 20;

/// A CUDA graph instantiated from recorded backend calls, launched on the backend's stream.
class CudaGraphWork final : public RecordedWork {
public:
    CudaGraphWork(cudaGraphExec_t exec, cudaStream_t stream) : m_exec(exec), m_stream(stream) {}
    ~CudaGraphWork() override { SS_CUDA_CHECK(cudaGraphExecDestroy(m_exec)); }
    CudaGraphWork(const CudaGraphWork&) = delete;
    CudaGraphWork& operator=(const CudaGraphWork&) = delete;
    void replay() override { SS_CUDA_CHECK(cudaGraphLaunch(m_exec, m_stream)); }

private:
    cudaGraphExec_t m_exec;
    cudaStream_t m_stream;
};

}  // namespace

std::unique_ptr<CudaBackend> CudaBackend::create(int device, std::string* whyNot) {
    std::unique_ptr<CudaBackend> backend(new CudaBackend(device));
    if (!backend->start(whyNot)) return nullptr;  // the destructor releases what did start
    return backend;
}

bool CudaBackend::start(std::string* whyNot) {
    const auto fail = [whyNot](std::string reason) {
        if (whyNot) *whyNot = std::move(reason);
        return false;
    };
    cudaError_t error = cudaSetDevice(m_device);
    if (error != cudaSuccess)
        return fail("cannot use CUDA device " + std::to_string(m_device) + ": " + cudaGetErrorString(error));
    cudaDeviceProp properties{};
    error = cudaGetDeviceProperties(&properties, m_device);
    if (error != cudaSuccess)
        return fail("cannot query CUDA device " + std::to_string(m_device) + ": " + cudaGetErrorString(error));
    m_deviceName = properties.name;
    const std::string capability = std::to_string(properties.major) + std::to_string(properties.minor);

    // A GPU older than the architectures this build targets would otherwise fail at the first launch.
    error = probeKernelImage();
    if (error != cudaSuccess)
        return fail("this build's CUDA kernels cannot run on " + m_deviceName + " (sm_" + capability +
                    "): " + cudaGetErrorString(error) + "; rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + capability);

    // Non-blocking: no implicit ordering against the legacy default stream other libraries may use.
    error = cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking);
    if (error != cudaSuccess) return fail(std::string("cannot create a CUDA stream: ") + cudaGetErrorString(error));

    cublasStatus_t status = cublasCreate(&m_cublas);
    if (status != CUBLAS_STATUS_SUCCESS) {
        m_cublas = nullptr;
        return fail(std::string("cuBLAS could not start: ") + cublasGetStatusString(status));
    }
    SS_CUBLAS_CHECK(cublasSetStream(m_cublas, m_stream));
    // cuBLAS's own workspace pool allocates on demand, which a CUDA graph being recorded cannot; NVIDIA
    // advises 32 MiB on Hopper. Set after cublasSetStream, which resets it.
    error = cudaMalloc(&m_cublasWorkspace, kCublasWorkspaceBytes);
    if (error != cudaSuccess)
        return fail(std::string("cannot allocate cuBLAS's workspace: ") + cudaGetErrorString(error));
    SS_CUBLAS_CHECK(cublasSetWorkspace(m_cublas, m_cublasWorkspace, kCublasWorkspaceBytes));
    // Default math keeps SGEMM in full FP32 (TF32 needs CUBLAS_TF32_TENSOR_OP_MATH, never set here), so
    // gemm agrees with the CPU backend to FP32 rounding.
    SS_CUBLAS_CHECK(cublasSetMathMode(m_cublas, CUBLAS_DEFAULT_MATH));

    m_cudnn = CudnnOps::create(m_stream, whyNot);
    if (!m_cudnn) return false;

    int runtime = 0, driver = 0, cublas = 0;
    SS_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    SS_CUDA_CHECK(cudaDriverGetVersion(&driver));
    SS_CUBLAS_CHECK(cublasGetVersion(m_cublas, &cublas));
    const auto cudaVersion = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
    m_description = m_deviceName + " (sm_" + capability + ", " +
                    std::to_string(properties.totalGlobalMem >> 30) + " GiB), CUDA runtime " + cudaVersion(runtime) +
                    ", driver " + cudaVersion(driver) + ", cuBLAS " + std::to_string(cublas / 10000) + "." +
                    std::to_string(cublas / 100 % 100) + "." + std::to_string(cublas % 100) + ", " +
                    m_cudnn->describe();
    return true;
}

CudaBackend::~CudaBackend() {
    if (m_stream) SS_CUDA_CHECK(cudaStreamSynchronize(m_stream));
    m_cudnn.reset();
    if (m_cublas) SS_CUBLAS_CHECK(cublasDestroy(m_cublas));
    if (m_cublasWorkspace) SS_CUDA_CHECK(cudaFree(m_cublasWorkspace));
    if (m_stream) SS_CUDA_CHECK(cudaStreamDestroy(m_stream));
}

bool CudaBackend::supportsOp(const std::string& op) const {
    // The same op names as the CPU backend, so callers can ask either the same question.
    static const std::set<std::string> supported{"gemm",      "add_bias",  "bias_gradient",         "relu",
                                                 "conv2d",    "maxpool2d", "softmax_cross_entropy", "sgd_momentum"};
    return supported.count(op) != 0;
}

void* CudaBackend::allocate(size_t bytes) {
    if (bytes == 0) return nullptr;
    void* ptr = nullptr;
    const cudaError_t error = cudaMalloc(&ptr, bytes);
    if (error != cudaSuccess) {
        const std::string call = "cudaMalloc of " + std::to_string(bytes) + " bytes on " + m_deviceName;
        cuda_detail::abortOnFailedCall("CUDA", cudaGetErrorString(error), call.c_str(), __FILE__, __LINE__);
    }
    return ptr;
}

void CudaBackend::release(void* ptr) {
    if (!ptr) return;
    SS_CUDA_CHECK(cudaStreamSynchronize(m_stream));  // queued work may still use the buffer
    SS_CUDA_CHECK(cudaFree(ptr));
}

void CudaBackend::copyToDevice(void* dst, const void* src, size_t bytes) {
    if (bytes == 0) return;
    // From pageable memory the call returns once the source is staged, so the caller may reuse it.
    SS_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, m_stream));
}

void CudaBackend::copyToHost(void* dst, const void* src, size_t bytes) {
    if (bytes == 0) return;
    SS_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, m_stream));
    SS_CUDA_CHECK(cudaStreamSynchronize(m_stream));
}

void CudaBackend::copyOnDevice(void* dst, const void* src, size_t bytes) {
    if (bytes == 0) return;
    SS_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, m_stream));
}

void CudaBackend::fill(float* dst, float value, size_t count) { launchFill(dst, value, count, m_stream); }

void CudaBackend::synchronize() { SS_CUDA_CHECK(cudaStreamSynchronize(m_stream)); }

std::unique_ptr<RecordedWork> CudaBackend::record(const std::function<void()>& work, std::string* whyNot) {
    const auto fail = [whyNot](const char* what, cudaError_t error) -> std::unique_ptr<RecordedWork> {
        (void)cudaGetLastError();  // a failed capture leaves its error behind; later checks must not see it
        if (whyNot) *whyNot = std::string(what) + ": " + cudaGetErrorString(error);
        return nullptr;
    };
    // Relaxed: a call that allocates (cuDNN growing its workspace) does not break the recording.
    cudaError_t error = cudaStreamBeginCapture(m_stream, cudaStreamCaptureModeRelaxed);
    if (error != cudaSuccess) return fail("cannot start recording a CUDA graph", error);
    work();
    cudaGraph_t graph = nullptr;
    error = cudaStreamEndCapture(m_stream, &graph);
    if (error != cudaSuccess) return fail("recording the CUDA graph failed", error);
    cudaGraphExec_t exec = nullptr;
    error = cudaGraphInstantiate(&exec, graph, 0);
    SS_CUDA_CHECK(cudaGraphDestroy(graph));
    if (error != cudaSuccess) return fail("cannot instantiate the recorded CUDA graph", error);
    return std::make_unique<CudaGraphWork>(exec, m_stream);
}

bool CudaBackend::setConvolutionSettings(const ConvolutionSettings& settings) {
    m_convolutions = settings;
    m_cudnn->setSettings(settings);
    return true;
}

std::string CudaBackend::describe() const {
    std::string text = m_description;
    if (m_convolutions.tf32) text += ", TF32 convolutions";
    if (m_convolutions.measure) text += ", measured convolution algorithms";
    if (!m_convolutions.deterministicOnly) text += " (non-deterministic allowed)";
    return text;
}

void CudaBackend::gatherRows(const float* src, const int32_t* rows, int count, size_t rowLength, float* dst) {
    launchGatherRows(src, rows, count, rowLength, dst, m_stream);
}

void CudaBackend::gatherLabels(const int32_t* src, const int32_t* rows, int count, int32_t* dst) {
    launchGatherLabels(src, rows, count, dst, m_stream);
}

void CudaBackend::gemm(bool transA, bool transB, int m, int n, int k, float alpha, const float* a, const float* b,
                       float beta, float* c) {
    if (m <= 0 || n <= 0) return;
    // cuBLAS is column-major, and a row-major matrix read column-major is its transpose. So compute
    // C^T = op(B)^T op(A)^T: B goes first, A second, and m and n swap places. Leading dimensions are
    // the row lengths of the stored (row-major) matrices.
    const int ldb = std::max(1, transB ? k : n);
    const int lda = std::max(1, transA ? m : k);
    SS_CUBLAS_CHECK(cublasSgemm(m_cublas, transB ? CUBLAS_OP_T : CUBLAS_OP_N, transA ? CUBLAS_OP_T : CUBLAS_OP_N, n, m,
                                k, &alpha, b, ldb, a, lda, &beta, c, n));
}

void CudaBackend::addBias(float* y, const float* bias, int rows, int cols) {
    launchAddBias(y, bias, rows, cols, m_stream);
}

void CudaBackend::biasGradient(const float* dy, float* grad, int rows, int cols) {
    launchBiasGradient(dy, grad, rows, cols, m_stream);
}

void CudaBackend::relu(const float* x, float* y, size_t count) { launchRelu(x, y, count, m_stream); }

void CudaBackend::reluBackward(const float* y, const float* dy, float* dx, size_t count) {
    launchReluBackward(y, dy, dx, count, m_stream);
}

// cuDNN's descriptors here are NCHW; preferredLayout() never asks models for another.
static void checkPlain(const ConvShape& s) {
    SS_CHECK(s.srcLayout == ActivationLayout::Nchw && s.dstLayout == ActivationLayout::Nchw,
             "the CUDA backend's convolutions take NCHW activations");
}
static void checkPlain(const PoolShape& s) {
    SS_CHECK(s.inLayout == ActivationLayout::Nchw && s.outLayout == ActivationLayout::Nchw,
             "the CUDA backend's pooling takes NCHW activations");
}

void CudaBackend::conv2dForward(const ConvShape& s, const float* x, const float* w, const float* bias, float* y) {
    checkPlain(s);
    m_cudnn->conv2dForward(s, x, w, bias, y);
}

void CudaBackend::conv2dBackwardData(const ConvShape& s, const float* w, const float* dy, float* dx) {
    checkPlain(s);
    m_cudnn->conv2dBackwardData(s, w, dy, dx);
}

void CudaBackend::conv2dBackwardFilter(const ConvShape& s, const float* x, const float* dy, float* dw, float* dbias) {
    checkPlain(s);
    m_cudnn->conv2dBackwardFilter(s, x, dy, dw, dbias);
}

void CudaBackend::maxPool2dForward(const PoolShape& s, const float* x, float* y) {
    checkPlain(s);
    m_cudnn->maxPool2dForward(s, x, y);
}

void CudaBackend::maxPool2dBackward(const PoolShape& s, const float* x, const float* y, const float* dy, float* dx) {
    checkPlain(s);
    m_cudnn->maxPool2dBackward(s, x, y, dy, dx);
}

void CudaBackend::softmaxCrossEntropy(const float* logits, const int32_t* labels, int rows, int classes,
                                      float* rowLoss, float* dlogits) {
    launchSoftmaxCrossEntropy(logits, labels, rows, classes, rowLoss, dlogits, m_stream);
}

void CudaBackend::sgdMomentumStep(float* params, const float* grads, float* velocity, size_t count,
                                  const float* learningRate, float momentum, float weightDecay) {
    launchSgdMomentumStep(params, grads, velocity, count, learningRate, momentum, weightDecay, m_stream);
}

}  // namespace syncscope::engine
