// ParameterStore: SGD on host memory through the CPU backend's update op; snapshots copied once
// per version, however many workers are sent that version.
#include "engine/model/parameter_store.h"

#include <algorithm>
#include <memory>

#include "engine/core/check.h"

namespace syncscope::engine {

ParameterStore::ParameterStore(std::vector<float> initial, SgdSettings sgd)
    : m_params(m_backend, initial.size()), m_optimizer(m_backend, initial.size(), sgd), m_bufferBegin(initial.size()) {
    m_params.upload(initial);
}

void ParameterStore::setBufferCount(size_t count) {
    SS_CHECK(count < m_params.size(), "buffers among a model's values");
    m_bufferBegin = m_params.size() - count;
}

void ParameterStore::apply(const float* gradient, float lr) {
    m_optimizer.setLearningRate(lr);
    m_optimizer.apply(m_params.data(), gradient, m_bufferBegin);
    std::copy(gradient + m_bufferBegin, gradient + m_params.size(), m_params.data() + m_bufferBegin);
    ++m_version;
}

void ParameterStore::exportState(std::vector<float>* parameters, std::vector<float>* momentum) const {
    parameters->assign(m_params.data(), m_params.data() + m_params.size());
    const DeviceBuffer<float>& velocity = m_optimizer.velocity();
    momentum->assign(velocity.data(), velocity.data() + velocity.size());
}

void ParameterStore::restore(const std::vector<float>& parameters, const std::vector<float>& momentum, uint64_t version) {
    SS_CHECK(parameters.size() == m_params.size() && momentum.size() == m_params.size(), "a checkpoint of this model");
    std::copy(parameters.begin(), parameters.end(), m_params.data());
    std::copy(momentum.begin(), momentum.end(), m_optimizer.velocity().data());
    m_version = version;
    m_snapshotVersion = ~0ULL;  // the next snapshot copies the restored parameters
}

SharedFloats ParameterStore::snapshot() {
    if (m_snapshotVersion == m_version) return m_snapshot;
    std::unique_ptr<std::vector<float>> buffer;
    {
        std::lock_guard lock(m_pool->mutex);
        if (!m_pool->free.empty()) {
            buffer = std::move(m_pool->free.back());
            m_pool->free.pop_back();
        }
    }
    if (!buffer) buffer = std::make_unique<std::vector<float>>(m_params.size());
    std::copy(m_params.data(), m_params.data() + m_params.size(), buffer->begin());
    m_snapshot = SharedFloats(buffer.release(), [pool = m_pool](const std::vector<float>* done) {
        std::unique_ptr<std::vector<float>> owned(const_cast<std::vector<float>*>(done));
        std::lock_guard lock(pool->mutex);
        if (pool->free.size() < 8) pool->free.push_back(std::move(owned));
    });
    m_snapshotVersion = m_version;
    return m_snapshot;
}

}  // namespace syncscope::engine
