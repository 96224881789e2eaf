// Conv2dLayer: square-kernel 2-D convolution, weights OIHW then one bias per output channel.
#pragma once

#include "engine/model/layer.h"

namespace syncscope::engine {

class Conv2dLayer final : public Layer {
public:
    Conv2dLayer(TensorShape input, int outChannels, int kernel, int padding, int stride = 1);

    std::string name() const override { return "conv2d"; }
    TensorShape outputShape() const override;
    size_t parameterCount() const override { return weightCount() + m_outChannels; }
    LayoutRule layoutRule() const override { return LayoutRule::Free; }
    void initParameters(Rng& rng, float* hostSlice) const override;
    void forward(Backend& backend, const float* x, float* y, int batch) override;
    void backward(Backend& backend, const float* x, const float* y, const float* dy, float* dx, int batch) override;

private:
    size_t weightCount() const { return size_t(m_outChannels) * m_input.channels * m_kernel * m_kernel; }
    ConvShape shape(int batch) const;
    int m_outChannels, m_kernel, m_padding, m_stride;
};

}  // namespace syncscope::engine
