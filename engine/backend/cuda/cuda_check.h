// Check macros for CUDA runtime, cuBLAS and cuDNN calls inside the CUDA backend. A failure there is a
// broken invariant (bad launch, lost device, misused handle), so it aborts with file:line and the
// library's own message. The expected failure, "no usable GPU", is reported by createCudaBackend.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

namespace syncscope::engine::cuda_detail {

[[noreturn]] inline void abortOnFailedCall(const char* library, const char* message, const char* call,
                                           const char* file, int line) {
    std::fprintf(stderr, "%s:%d: %s call failed: %s\n    in: %s\n", file, line, library, message, call);
    std::abort();
}

}  // namespace syncscope::engine::cuda_detail

#define SS_CUDA_CHECK(call)                                                                               \
    do {                                                                                                  \
        const cudaError_t ssCudaError_ = (call);                                                          \
        if (ssCudaError_ != cudaSuccess)                                                                  \
            ::syncscope::engine::cuda_detail::abortOnFailedCall("CUDA", cudaGetErrorString(ssCudaError_), \
                                                                #call, __FILE__, __LINE__);               \
    } while (0)

// Kernel launches report bad configurations and missing kernel images only through the last error.
#define SS_CUDA_CHECK_LAUNCH() SS_CUDA_CHECK(cudaGetLastError())

// The two below expand where they are used, so only translation units that include cuBLAS or cuDNN
// need those headers.
#define SS_CUBLAS_CHECK(call)                                                                                  \
    do {                                                                                                       \
        const cublasStatus_t ssCublasStatus_ = (call);                                                         \
        if (ssCublasStatus_ != CUBLAS_STATUS_SUCCESS)                                                          \
            ::syncscope::engine::cuda_detail::abortOnFailedCall("cuBLAS", cublasGetStatusString(ssCublasStatus_), \
                                                                #call, __FILE__, __LINE__);                    \
    } while (0)

#define SS_CUDNN_CHECK(call)                                                                                 \
    do {                                                                                                     \
        const cudnnStatus_t ssCudnnStatus_ = (call);                                                         \
        if (ssCudnnStatus_ != CUDNN_STATUS_SUCCESS)                                                          \
            ::syncscope::engine::cuda_detail::abortOnFailedCall("cuDNN", cudnnGetErrorString(ssCudnnStatus_), \
                                                                #call, __FILE__, __LINE__);                  \
    } while (0)
