// ShardedModelStore (see sharded_model_store.h).
#include "engine/coordinator/sharded_model_store.h"

#include "engine/core/check.h"

namespace syncscope::engine {

void ShardedModelStore::apply(const GradientAccumulator& sum, float lr) {
    SS_CHECK(sum.sharded() && !sum.empty(), "terms for the shards' model");
    m_store.advanceVersion();
    m_links.applyUpdate(sum.terms(), lr, m_store.version());
}

void ShardedModelStore::apply(const GradientIn& gradient, float lr) {
    m_store.advanceVersion();
    m_links.applyUpdate({gradientTerm(gradient, 1.0f)}, lr, m_store.version());
}

bool ShardedModelStore::gather(bool withMomentum, Gathered done) {
    if (m_links.vacant()) return LocalModelStore(m_store).gather(withMomentum, std::move(done));
    return m_links.gather(withMomentum, std::move(done));
}

void ShardedModelStore::released(const PinnedModel& model) {
    // The shards keep the current version for the workers released on it until they have pulled it,
    // pinned or not (a round may end, and its pin go, before a member pulled); an earlier version is
    // there while its pin lives.
    if (model.version == m_store.version()) m_links.noteRelease();
}

void ShardedModelStore::restore(const std::vector<float>& parameters, const std::vector<float>& momentum,
                                uint64_t version) {
    m_store.restore(parameters, momentum, version);
    m_links.restore(parameters, momentum, version);
}

}  // namespace syncscope::engine
