// ParameterStore: SGD on host memory through the CPU backend's update op; snapshots copied once
// per version, however many workers are sent that version.
#include "engine/ps/parameter_store.h"

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
    if (m_snapshotVersion != m_version) {
        m_snapshot = std::make_shared<const std::vector<float>>(m_params.data(), m_params.data() + m_params.size());
        m_snapshotVersion = m_version;
    }
    return m_snapshot;
}

}  // namespace syncscope::engine
