// DenseLayer: y = x W^T + b with W stored [out][in] (PyTorch's layout), input flattened.
#pragma once

#include "engine/model/layer.h"

namespace syncscope::engine {

class DenseLayer final : public Layer {
public:
    DenseLayer(TensorShape input, int outputs) : Layer(input), m_in(static_cast<int>(input.size())), m_out(outputs) {}

    std::string name() const override { return "dense"; }
    TensorShape outputShape() const override { return {m_out, 1, 1}; }
    size_t parameterCount() const override { return size_t(m_out) * m_in + m_out; }
    void initParameters(Rng& rng, float* hostSlice) const override;
    void forward(Backend& backend, const float* x, float* y, int batch) override;
    void backward(Backend& backend, const float* x, const float* y, const float* dy, float* dx, int batch) override;

private:
    int m_in, m_out;
};

}  // namespace syncscope::engine
