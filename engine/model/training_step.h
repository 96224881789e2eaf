// TrainingStep: one SGD step of a model on a staged batch (forward, loss, backward, update). Where the
// backend can record (Backend::record: a CUDA graph), each batch size's step is recorded once, after a
// first step run call by call (libraries choose algorithms and size workspaces then), and replayed
// from then on: one launch per step instead of one per kernel.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "engine/backend/backend.h"
#include "engine/model/model.h"
#include "engine/model/sgd_optimizer.h"

namespace syncscope::engine {

class TrainingStep {
public:
    enum class Mode { Recorded, CallByCall };

    /// `images` and `labels` are the buffers every batch is staged into (BatchFeeder's): a recorded
    /// step reads them, whatever they hold when it replays. Mode::CallByCall never records.
    TrainingStep(Model& model, SgdOptimizer& optimizer, const float* images, const int32_t* labels,
                 Mode mode = Mode::Recorded);

    /// Queues one step on the first `batch` staged rows at `learningRate`; does not wait for it.
    /// Model::meanLoss(batch) reads its loss afterwards.
    void run(int batch, float learningRate);

    /// How steps run, in words: "recorded (one CUDA graph per step)" or why each call runs alone.
    std::string describe() const;

private:
    void runCallByCall(int batch);

    Model& m_model;
    SgdOptimizer& m_optimizer;
    const float* m_images;
    const int32_t* m_labels;
    Mode m_mode;
    std::string m_whyNotRecorded;
    std::map<int, std::unique_ptr<RecordedWork>> m_recordings;  // by batch size
    std::map<int, bool> m_warmedUp;                             // batch sizes run once call by call
};

}  // namespace syncscope::engine
