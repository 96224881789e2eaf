// SgdOptimizer: keeps the momentum buffer; the update itself is one backend op.
#include "engine/model/sgd_optimizer.h"

#include <limits>

namespace syncscope::engine {

SgdOptimizer::SgdOptimizer(Backend& backend, size_t parameterCount, SgdSettings settings)
    : m_backend(backend),
      m_settings(settings),
      m_velocity(backend, parameterCount),
      m_learningRate(backend, 1),
      m_uploadedRate(std::numeric_limits<float>::quiet_NaN()) {
    m_backend.fill(m_velocity.data(), 0.0f, parameterCount);
    setLearningRate(m_settings.learningRate);
}

void SgdOptimizer::setLearningRate(float learningRate) {
    if (learningRate == m_uploadedRate) return;
    m_backend.fill(m_learningRate.data(), learningRate, 1);  // a queued op, no host copy to wait for
    m_uploadedRate = learningRate;
}

void SgdOptimizer::apply(float* params, const float* grads, size_t count) {
    m_backend.sgdMomentumStep(params, grads, m_velocity.data(), count, m_learningRate.data(),
                              m_settings.momentum, m_settings.weightDecay);
}

}  // namespace syncscope::engine
