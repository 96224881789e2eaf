// The CPU backend's batch ops against values worked out by hand: gatherRows and gatherLabels copy the
// rows asked for (in that order, repeats and all) and nothing past `count`; the SGD step reads its
// learning rate from backend memory when it runs; record() records nothing and says why. (The same
// ops against CUDA: tests/gpu/test_backend_consistency.cpp, on a GPU machine.)
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/backend/device_buffer.h"

using namespace syncscope::engine;

namespace {

constexpr float kSentinel = 777.0f;

/// SGD with momentum and L2 weight decay on one value, in double: PyTorch's formulation (backend.h).
void sgdReference(double& param, double grad, double& velocity, double lr, double momentum, double weightDecay) {
    velocity = momentum * velocity + grad + weightDecay * param;
    param -= lr * velocity;
}

}  // namespace

class TestCpuGather : public ::testing::Test {
protected:
    void SetUp() override {
        auto backend = createBackend(BackendKind::Cpu, 1);
        ASSERT_TRUE(backend.isOk()) << backend.status().message();
        m_backend = std::move(backend).value();
    }

    template <typename T>
    DeviceBuffer<T> buffer(const std::vector<T>& host) {
        DeviceBuffer<T> buf(*m_backend, host.size());
        buf.upload(host);
        return buf;
    }

    std::unique_ptr<Backend> m_backend;
};

// Four rows of three, row r holding 10r, 10r + 1, 10r + 2; rows {2, 0, 2, 3}: out of order, row 2 twice.
TEST_F(TestCpuGather, gatherRowsCopiesTheRowsAsked) {
    const DeviceBuffer<float> src = buffer<float>({0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32});
    const DeviceBuffer<int32_t> rows = buffer<int32_t>({2, 0, 2, 3, 1});  // the 1 lies past count
    DeviceBuffer<float> dst = buffer(std::vector<float>(5 * 3, kSentinel));
    m_backend->gatherRows(src.data(), rows.data(), 4, 3, dst.data());
    EXPECT_EQ(dst.download(), (std::vector<float>{20, 21, 22, 0, 1, 2, 20, 21, 22, 30, 31, 32, kSentinel, kSentinel,
                                                  kSentinel}));

    m_backend->gatherRows(src.data(), rows.data() + 3, 1, 3, dst.data());  // one row: row 3
    EXPECT_EQ(dst.download(), (std::vector<float>{30, 31, 32, 0, 1, 2, 20, 21, 22, 30, 31, 32, kSentinel, kSentinel,
                                                  kSentinel}));
    m_backend->gatherRows(src.data(), rows.data(), 0, 3, dst.data());  // none: nothing written
    EXPECT_EQ(dst.download()[0], 30.0f);
}

TEST_F(TestCpuGather, gatherLabelsCopiesTheLabelsAsked) {
    const DeviceBuffer<int32_t> src = buffer<int32_t>({7, 8, 9, 10});
    const DeviceBuffer<int32_t> rows = buffer<int32_t>({3, 3, 0, 1, 2});  // the 2 lies past count
    DeviceBuffer<int32_t> dst = buffer(std::vector<int32_t>(6, -1));
    m_backend->gatherLabels(src.data(), rows.data(), 4, dst.data());
    EXPECT_EQ(dst.download(), (std::vector<int32_t>{10, 10, 7, 8, -1, -1}));
    m_backend->gatherLabels(src.data(), rows.data() + 2, 1, dst.data());
    EXPECT_EQ(dst.download(), (std::vector<int32_t>{7, 10, 7, 8, -1, -1}));
}

// p {1, -2}, g {0.5, 0.25}, v {0, 0.1}, momentum 0.9, weight decay 0.01. At lr 0.1:
// g' = g + 0.01 p = {0.51, 0.23}; v = 0.9 v + g' = {0.51, 0.32}; p -= 0.1 v: {0.949, -2.032}.
// Then the rate's buffer is set to 0.2 and the same gradients give g' = {0.50949, 0.22968},
// v = {0.96849, 0.51768}, p = {0.755302, -2.135536}.
TEST_F(TestCpuGather, sgdStepReadsTheRateFromBackendMemory) {
    DeviceBuffer<float> params = buffer<float>({1.0f, -2.0f});
    const DeviceBuffer<float> grads = buffer<float>({0.5f, 0.25f});
    DeviceBuffer<float> velocity = buffer<float>({0.0f, 0.1f});
    DeviceBuffer<float> lr(*m_backend, 1);
    m_backend->fill(lr.data(), 0.1f, 1);
    m_backend->sgdMomentumStep(params.data(), grads.data(), velocity.data(), 2, lr.data(), 0.9f, 0.01f);
    std::vector<float> p = params.download(), v = velocity.download();
    EXPECT_NEAR(v[0], 0.51, 1e-5);
    EXPECT_NEAR(v[1], 0.32, 1e-5);
    EXPECT_NEAR(p[0], 0.949, 1e-5);
    EXPECT_NEAR(p[1], -2.032, 1e-5);

    m_backend->fill(lr.data(), 0.2f, 1);
    m_backend->sgdMomentumStep(params.data(), grads.data(), velocity.data(), 2, lr.data(), 0.9f, 0.01f);
    p = params.download(), v = velocity.download();
    EXPECT_NEAR(v[0], 0.96849, 1e-5);
    EXPECT_NEAR(v[1], 0.51768, 1e-5);
    EXPECT_NEAR(p[0], 0.755302, 1e-5);
    EXPECT_NEAR(p[1], -2.135536, 1e-5);
}

// 37 values (the vectorised loop and its tail), three steps at rates 0.05, 0.5, 0.01 set through the
// buffer (fill, upload, fill), against the formula in double.
TEST_F(TestCpuGather, sgdStepFollowsAChangingRate) {
    const size_t count = 37;
    std::vector<float> p0(count), g(count), v0(count);
    for (size_t i = 0; i < count; ++i) {
        p0[i] = 0.1f * float(i) - 1.5f;
        g[i] = 0.03f * float(i % 11) - 0.2f;
        v0[i] = 0.01f * float(i % 5);
    }
    DeviceBuffer<float> params = buffer(p0), velocity = buffer(v0), lr(*m_backend, 1);
    const DeviceBuffer<float> grads = buffer(g);
    std::vector<double> p(p0.begin(), p0.end()), v(v0.begin(), v0.end());
    const float rates[] = {0.05f, 0.5f, 0.01f};
    for (int step = 0; step < 3; ++step) {
        if (step == 1) lr.upload(std::vector<float>{rates[step]});
        else m_backend->fill(lr.data(), rates[step], 1);
        m_backend->sgdMomentumStep(params.data(), grads.data(), velocity.data(), count, lr.data(), 0.9f, 5e-4f);
        for (size_t i = 0; i < count; ++i) sgdReference(p[i], g[i], v[i], rates[step], 0.9f, 5e-4f);
    }
    const std::vector<float> gotP = params.download(), gotV = velocity.download();
    for (size_t i = 0; i < count; ++i) {
        EXPECT_NEAR(gotP[i], p[i], 1e-5) << "param " << i;
        EXPECT_NEAR(gotV[i], v[i], 1e-5) << "velocity " << i;
    }
}

// The CPU backend runs each call as it comes: record() gives nothing, says why, and does not run the
// work (its caller runs it next, and would run it twice). Its memory is host memory.
TEST_F(TestCpuGather, recordGivesNothingAndSaysWhy) {
    bool ran = false;
    std::string whyNot;
    EXPECT_TRUE(m_backend->record([&] { ran = true; }, &whyNot) == nullptr);
    EXPECT_FALSE(whyNot.empty());
    EXPECT_FALSE(ran);
    EXPECT_TRUE(m_backend->record([] {}, nullptr) == nullptr);  // no reason asked for: no crash either
    EXPECT_TRUE(m_backend->sharesHostMemory());
}

// The CPU backend convolves one way only: it takes the default settings and refuses any other, so
// bench_compute --conv-math tf32 on the CPU is an error and not a silent FP32 run.
TEST_F(TestCpuGather, convolutionSettingsOnlyTheDefaults) {
    EXPECT_TRUE(m_backend->setConvolutionSettings(syncscope::engine::ConvolutionSettings{}));
    syncscope::engine::ConvolutionSettings tf32;
    tf32.tf32 = true;
    EXPECT_FALSE(m_backend->setConvolutionSettings(tf32));
    syncscope::engine::ConvolutionSettings measured;
    measured.measure = true;
    EXPECT_FALSE(m_backend->setConvolutionSettings(measured));
}
