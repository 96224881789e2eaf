// Model: layer bookkeeping, flat-buffer slicing and the forward/backward sweep.
#include "engine/model/model.h"

#include <numeric>

#include "engine/core/check.h"

namespace syncscope::engine {

Model::Model(Backend& backend, std::string name, TensorShape input, int maxBatch)
    : m_backend(backend), m_name(std::move(name)), m_input(input), m_maxBatch(maxBatch) {}

void Model::add(std::unique_ptr<Layer> layer) {
    SS_CHECK(m_params.size() == 0, "add() after finalize()");
    m_layers.push_back(std::move(layer));
}

void Model::finalize(uint64_t seed) {
    SS_CHECK(!m_layers.empty(), "a model needs layers");
    m_parameterCount = 0;
    for (const auto& layer : m_layers) m_parameterCount += layer->parameterCount();
    m_params = DeviceBuffer<float>(m_backend, m_parameterCount);
    m_grads = DeviceBuffer<float>(m_backend, m_parameterCount);

    planLayouts();
    std::vector<float> host(m_parameterCount);
    Rng rng(seed);
    size_t offset = 0;
    for (const auto& layer : m_layers) {
        layer->initParameters(rng, host.data() + offset);
        layer->bind(m_params.data() + offset, m_grads.data() + offset);
        offset += layer->parameterCount();
        const size_t activations = layer->outputShape().size() * m_maxBatch;
        m_outputs.emplace_back(m_backend, activations);
        m_outputGrads.emplace_back(m_backend, activations);
    }
    m_params.upload(host);
    m_backend.fill(m_grads.data(), 0.0f, m_parameterCount);
    m_rowLoss = DeviceBuffer<float>(m_backend, m_maxBatch);
    m_hostRowLoss.resize(m_maxBatch);
}

// Activations stay in the backend's preferred layout from a convolution or pool on, through
// element-wise layers, up to the layer before the first that needs rows of plain features (a dense
// layer, or the logits): that producer writes plain. No reorder pass runs between layers.
void Model::planLayouts() {
    const size_t n = m_layers.size();
    std::vector<bool> takesAny(n + 1, false);  // takesAny[i]: layer i can read a non-plain input
    for (size_t i = n; i-- > 0;) {
        switch (m_layers[i]->layoutRule()) {
            case Layer::LayoutRule::PlainOnly: takesAny[i] = false; break;
            case Layer::LayoutRule::SameAsInput: takesAny[i] = takesAny[i + 1]; break;
            case Layer::LayoutRule::Free: takesAny[i] = true; break;
        }
    }
    ActivationLayout in = ActivationLayout::Nchw;  // the model's input batch is plain
    for (size_t i = 0; i < n; ++i) {
        Layer& layer = *m_layers[i];
        ActivationLayout out = ActivationLayout::Nchw;
        if (layer.layoutRule() == Layer::LayoutRule::SameAsInput) out = in;
        if (layer.layoutRule() == Layer::LayoutRule::Free && takesAny[i + 1])
            out = m_backend.preferredLayout(layer.outputShape().channels);
        layer.setLayouts(in, out);
        in = out;
    }
}

const float* Model::forward(const float* x, int batch) {
    SS_CHECK(batch > 0 && batch <= m_maxBatch, "batch larger than the model was built for");
    const float* in = x;
    for (size_t i = 0; i < m_layers.size(); ++i) {
        m_layers[i]->forward(m_backend, in, m_outputs[i].data(), batch);
        in = m_outputs[i].data();
    }
    return in;
}

void Model::backpropagate(const float* x, const int32_t* labels, int batch) {
    const float* logits = forward(x, batch);
    const size_t last = m_layers.size() - 1;
    m_backend.softmaxCrossEntropy(logits, labels, batch, classes(), m_rowLoss.data(), m_outputGrads[last].data());
    for (size_t i = m_layers.size(); i-- > 0;) {
        const float* in = i == 0 ? x : m_outputs[i - 1].data();
        float* dx = i == 0 ? nullptr : m_outputGrads[i - 1].data();  // the input needs no gradient
        m_layers[i]->backward(m_backend, in, m_outputs[i].data(), m_outputGrads[i].data(), dx, batch);
    }
}

float Model::meanLoss(int batch) {
    SS_CHECK(batch > 0 && batch <= m_maxBatch, "batch larger than the model was built for");
    m_backend.copyToHost(m_hostRowLoss.data(), m_rowLoss.data(), sizeof(float) * batch);
    return std::accumulate(m_hostRowLoss.begin(), m_hostRowLoss.begin() + batch, 0.0f) / static_cast<float>(batch);
}

}  // namespace syncscope::engine
