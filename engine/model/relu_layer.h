// ReluLayer: y = max(x, 0), element-wise (so in any layout); backward masks by y > 0.
#pragma once

#include "engine/model/layer.h"

namespace syncscope::engine {

class ReluLayer final : public Layer {
public:
    using Layer::Layer;
    std::string name() const override { return "relu"; }
    TensorShape outputShape() const override { return m_input; }
    LayoutRule layoutRule() const override { return LayoutRule::SameAsInput; }
    void forward(Backend& backend, const float* x, float* y, int batch) override {
        backend.relu(x, y, m_input.size() * batch);
    }
    void backward(Backend& backend, const float*, const float* y, const float* dy, float* dx, int batch) override {
        if (dx) backend.reluBackward(y, dy, dx, m_input.size() * batch);
    }
};

}  // namespace syncscope::engine
