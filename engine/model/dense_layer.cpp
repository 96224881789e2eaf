// DenseLayer: two GEMMs forward-and-back plus a bias reduction.
#include "engine/model/dense_layer.h"

#include <cmath>

namespace syncscope::engine {

void DenseLayer::initParameters(Rng& rng, float* hostSlice) const {
    // He-uniform for ReLU networks; biases start at zero.
    const float bound = std::sqrt(6.0f / static_cast<float>(m_in));
    const size_t weights = size_t(m_out) * m_in;
    for (size_t i = 0; i < weights; ++i) hostSlice[i] = rng.uniform(-bound, bound);
    for (int i = 0; i < m_out; ++i) hostSlice[weights + i] = 0.0f;
}

void DenseLayer::forward(Backend& backend, const float* x, float* y, int batch) {
    const float* weights = m_params;
    const float* bias = m_params + size_t(m_out) * m_in;
    backend.gemm(false, true, batch, m_out, m_in, 1.0f, x, weights, 0.0f, y);
    backend.addBias(y, bias, batch, m_out);
}

void DenseLayer::backward(Backend& backend, const float* x, const float*, const float* dy, float* dx, int batch) {
    float* dWeights = m_grads;
    float* dBias = m_grads + size_t(m_out) * m_in;
    backend.gemm(true, false, m_out, m_in, batch, 1.0f, dy, x, 0.0f, dWeights);
    backend.biasGradient(dy, dBias, batch, m_out);
    if (dx) backend.gemm(false, false, batch, m_in, m_out, 1.0f, dy, m_params, 0.0f, dx);
}

}  // namespace syncscope::engine
