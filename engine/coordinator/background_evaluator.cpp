// BackgroundEvaluator: one CPU model of its own (one thread), fed snapshots through a mutex.
#include "engine/coordinator/background_evaluator.h"

#include <chrono>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/model/evaluator.h"
#include "engine/model/model_zoo.h"

namespace syncscope::engine {

BackgroundEvaluator::BackgroundEvaluator(std::string model, ImageDataset test)
    : m_model(std::move(model)), m_test(std::move(test)), m_thread([this] { loop(); }) {}

BackgroundEvaluator::~BackgroundEvaluator() {
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

bool BackgroundEvaluator::submit(SharedFloats params, uint64_t version) {
    std::lock_guard lock(m_mutex);
    if (m_busy) return false;
    m_job = std::move(params);
    m_jobVersion = version;
    m_busy = true;
    m_wake.notify_all();
    return true;
}

std::optional<EvaluationResult> BackgroundEvaluator::takeResult() {
    std::lock_guard lock(m_mutex);
    return std::exchange(m_result, std::nullopt);
}

EvaluationResult BackgroundEvaluator::evaluateNow(SharedFloats params, uint64_t version) {
    std::unique_lock lock(m_mutex);
    m_wake.wait(lock, [&] { return !m_busy; });
    lock.unlock();
    return evaluateSnapshot(params, version);
}

EvaluationResult BackgroundEvaluator::evaluateSnapshot(const SharedFloats& params, uint64_t version) {
    const auto start = std::chrono::steady_clock::now();
    CpuBackend backend(1);  // one core: the workers on this machine keep the rest
    auto model = createModel(backend, m_model, 1000, 0);
    model.value()->uploadParameters(*params);
    const Evaluation e = evaluate(*model.value(), m_test);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {version, e.accuracy(), e.meanLoss, seconds};
}

void BackgroundEvaluator::loop() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [&] { return m_quit || (m_busy && m_job); });
        if (m_quit) return;
        SharedFloats job = std::move(m_job);
        const uint64_t version = m_jobVersion;
        lock.unlock();
        EvaluationResult result = evaluateSnapshot(job, version);
        lock.lock();
        m_result = result;
        m_busy = false;
        m_wake.notify_all();
    }
}

}  // namespace syncscope::engine
