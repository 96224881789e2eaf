// OpTimingBackend: a Backend that forwards every call to another and times each compute op on its own
// (synchronize, call, synchronize), summed per op and shape. Where the time of a step goes when no
// profiler is at hand (the lent GPU machines have no Nsight): bench_compute --op-times. The figures
// include one launch and one synchronisation per op, which bench_compute measures and prints beside them.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "engine/backend/backend.h"

namespace syncscope::bench {

using engine::ActivationLayout;
using engine::Backend;
using engine::ConvolutionSettings;
using engine::ConvShape;
using engine::PoolShape;
using engine::RecordedWork;

class OpTimingBackend final : public Backend {
public:
    struct Total {
        long long calls = 0;
        double seconds = 0;
    };

    explicit OpTimingBackend(Backend& inner) : m_inner(inner) {}

    /// Per "op shape" label: calls and seconds since the last reset().
    const std::map<std::string, Total>& totals() const { return m_totals; }
    void reset() { m_totals.clear(); }

    std::string name() const override { return m_inner.name(); }
    std::string describe() const override { return m_inner.describe(); }
    bool supportsOp(const std::string& op) const override { return m_inner.supportsOp(op); }
    ActivationLayout preferredLayout(int channels) const override { return m_inner.preferredLayout(channels); }
    void* allocate(size_t bytes) override { return m_inner.allocate(bytes); }
    void release(void* ptr) override { m_inner.release(ptr); }
    void copyToDevice(void* dst, const void* src, size_t bytes) override {
        timed("copyToDevice", [&] { m_inner.copyToDevice(dst, src, bytes); });
    }
    void copyToHost(void* dst, const void* src, size_t bytes) override { m_inner.copyToHost(dst, src, bytes); }
    void copyOnDevice(void* dst, const void* src, size_t bytes) override {
        timed("copyOnDevice", [&] { m_inner.copyOnDevice(dst, src, bytes); });
    }
    void fill(float* dst, float value, size_t count) override {
        timed(fmt::format("fill {}", count), [&] { m_inner.fill(dst, value, count); });
    }
    void synchronize() override { m_inner.synchronize(); }
    bool sharesHostMemory() const override { return m_inner.sharesHostMemory(); }
    std::unique_ptr<RecordedWork> record(const std::function<void()>&, std::string* whyNot) override {
        if (whyNot) *whyNot = "ops are timed one by one";
        return nullptr;
    }
    bool setConvolutionSettings(const ConvolutionSettings& s) override { return m_inner.setConvolutionSettings(s); }
    void gatherRows(const float* src, const int32_t* rows, int count, size_t rowLength, float* dst) override {
        timed("gatherRows", [&] { m_inner.gatherRows(src, rows, count, rowLength, dst); });
    }
    void gatherLabels(const int32_t* src, const int32_t* rows, int count, int32_t* dst) override {
        timed("gatherLabels", [&] { m_inner.gatherLabels(src, rows, count, dst); });
    }
    void gemm(bool transA, bool transB, int m, int n, int k, float alpha, const float* a, const float* b, float beta,
              float* c) override {
        timed(fmt::format("gemm {}{} {}x{}x{}", transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k),
              [&] { m_inner.gemm(transA, transB, m, n, k, alpha, a, b, beta, c); });
    }
    void addBias(float* y, const float* bias, int rows, int cols) override {
        timed(fmt::format("addBias {}x{}", rows, cols), [&] { m_inner.addBias(y, bias, rows, cols); });
    }
    void biasGradient(const float* dy, float* grad, int rows, int cols) override {
        timed(fmt::format("biasGradient {}x{}", rows, cols), [&] { m_inner.biasGradient(dy, grad, rows, cols); });
    }
    void relu(const float* x, float* y, size_t count) override {
        timed(fmt::format("relu {}", count), [&] { m_inner.relu(x, y, count); });
    }
    void reluBackward(const float* y, const float* dy, float* dx, size_t count) override {
        timed(fmt::format("reluBackward {}", count), [&] { m_inner.reluBackward(y, dy, dx, count); });
    }
    void conv2dForward(const ConvShape& s, const float* x, const float* w, const float* bias, float* y) override {
        timed("conv2dForward " + shape(s), [&] { m_inner.conv2dForward(s, x, w, bias, y); });
    }
    void conv2dBackwardData(const ConvShape& s, const float* w, const float* dy, float* dx) override {
        timed("conv2dBackwardData " + shape(s), [&] { m_inner.conv2dBackwardData(s, w, dy, dx); });
    }
    void conv2dBackwardFilter(const ConvShape& s, const float* x, const float* dy, float* dw, float* dbias) override {
        timed("conv2dBackwardFilter " + shape(s), [&] { m_inner.conv2dBackwardFilter(s, x, dy, dw, dbias); });
    }
    void maxPool2dForward(const PoolShape& s, const float* x, float* y) override {
        timed("maxPool2dForward " + shape(s), [&] { m_inner.maxPool2dForward(s, x, y); });
    }
    void maxPool2dBackward(const PoolShape& s, const float* x, const float* y, const float* dy, float* dx) override {
        timed("maxPool2dBackward " + shape(s), [&] { m_inner.maxPool2dBackward(s, x, y, dy, dx); });
    }
    void softmaxCrossEntropy(const float* logits, const int32_t* labels, int rows, int classes, float* rowLoss,
                             float* dlogits) override {
        timed(fmt::format("softmaxCrossEntropy {}x{}", rows, classes),
              [&] { m_inner.softmaxCrossEntropy(logits, labels, rows, classes, rowLoss, dlogits); });
    }
    void sgdMomentumStep(float* params, const float* grads, float* velocity, size_t count, const float* learningRate,
                         float momentum, float weightDecay) override {
        timed(fmt::format("sgdMomentumStep {}", count), [&] {
            m_inner.sgdMomentumStep(params, grads, velocity, count, learningRate, momentum, weightDecay);
        });
    }

private:
    static std::string shape(const ConvShape& s) {
        return fmt::format("{}x{}x{}x{} -> {} k{} p{}", s.batch, s.inChannels, s.height, s.width, s.outChannels,
                           s.kernel, s.padding);
    }
    static std::string shape(const PoolShape& s) {
        return fmt::format("{}x{}x{}x{} w{}", s.batch, s.channels, s.height, s.width, s.window);
    }
    template <typename Call>
    void timed(const std::string& label, Call&& call) {
        m_inner.synchronize();
        const auto start = std::chrono::steady_clock::now();
        call();
        m_inner.synchronize();
        Total& total = m_totals[label];
        ++total.calls;
        total.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    Backend& m_inner;
    std::map<std::string, Total> m_totals;
};

}  // namespace syncscope::bench
