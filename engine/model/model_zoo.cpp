// Model definitions. tests/bench/torch_compute_peer.py builds the same two networks in PyTorch:
// change both together.
#include "engine/model/model_zoo.h"

#include "engine/model/conv2d_layer.h"
#include "engine/model/dense_layer.h"
#include "engine/model/max_pool_layer.h"
#include "engine/model/relu_layer.h"

namespace syncscope::engine {
namespace {

constexpr TensorShape kImage{1, 28, 28};

template <typename L, typename... Args>
void append(Model& model, TensorShape& shape, Args... args) {
    auto layer = std::make_unique<L>(shape, args...);
    shape = layer->outputShape();
    model.add(std::move(layer));
}

void buildMlp(Model& m) {
    TensorShape s = kImage;
    append<DenseLayer>(m, s, 256);
    append<ReluLayer>(m, s);
    append<DenseLayer>(m, s, 128);
    append<ReluLayer>(m, s);
    append<DenseLayer>(m, s, 10);
}

// conv 5x5 (16, pad 2) -> pool -> conv 5x5 (32) -> pool -> 800 -> 128 -> 10.
void buildCnn(Model& m) {
    TensorShape s = kImage;
    append<Conv2dLayer>(m, s, 16, 5, 2);
    append<ReluLayer>(m, s);
    append<MaxPoolLayer>(m, s, 2);
    append<Conv2dLayer>(m, s, 32, 5, 0);
    append<ReluLayer>(m, s);
    append<MaxPoolLayer>(m, s, 2);
    append<DenseLayer>(m, s, 128);
    append<ReluLayer>(m, s);
    append<DenseLayer>(m, s, 10);
}

}  // namespace

const std::vector<std::string>& modelNames() {
    static const std::vector<std::string> names{"mlp", "cnn"};
    return names;
}

Result<std::unique_ptr<Model>> createModel(Backend& backend, const std::string& name, int maxBatch, uint64_t seed) {
    if (maxBatch <= 0) return invalidArgument("batch size must be at least 1, got " + std::to_string(maxBatch));
    auto model = std::make_unique<Model>(backend, name, kImage, maxBatch);
    if (name == "mlp")
        buildMlp(*model);
    else if (name == "cnn")
        buildCnn(*model);
    else
        return invalidArgument("unknown model '" + name + "': use mlp or cnn");
    model->finalize(seed);
    return model;
}

}  // namespace syncscope::engine
