// createBackend: the run-time choice between the CPU and CUDA backends (see backend.h).
#include <memory>
#include <string>

#include "engine/backend/backend.h"
#include "engine/backend/cpu/cpu_backend.h"
#ifdef SYNCSCOPE_HAVE_CUDA
#include "engine/backend/cuda/cuda_backend_factory.h"
#endif

namespace syncscope::engine {

bool cudaCompiledIn() {
#ifdef SYNCSCOPE_HAVE_CUDA
    return true;
#else
    return false;
#endif
}

Result<BackendKind> parseBackendKind(const std::string& text) {
    if (text == "auto") return BackendKind::Auto;
    if (text == "cpu") return BackendKind::Cpu;
    if (text == "cuda") return BackendKind::Cuda;
    return invalidArgument("unknown backend '" + text + "': use auto, cpu or cuda");
}

Result<std::unique_ptr<Backend>> createBackend(BackendKind kind, int threads, std::string* notice) {
    if (kind == BackendKind::Cpu) return std::unique_ptr<Backend>(std::make_unique<CpuBackend>(threads));
    std::string whyNot;
#ifdef SYNCSCOPE_HAVE_CUDA
    if (auto cuda = createCudaBackend(&whyNot)) return cuda;
#else
    whyNot = "this build has no CUDA backend (configure with -DSYNCSCOPE_CUDA=ON where nvcc and cuDNN are installed)";
#endif
    if (kind == BackendKind::Cuda)
        return unavailable("the cuda backend cannot run: " + whyNot + "; use the cpu backend, or auto");
    if (notice) *notice = "no usable GPU (" + whyNot + "), training on the CPU backend";
    return std::unique_ptr<Backend>(std::make_unique<CpuBackend>(threads));
}

}  // namespace syncscope::engine
