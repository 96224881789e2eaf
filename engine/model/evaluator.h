// evaluate(): a model's accuracy and mean loss on a whole dataset split, forward passes only.
#pragma once

#include "engine/model/fashion_mnist.h"
#include "engine/model/model.h"

namespace syncscope::engine {

struct Evaluation {
    int correct = 0, total = 0;
    double meanLoss = 0.0;
    double accuracy() const { return total ? static_cast<double>(correct) / total : 0.0; }
};

Evaluation evaluate(Model& model, const ImageDataset& data);

}  // namespace syncscope::engine
