// createCudaBackend: how the rest of the engine gets the CUDA backend. This header names no CUDA type,
// so code outside engine/backend/cuda builds without the CUDA toolkit's headers.
#pragma once

#include <memory>
#include <string>

#include "engine/backend/backend.h"

namespace syncscope::engine {

/// Creates the CUDA backend on GPU 0 (the first one CUDA_VISIBLE_DEVICES leaves visible). Returns
/// nullptr when there is no usable GPU and sets *whyNot (if not null) to a one-line reason for the
/// person, e.g. "no usable CUDA device: CUDA driver version is insufficient for CUDA runtime version".
std::unique_ptr<Backend> createCudaBackend(std::string* whyNot);

}  // namespace syncscope::engine
