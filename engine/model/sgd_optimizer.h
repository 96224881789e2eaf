// SgdOptimizer: SGD with momentum and L2 weight decay over a model's flat parameter buffer.
#pragma once

#include "engine/backend/device_buffer.h"

namespace syncscope::engine {

struct SgdSettings {
    float learningRate = 0.05f;
    float momentum = 0.9f;
    float weightDecay = 5e-4f;
};

class SgdOptimizer {
public:
    SgdOptimizer(Backend& backend, size_t parameterCount, SgdSettings settings);

    SgdSettings& settings() { return m_settings; }
    const SgdSettings& settings() const { return m_settings; }
    /// PyTorch's SGD step: g = grads + weightDecay * params; v = momentum * v + g; params -= lr * v.
    void step(float* params, const float* grads, float learningRate) {
        setLearningRate(learningRate);
        apply(params, grads);
    }
    void step(float* params, const float* grads) { step(params, grads, m_settings.learningRate); }
    /// Puts the rate where apply() reads it (backend memory); uploads only when it changed.
    void setLearningRate(float learningRate);
    /// The step at the rate set last: the part of a step a recorded step (Backend::record) replays.
    void apply(float* params, const float* grads) { apply(params, grads, m_velocity.size()); }
    /// The same over the first `count` values only.
    void apply(float* params, const float* grads, size_t count);
    /// The momentum buffer (checkpoints save and restore it).
    DeviceBuffer<float>& velocity() { return m_velocity; }
    const DeviceBuffer<float>& velocity() const { return m_velocity; }

private:
    Backend& m_backend;
    SgdSettings m_settings;
    DeviceBuffer<float> m_velocity;
    DeviceBuffer<float> m_learningRate;  // one float
    float m_uploadedRate;                // NaN until the first upload
};

}  // namespace syncscope::engine
