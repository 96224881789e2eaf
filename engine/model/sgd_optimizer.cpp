// SgdOptimizer: keeps the momentum buffer; the update itself is one backend op.
#include "engine/model/sgd_optimizer.h"

namespace syncscope::engine {

SgdOptimizer::SgdOptimizer(Backend& backend, size_t parameterCount, SgdSettings settings)
    : m_backend(backend), m_settings(settings), m_velocity(backend, parameterCount) {
    m_backend.fill(m_velocity.data(), 0.0f, parameterCount);
}

void SgdOptimizer::step(float* params, const float* grads, float learningRate) {
    m_backend.sgdMomentumStep(params, grads, m_velocity.data(), m_velocity.size(), learningRate,
                              m_settings.momentum, m_settings.weightDecay);
}

}  // namespace syncscope::engine
