// Conv2dLayer: geometry and initialisation; the arithmetic is the backend's (oneDNN or cuDNN).
#include "engine/model/conv2d_layer.h"

#include <cmath>

namespace syncscope::engine {

Conv2dLayer::Conv2dLayer(TensorShape input, int outChannels, int kernel, int padding, int stride)
    : Layer(input), m_outChannels(outChannels), m_kernel(kernel), m_padding(padding), m_stride(stride) {}

ConvShape Conv2dLayer::shape(int batch) const {
    ConvShape s{batch, m_input.channels, m_input.height, m_input.width, m_outChannels, m_kernel, m_stride, m_padding};
    s.srcLayout = m_inLayout;
    s.dstLayout = m_outLayout;
    return s;
}

TensorShape Conv2dLayer::outputShape() const {
    const ConvShape s = shape(1);
    return {m_outChannels, s.outHeight(), s.outWidth()};
}

void Conv2dLayer::initParameters(Rng& rng, float* hostSlice) const {
    const float fanIn = static_cast<float>(m_input.channels * m_kernel * m_kernel);
    const float bound = std::sqrt(6.0f / fanIn);
    for (size_t i = 0; i < weightCount(); ++i) hostSlice[i] = rng.uniform(-bound, bound);
    for (int i = 0; i < m_outChannels; ++i) hostSlice[weightCount() + i] = 0.0f;
}

void Conv2dLayer::forward(Backend& backend, const float* x, float* y, int batch) {
    backend.conv2dForward(shape(batch), x, m_params, m_params + weightCount(), y);
}

void Conv2dLayer::backward(Backend& backend, const float* x, const float*, const float* dy, float* dx, int batch) {
    const ConvShape s = shape(batch);
    backend.conv2dBackwardFilter(s, x, dy, m_grads, m_grads + weightCount());
    if (dx) backend.conv2dBackwardData(s, m_params, dy, dx);
}

}  // namespace syncscope::engine
