// LocalModelStore (see model_store.h).
#include "engine/coordinator/model_store.h"

#include "engine/core/check.h"

namespace syncscope::engine {

void LocalModelStore::apply(const GradientAccumulator& sum, float lr) {
    SS_CHECK(!sum.sharded() && !sum.empty(), "a dense sum for the coordinator's model");
    m_store.apply(sum.dense(), lr);
}

void LocalModelStore::apply(const GradientIn& gradient, float lr) {
    SS_CHECK(gradient.data, "a gradient's values where the coordinator holds the model");
    m_store.apply(gradient.data, lr);
}

bool LocalModelStore::gather(bool withMomentum, Gathered done) {
    GatheredModel model;
    model.version = m_store.version();
    if (withMomentum) {
        std::vector<float> parameters;
        m_store.exportState(&parameters, &model.momentum);
        model.parameters = std::make_shared<const std::vector<float>>(std::move(parameters));
    } else {
        model.parameters = m_store.snapshot();
    }
    done(std::move(model));
    return true;
}

}  // namespace syncscope::engine
