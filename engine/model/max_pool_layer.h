// MaxPoolLayer: non-overlapping max pooling (window = stride), no parameters.
#pragma once

#include "engine/model/layer.h"

namespace syncscope::engine {

class MaxPoolLayer final : public Layer {
public:
    MaxPoolLayer(TensorShape input, int window) : Layer(input), m_window(window) {}

    std::string name() const override { return "maxpool2d"; }
    TensorShape outputShape() const override {
        const PoolShape s = shape(1);
        return {m_input.channels, s.outHeight(), s.outWidth()};
    }
    LayoutRule layoutRule() const override { return LayoutRule::Free; }
    void forward(Backend& backend, const float* x, float* y, int batch) override {
        backend.maxPool2dForward(shape(batch), x, y);
    }
    void backward(Backend& backend, const float* x, const float* y, const float* dy, float* dx, int batch) override {
        if (dx) backend.maxPool2dBackward(shape(batch), x, y, dy, dx);
    }

private:
    PoolShape shape(int batch) const {
        PoolShape s{batch, m_input.channels, m_input.height, m_input.width, m_window, m_window};
        s.inLayout = m_inLayout;
        s.outLayout = m_outLayout;
        return s;
    }
    int m_window;
};

}  // namespace syncscope::engine
