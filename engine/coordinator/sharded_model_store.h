// ShardedModelStore: the ModelStore where parameter shard processes hold the model (serve --shards S).
// The coordinator keeps the version, the optimiser's settings and the model it started from (or was
// restored to: what shards that register get); updates go to the shards as terms, pins and restores
// as messages, and the model comes back by gathering every shard's range of one version (ShardLinks).
#pragma once

#include "engine/coordinator/model_store.h"
#include "engine/coordinator/shard_links.h"

namespace syncscope::engine {

class ShardedModelStore final : public ModelStore {
public:
    ShardedModelStore(ParameterStore& store, ShardLinks& links) : m_store(store), m_links(links) {}

    GradientAccumulator newSum() const override { return GradientAccumulator(m_store.size(), true); }
    void apply(const GradientAccumulator& sum, float lr) override;
    void apply(const GradientIn& gradient, float lr) override;
    void forget(uint32_t worker, uint64_t sequence) override { m_links.forget(worker, sequence); }
    PinnedModel current() override { return {m_store.version(), nullptr, nullptr}; }
    PinnedModel pin() override { return {m_store.version(), nullptr, m_links.pin(m_store.version())}; }
    void released(const PinnedModel& model) override;
    /// Every shard's range of the current version; while a lost shard's place is vacant (nothing is
    /// updated then) the model restored into the coordinator's store, which is that version.
    bool gather(bool withMomentum, Gathered done) override;
    void restore(const std::vector<float>& parameters, const std::vector<float>& momentum, uint64_t version) override;
    std::string failure() const override { return m_links.failure(); }

private:
    ParameterStore& m_store;
    ShardLinks& m_links;
};

}  // namespace syncscope::engine
