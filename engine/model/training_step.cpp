// TrainingStep: record on the second step of each batch size, replay from the third.
#include "engine/model/training_step.h"

#include <utility>

namespace syncscope::engine {

TrainingStep::TrainingStep(Model& model, SgdOptimizer& optimizer, const float* images, const int32_t* labels,
                           Mode mode)
    : m_model(model), m_optimizer(optimizer), m_images(images), m_labels(labels), m_mode(mode) {
    if (mode == Mode::CallByCall) m_whyNotRecorded = "call by call, as asked";
}

void TrainingStep::runCallByCall(int batch) {
    m_model.backpropagate(m_images, m_labels, batch);
    m_optimizer.apply(m_model.parameters(), m_model.gradients());
}

void TrainingStep::run(int batch, float learningRate) {
    m_optimizer.setLearningRate(learningRate);  // a queued write the recording reads, never recorded itself
    if (m_mode == Mode::CallByCall) return runCallByCall(batch);
    if (const auto found = m_recordings.find(batch); found != m_recordings.end()) return found->second->replay();
    if (!m_warmedUp[batch]) {
        m_warmedUp[batch] = true;
        return runCallByCall(batch);
    }
    std::unique_ptr<RecordedWork> work = m_model.backend().record([&] { runCallByCall(batch); }, &m_whyNotRecorded);
    if (!work) {
        m_mode = Mode::CallByCall;  // the same reason holds for every batch size
        return runCallByCall(batch);
    }
    work->replay();
    m_recordings.emplace(batch, std::move(work));
}

std::string TrainingStep::describe() const {
    if (m_mode == Mode::Recorded && !m_recordings.empty()) return "recorded (one " + m_model.backend().name() + " graph per step)";
    if (m_mode == Mode::Recorded) return "not recorded yet";
    return "call by call: " + m_whyNotRecorded;
}

}  // namespace syncscope::engine
