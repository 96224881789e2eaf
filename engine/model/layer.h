// Layer: one stage of a sequential network. Parameters and their gradients are not owned by the
// layer: they are slices of the model's single flat buffers, the buffers workers push and pull.
#pragma once

#include <cstddef>
#include <string>

#include "engine/backend/backend.h"
#include "engine/core/rng.h"

namespace syncscope::engine {

/// Shape of one sample (batch excluded), CHW; a flat vector is {n, 1, 1}.
struct TensorShape {
    int channels = 0, height = 1, width = 1;
    size_t size() const { return size_t(channels) * height * width; }
};

class Layer {
public:
    explicit Layer(TensorShape input) : m_input(input) {}
    virtual ~Layer() = default;

    virtual std::string name() const = 0;
    TensorShape inputShape() const { return m_input; }
    virtual TensorShape outputShape() const = 0;
    virtual size_t parameterCount() const { return 0; }
    /// Writes this layer's initial parameters into its slice of the host copy of the flat buffer.
    virtual void initParameters(Rng&, float* /*hostSlice*/) const {}
    /// Points the layer at its slices of the model's parameter and gradient buffers (device memory).
    void bind(const float* params, float* grads) {
        m_params = params;
        m_grads = grads;
    }

    /// Which activation layouts a layer takes (Model::finalize plans them from these rules).
    enum class LayoutRule {
        PlainOnly,    ///< input and output Nchw (dense layers: rows of features)
        SameAsInput,  ///< any input; the output lies like the input (element-wise layers)
        Free,         ///< any input, any output (convolution, pooling)
    };
    virtual LayoutRule layoutRule() const { return LayoutRule::PlainOnly; }
    void setLayouts(ActivationLayout in, ActivationLayout out) {
        m_inLayout = in;
        m_outLayout = out;
    }
    ActivationLayout inputLayout() const { return m_inLayout; }
    ActivationLayout outputLayout() const { return m_outLayout; }

    virtual void forward(Backend& backend, const float* x, float* y, int batch) = 0;
    /// Writes this layer's parameter gradients (overwriting) and, when dx is not null, dL/dx.
    virtual void backward(Backend& backend, const float* x, const float* y, const float* dy, float* dx,
                          int batch) = 0;

protected:
    TensorShape m_input;
    ActivationLayout m_inLayout = ActivationLayout::Nchw, m_outLayout = ActivationLayout::Nchw;
    const float* m_params = nullptr;
    float* m_grads = nullptr;
};

}  // namespace syncscope::engine
