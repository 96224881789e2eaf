// CpuBackend: host memory, oneDNN's sgemm and convolution primitives, and OpenMP loops over the
// batch for the memory-bound ops (one OpenMP pool serves both, so threads never oversubscribe).
#include "engine/backend/cpu/cpu_backend.h"

#include <dnnl.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "engine/backend/cpu/max_pool.h"
#include "engine/core/check.h"

namespace {
const char* isaName(dnnl_cpu_isa_t isa) {
    switch (isa) {
        case dnnl_cpu_isa_avx512_core_amx: return "avx512_core_amx";
        case dnnl_cpu_isa_avx512_core_bf16: return "avx512_core_bf16";
        case dnnl_cpu_isa_avx512_core_vnni: return "avx512_core_vnni";
        case dnnl_cpu_isa_avx512_core: return "avx512_core";
        case dnnl_cpu_isa_avx2: return "avx2";
        default: return "other";
    }
}
}  // namespace

namespace syncscope::engine {

CpuBackend::CpuBackend(int threads) {
    if (threads > 0) omp_set_num_threads(threads);
}

std::string CpuBackend::describe() const {
    const dnnl_version_t* v = dnnl_version();
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
           " sgemm, ISA " + isaName(dnnl_get_effective_cpu_isa()) + ", " + std::to_string(omp_get_max_threads()) +
           " thread(s)";
}

bool CpuBackend::supportsOp(const std::string& op) const {
    static const char* kOps[] = {"gemm",      "add_bias",      "bias_gradient", "relu",
                                 "conv2d",    "maxpool2d",     "softmax_cross_entropy", "sgd_momentum"};
    return std::any_of(std::begin(kOps), std::end(kOps), [&](const char* name) { return op == name; });
}

ActivationLayout CpuBackend::preferredLayout(int channels) const {
    return channels % 16 == 0 ? ActivationLayout::NChw16c : ActivationLayout::Nchw;
}

void* CpuBackend::allocate(size_t bytes) {
    // 64-byte alignment: whole cache lines and full AVX-512 vectors.
    void* ptr = std::aligned_alloc(64, std::max<size_t>(64, (bytes + 63) / 64 * 64));
    SS_CHECK(ptr != nullptr, "host allocation failed");
    return ptr;
}

void CpuBackend::release(void* ptr) { std::free(ptr); }
void CpuBackend::copyToDevice(void* dst, const void* src, size_t bytes) { std::memcpy(dst, src, bytes); }
void CpuBackend::copyToHost(void* dst, const void* src, size_t bytes) { std::memcpy(dst, src, bytes); }
void CpuBackend::copyOnDevice(void* dst, const void* src, size_t bytes) { std::memmove(dst, src, bytes); }
void CpuBackend::fill(float* dst, float value, size_t count) { std::fill(dst, dst + count, value); }

void CpuBackend::gatherRows(const float* src, const int32_t* rows, int count, size_t rowLength, float* dst) {
    for (int i = 0; i < count; ++i)
        std::memcpy(dst + rowLength * i, src + rowLength * static_cast<size_t>(rows[i]), sizeof(float) * rowLength);
}

void CpuBackend::gatherLabels(const int32_t* src, const int32_t* rows, int count, int32_t* dst) {
    for (int i = 0; i < count; ++i) dst[i] = src[rows[i]];
}

void CpuBackend::gemm(bool transA, bool transB, int m, int n, int k, float alpha, const float* a,
                      const float* b, float beta, float* c) {
    const dnnl_status_t status = dnnl_sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, alpha, a,
                                            transA ? m : k, b, transB ? k : n, beta, c, n);
    SS_CHECK(status == dnnl_success, "dnnl_sgemm rejected its arguments");
}

void CpuBackend::addBias(float* y, const float* bias, int rows, int cols) {
    for (int r = 0; r < rows; ++r) {
        float* row = y + static_cast<size_t>(r) * cols;
        for (int c = 0; c < cols; ++c) row[c] += bias[c];
    }
}

void CpuBackend::biasGradient(const float* dy, float* grad, int rows, int cols) {
    std::fill(grad, grad + cols, 0.0f);
    for (int r = 0; r < rows; ++r) {
        const float* row = dy + static_cast<size_t>(r) * cols;
        for (int c = 0; c < cols; ++c) grad[c] += row[c];
    }
}

// ReLU's kernels, cloned per ISA (the build targets plain x86-64) and branch-free: a ReLU mask is
// close to random, so a compare-and-jump loop mispredicts about every other element.
__attribute__((target_clones("avx512f", "avx2", "default"))) static void reluKernel(const float* x, float* y,
                                                                                      size_t count) {
    for (size_t i = 0; i < count; ++i) y[i] = std::max(x[i], 0.0f);
}

__attribute__((target_clones("avx512f", "avx2", "default"))) static void reluBackwardKernel(
    const float* y, const float* dy, float* dx, size_t count) {
    for (size_t i = 0; i < count; ++i) {
        const float g = dy[i];
        dx[i] = y[i] > 0.0f ? g : 0.0f;
    }
}

// Splits an element-wise op over the OpenMP threads in chunks of whole cache lines.
template <typename Kernel>
static void elementwise(size_t count, Kernel kernel) {
    const int threads = count < (1u << 15) ? 1 : omp_get_max_threads();
    if (threads == 1) return kernel(size_t(0), count);
#pragma omp parallel num_threads(threads)
    {
        const size_t chunk = (count / omp_get_num_threads() + 15) / 16 * 16;
        const size_t begin = std::min(count, chunk * omp_get_thread_num());
        kernel(begin, std::min(count, begin + chunk) - begin);
    }
}

void CpuBackend::relu(const float* x, float* y, size_t count) {
    elementwise(count, [&](size_t begin, size_t n) { reluKernel(x + begin, y + begin, n); });
}

void CpuBackend::reluBackward(const float* y, const float* dy, float* dx, size_t count) {
    elementwise(count, [&](size_t begin, size_t n) { reluBackwardKernel(y + begin, dy + begin, dx + begin, n); });
}

void CpuBackend::conv2dForward(const ConvShape& s, const float* x, const float* w, const float* bias, float* y) {
    m_conv.forward(s, x, w, bias, y);
}

void CpuBackend::conv2dBackwardData(const ConvShape& s, const float* w, const float* dy, float* dx) {
    m_conv.backwardData(s, w, dy, dx);
}

void CpuBackend::conv2dBackwardFilter(const ConvShape& s, const float* x, const float* dy, float* dw,
                                      float* dbias) {
    m_conv.backwardWeights(s, x, dy, dw, dbias);
}

void CpuBackend::maxPool2dForward(const PoolShape& s, const float* x, float* y) { maxPoolForward(s, x, y); }

void CpuBackend::maxPool2dBackward(const PoolShape& s, const float* x, const float* y, const float* dy,
                                   float* dx) {
    maxPoolBackward(s, x, y, dy, dx);
}

void CpuBackend::softmaxCrossEntropy(const float* logits, const int32_t* labels, int rows, int classes,
                                     float* rowLoss, float* dlogits) {
    const float scale = 1.0f / static_cast<float>(rows);
    for (int r = 0; r < rows; ++r) {
        const float* z = logits + static_cast<size_t>(r) * classes;
        float* g = dlogits + static_cast<size_t>(r) * classes;
        const float peak = *std::max_element(z, z + classes);
        float sum = 0.0f;
        for (int c = 0; c < classes; ++c) {
            g[c] = std::exp(z[c] - peak);
            sum += g[c];
        }
        const int label = labels[r];
        SS_CHECK(label >= 0 && label < classes, "label out of range");
        rowLoss[r] = std::log(sum) - (z[label] - peak);
        const float inv = 1.0f / sum;
        for (int c = 0; c < classes; ++c) g[c] = (g[c] * inv - (c == label ? 1.0f : 0.0f)) * scale;
    }
}

// Cloned per ISA (the default build targets plain x86-64): the parameter server runs this once per
// update over the whole model, so AVX-512 or AVX2 where the CPU has them.
__attribute__((target_clones("avx512f", "avx2", "default"))) static void sgdMomentumKernel(
    float* params, const float* grads, float* velocity, size_t count, float lr, float momentum, float weightDecay) {
    for (size_t i = 0; i < count; ++i) {
        const float g = grads[i] + weightDecay * params[i];
        velocity[i] = momentum * velocity[i] + g;
        params[i] -= lr * velocity[i];
    }
}

void CpuBackend::sgdMomentumStep(float* params, const float* grads, float* velocity, size_t count,
                                 const float* learningRate, float momentum, float weightDecay) {
    sgdMomentumKernel(params, grads, velocity, count, *learningRate, momentum, weightDecay);
}

}  // namespace syncscope::engine
