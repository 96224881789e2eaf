// ParameterStore: SGD on host memory through the CPU backend's update op; snapshots copied once
// per version, however many workers are sent that version.
#include "engine/ps/parameter_store.h"

#include <algorithm>
#include <memory>

namespace syncscope::engine {

ParameterStore::ParameterStore(std::vector<float> initial, SgdSettings sgd)
    : m_params(m_backend, initial.size()), m_optimizer(m_backend, initial.size(), sgd) {
    m_params.upload(initial);
}

void ParameterStore::apply(const float* gradient, float lr) {
    m_optimizer.step(m_params.data(), gradient, lr);
    ++m_version;
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
