// evaluate(): batches of the model's maximum size; argmax and log-softmax on the host.
#include "engine/model/evaluator.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/model/batch_feeder.h"

namespace syncscope::engine {

Evaluation evaluate(Model& model, const ImageDataset& data) {
    Backend& backend = model.backend();
    const int batchSize = model.maxBatch();
    const int classes = model.classes();
    BatchFeeder feeder(backend, data, batchSize);
    std::vector<float> logits(size_t(batchSize) * classes);
    Evaluation result;
    double lossSum = 0.0;
    for (int first = 0; first < data.count; first += batchSize) {
        const int n = feeder.stageRange(first, std::min(batchSize, data.count - first));
        const float* deviceLogits = model.forward(feeder.images(), n);
        backend.copyToHost(logits.data(), deviceLogits, sizeof(float) * n * classes);
        for (int r = 0; r < n; ++r) {
            const float* z = logits.data() + size_t(r) * classes;
            const int predicted = static_cast<int>(std::max_element(z, z + classes) - z);
            const int label = feeder.hostLabels()[r];
            result.correct += predicted == label;
            double sum = 0.0;
            for (int c = 0; c < classes; ++c) sum += std::exp(double(z[c]) - z[predicted]);
            lossSum += std::log(sum) - (double(z[label]) - z[predicted]);
        }
        result.total += n;
    }
    result.meanLoss = result.total ? lossSum / result.total : 0.0;
    return result;
}

}  // namespace syncscope::engine
