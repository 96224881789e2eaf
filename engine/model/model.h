// Model: a sequential network whose parameters live in one contiguous float buffer and whose
// gradients live in another of the same layout. These two buffers are what workers pull and push.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/backend/device_buffer.h"
#include "engine/model/layer.h"

namespace syncscope::engine {

class Model {
public:
    /// Builds the network for batches of up to maxBatch samples; layers are added by the caller
    /// (see model_zoo.h) and finalize() allocates the buffers.
    Model(Backend& backend, std::string name, TensorShape input, int maxBatch);

    void add(std::unique_ptr<Layer> layer);
    /// Allocates the flat buffers and activations and initialises parameters from seed.
    void finalize(uint64_t seed);

    const std::string& name() const { return m_name; }
    TensorShape inputShape() const { return m_input; }
    int classes() const { return static_cast<int>(m_layers.back()->outputShape().size()); }
    int maxBatch() const { return m_maxBatch; }
    size_t parameterCount() const { return m_parameterCount; }
    const std::vector<std::unique_ptr<Layer>>& layers() const { return m_layers; }

    float* parameters() { return m_params.data(); }
    float* gradients() { return m_grads.data(); }
    std::vector<float> downloadParameters() const { return m_params.download(); }
    void uploadParameters(const std::vector<float>& host) { m_params.upload(host); }

    /// Forward pass on a device batch; returns the device logits (batch x classes).
    const float* forward(const float* x, int batch);
    /// Forward and backward on a device batch with device labels: fills gradients() and returns
    /// the batch's mean loss. Labels must be in [0, classes).
    float computeGradients(const float* x, const int32_t* labels, int batch) {
        backpropagate(x, labels, batch);
        return meanLoss(batch);
    }
    /// computeGradients without reading the loss back: queues the work and returns at once, so a GPU
    /// step is not drained each time, and a backend can record it (Backend::record).
    void backpropagate(const float* x, const int32_t* labels, int batch);
    /// The mean loss of the last backpropagate() over `batch` rows; waits for it.
    float meanLoss(int batch);

    Backend& backend() { return m_backend; }

private:
    void planLayouts();

    Backend& m_backend;
    std::string m_name;
    TensorShape m_input;
    int m_maxBatch;
    size_t m_parameterCount = 0;
    std::vector<std::unique_ptr<Layer>> m_layers;
    DeviceBuffer<float> m_params, m_grads;
    std::vector<DeviceBuffer<float>> m_outputs, m_outputGrads;  // one per layer
    DeviceBuffer<float> m_rowLoss;
    std::vector<float> m_hostRowLoss;
};

}  // namespace syncscope::engine
