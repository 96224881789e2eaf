// ModelStore: the one seam for where the run's model lives. The coordinator's parts (the policies
// through PolicyContext, checkpoints, rollback, evaluation, the final figure, an external model's
// first worker) ask it for what they need and never ask where the model is: in the coordinator
// (LocalModelStore, here) or split over parameter shard processes (ShardedModelStore). The model is
// always had asynchronously (gather): here it comes at once, from shards when every range has come.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/model/parameter_store.h"
#include "engine/policy/gradient.h"
#include "engine/policy/gradient_accumulator.h"
#include "engine/policy/pinned_model.h"

namespace syncscope::engine {

/// The whole model at one version (its momentum too when a checkpoint asked for it).
struct GatheredModel {
    SharedFloats parameters;
    std::vector<float> momentum;  ///< empty unless asked for
    uint64_t version = 0;
};

class ModelStore {
public:
    using Gathered = std::function<void(GatheredModel&&)>;
    virtual ~ModelStore() = default;

    /// An empty sum for one update, of the kind apply() takes.
    virtual GradientAccumulator newSum() const = 0;
    /// One update at learning rate lr; the model moves to the next version.
    virtual void apply(const GradientAccumulator& sum, float lr) = 0;
    /// The same for one gradient as it arrived.
    virtual void apply(const GradientIn& gradient, float lr) = 0;
    /// A dropped gradient is let go of (its ranges, where shards keep them).
    virtual void forget(uint32_t worker, uint64_t sequence) = 0;
    /// The current version, for workers released on it now (kept until they have read it).
    virtual PinnedModel current() = 0;
    /// The current version, kept for workers released on it while the PinnedModel (a copy) lives.
    virtual PinnedModel pin() = 0;
    /// A worker was released on `model` (current() or pin()'s) and will read it.
    virtual void released(const PinnedModel& model) = 0;
    /// The whole model of the current version, handed to `done` when it is here (with momentum when
    /// asked). False when it cannot be had now (shards not all registered, or one lost).
    virtual bool gather(bool withMomentum, Gathered done) = 0;
    /// Puts the model back as `version` (a resume, a rollback, an external model's first worker).
    virtual void restore(const std::vector<float>& parameters, const std::vector<float>& momentum, uint64_t version) = 0;
    /// Why the whole model cannot be had any more (a shard lost); empty while it can.
    virtual std::string failure() const { return {}; }
};

/// The model in the coordinator's ParameterStore.
class LocalModelStore final : public ModelStore {
public:
    explicit LocalModelStore(ParameterStore& store) : m_store(store) {}

    GradientAccumulator newSum() const override { return GradientAccumulator(m_store.size(), false, m_store.bufferBegin()); }
    void apply(const GradientAccumulator& sum, float lr) override;
    void apply(const GradientIn& gradient, float lr) override;
    void forget(uint32_t, uint64_t) override {}
    PinnedModel current() override { return {m_store.version(), m_store.snapshot(), nullptr}; }
    PinnedModel pin() override { return current(); }
    void released(const PinnedModel&) override {}
    bool gather(bool withMomentum, Gathered done) override;
    void restore(const std::vector<float>& parameters, const std::vector<float>& momentum, uint64_t version) override {
        m_store.restore(parameters, momentum, version);
    }

private:
    ParameterStore& m_store;
};

}  // namespace syncscope::engine
