// createCudaBackend: finds out whether a usable GPU is present and, if so, starts CudaBackend on it.
#include "engine/backend/cuda/cuda_backend_factory.h"

#include <cuda_runtime.h>

#include "engine/backend/cuda/cuda_backend.h"

namespace syncscope::engine {

std::unique_ptr<Backend> createCudaBackend(std::string* whyNot) {
    int deviceCount = 0;
    const cudaError_t error = cudaGetDeviceCount(&deviceCount);
    if (error != cudaSuccess) {
        if (whyNot) *whyNot = std::string("no usable CUDA device: ") + cudaGetErrorString(error);
        return nullptr;
    }
    if (deviceCount == 0) {
        if (whyNot) *whyNot = "no CUDA device found (the driver reports 0 GPUs; check CUDA_VISIBLE_DEVICES)";
        return nullptr;
    }
    return CudaBackend::create(0, whyNot);
}

}  // namespace syncscope::engine
