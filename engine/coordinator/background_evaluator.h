// BackgroundEvaluator: test-set accuracy of parameter snapshots on a thread of its own, so the
// coordinator's update loop never waits for an evaluation.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "engine/model/fashion_mnist.h"
#include "engine/net/tensor_frame.h"

namespace syncscope::engine {

struct EvaluationResult {
    uint64_t version = 0;
    double accuracy = 0.0, loss = 0.0, seconds = 0.0;
};

class BackgroundEvaluator {
public:
    BackgroundEvaluator(std::string model, ImageDataset test);
    ~BackgroundEvaluator();
    BackgroundEvaluator(const BackgroundEvaluator&) = delete;
    BackgroundEvaluator& operator=(const BackgroundEvaluator&) = delete;

    /// Queues a snapshot unless one is being evaluated; returns whether it was taken.
    bool submit(SharedFloats params, uint64_t version);
    /// The newest finished evaluation, once.
    std::optional<EvaluationResult> takeResult();
    /// Evaluates now on the calling thread after the queue is idle (the final figure of a run).
    EvaluationResult evaluateNow(SharedFloats params, uint64_t version);

private:
    void loop();
    EvaluationResult evaluateSnapshot(const SharedFloats& params, uint64_t version);

    std::string m_model;
    ImageDataset m_test;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    SharedFloats m_job;
    uint64_t m_jobVersion = 0;
    bool m_busy = false, m_quit = false;
    std::optional<EvaluationResult> m_result;
    std::thread m_thread;
};

}  // namespace syncscope::engine
