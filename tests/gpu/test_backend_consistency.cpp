// CPU vs CUDA: every Backend op runs on both backends with the same seeded inputs, and the results must
// agree to FP32 rounding (ggml's test-backend-ops habit); the gathers, being copies, exactly. Outputs
// start filled with a sentinel, so an op that leaves part of its output unwritten (or writes past it)
// fails too. Recorded work (a CUDA graph) replays to what the same calls give on the CPU backend.
// Without a usable GPU every test is skipped saying why, and the binary exits 77 (ctest's skip).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/backend/cuda/cuda_backend_factory.h"
#include "engine/backend/device_buffer.h"
#include "engine/core/rng.h"

namespace {

using syncscope::engine::Backend;
using syncscope::engine::BackendKind;
using syncscope::engine::ConvShape;
using syncscope::engine::DeviceBuffer;
using syncscope::engine::PoolShape;
using syncscope::engine::RecordedWork;
using syncscope::engine::Rng;

// Relative to the largest |value| of the CPU result: the backends sum in different orders, which
// moves each element by a few ulps of the largest partial sums rather than of the element itself.
constexpr double kTolerance = 1e-4;
// Written into every output before an op runs; no op here produces it.
constexpr float kSentinel = 777.0f;
constexpr int32_t kLabelSentinel = -777;

std::vector<float> randomValues(size_t count, uint64_t seed, float lo = -1.0f, float hi = 1.0f) {
    Rng rng(seed);
    std::vector<float> values(count);
    for (float& v : values) v = rng.uniform(lo, hi);
    return values;
}

/// max |expected - actual| / max |expected|; infinity on a size mismatch or NaN.
double relativeError(const std::vector<float>& expected, const std::vector<float>& actual) {
    constexpr double kInfinity = std::numeric_limits<double>::infinity();
    if (expected.size() != actual.size()) return kInfinity;
    double scale = 0.0, worst = 0.0;
    for (size_t i = 0; i < expected.size(); ++i) {
        const double diff = std::fabs(static_cast<double>(expected[i]) - actual[i]);
        if (std::isnan(diff)) return kInfinity;
        scale = std::max(scale, std::fabs(static_cast<double>(expected[i])));
        worst = std::max(worst, diff);
    }
    return worst / std::max(scale, 1e-30);
}

/// The same data on the CPU backend and on the CUDA backend.
template <typename T>
struct Pair {
    DeviceBuffer<T> cpu;
    DeviceBuffer<T> gpu;
};
using BufferPair = Pair<float>;

::testing::AssertionResult agree(const std::string& op, const BufferPair& pair) {
    const double error = relativeError(pair.cpu.download(), pair.gpu.download());
    if (error <= kTolerance) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << op << ": CUDA differs from CPU by " << error
                                         << " of the largest |value| (tolerance " << kTolerance << ")";
}

::testing::AssertionResult identical(const std::string& op, const std::vector<float>& first,
                                     const std::vector<float>& second) {
    if (first == second) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << op << ": two CUDA runs on the same input gave different bits";
}

size_t inputCount(const ConvShape& s) { return static_cast<size_t>(s.batch) * s.inChannels * s.height * s.width; }
size_t weightCount(const ConvShape& s) {
    return static_cast<size_t>(s.outChannels) * s.inChannels * s.kernel * s.kernel;
}
size_t outputCount(const ConvShape& s) {
    return static_cast<size_t>(s.batch) * s.outChannels * s.outHeight() * s.outWidth();
}
size_t inputCount(const PoolShape& s) { return static_cast<size_t>(s.batch) * s.channels * s.height * s.width; }
size_t outputCount(const PoolShape& s) {
    return static_cast<size_t>(s.batch) * s.channels * s.outHeight() * s.outWidth();
}

struct ConvRow {
    const char* name;
    ConvShape shape;
};
const std::vector<ConvRow> kConvRows = {
    {"LeNet conv1: 1->6, 5x5, stride 1, pad 2", ConvShape{2, 1, 28, 28, 6, 5, 1, 2}},
    {"LeNet conv2: 6->16, 5x5, stride 1, pad 0", ConvShape{3, 6, 14, 14, 16, 5, 1, 0}},
    {"3->4, 3x3, stride 2, pad 1, odd sizes", ConvShape{2, 3, 9, 11, 4, 3, 2, 1}},
    // The cnn's layers at a real batch: the bias gradient's sums split into many parts (bias_kernels.cu).
    {"cnn conv1 at batch 64: 1->16, 5x5, pad 2", ConvShape{64, 1, 28, 28, 16, 5, 1, 2}},
    {"cnn conv2 at batch 256: 16->32, 5x5", ConvShape{256, 16, 14, 14, 32, 5, 1, 0}},
};

struct PoolRow {
    const char* name;
    PoolShape shape;
    bool ties;
};
const std::vector<PoolRow> kPoolRows = {
    {"2x2 stride 2", PoolShape{2, 3, 8, 8, 2, 2}, false},
    {"2x2 stride 2, odd sizes leave an edge", PoolShape{2, 4, 7, 9, 2, 2}, false},
    {"3x3 stride 2, overlapping", PoolShape{2, 2, 9, 9, 3, 2}, false},
    // Values from {0, 1, 2}: most windows hold several maxima, as after a ReLU; backend.h says the
    // gradient goes to the first one.
    {"2x2 stride 2, ties", PoolShape{2, 3, 8, 8, 2, 2}, true},
    {"3x3 stride 2, overlapping, ties", PoolShape{2, 2, 9, 9, 3, 2}, true},
};

std::vector<float> poolInput(const PoolShape& shape, bool ties, uint64_t seed) {
    if (!ties) return randomValues(inputCount(shape), seed);
    Rng rng(seed);
    std::vector<float> values(inputCount(shape));
    for (float& v : values) v = static_cast<float>(rng.below(3));
    return values;
}

/// `count` indices of rows in [0, sourceRows): out of order, with repeats, the last and first rows among them.
std::vector<int32_t> rowIndices(int count, int sourceRows, uint64_t seed) {
    Rng rng(seed);
    std::vector<int32_t> rows(count);
    for (int32_t& row : rows) row = static_cast<int32_t>(rng.below(sourceRows));
    rows[0] = sourceRows - 1;
    if (count > 3) rows[1] = 0, rows[2] = rows[0], rows[count - 1] = rows[1];
    return rows;
}

template <typename T>
::testing::AssertionResult sameValues(const std::string& what, const std::vector<T>& expected,
                                      const std::vector<T>& actual) {
    if (expected.size() != actual.size())
        return ::testing::AssertionFailure() << what << ": " << actual.size() << " values, not " << expected.size();
    for (size_t i = 0; i < expected.size(); ++i)
        if (!(expected[i] == actual[i]))
            return ::testing::AssertionFailure() << what << ": element " << i << " is " << actual[i] << ", not "
                                                 << expected[i];
    return ::testing::AssertionSuccess();
}

/// The two backends, made once for the whole run (a CUDA backend costs a context, cuBLAS and cuDNN)
/// and released before the program's statics go.
struct Backends {
    static inline std::unique_ptr<Backend> cpu;
    static inline std::unique_ptr<Backend> gpu;
    static inline std::string skipReason;  // why there is no CUDA backend, when there is none
};

class BackendEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        std::string whyNot;
        Backends::gpu = syncscope::engine::createCudaBackend(&whyNot);
        if (!Backends::gpu) {
            Backends::skipReason = "CUDA backend unavailable: " + whyNot;
            return;
        }
        auto cpu = syncscope::engine::createBackend(BackendKind::Cpu, 1);
        ASSERT_TRUE(cpu.isOk()) << cpu.status().message();
        Backends::cpu = std::move(cpu).value();
        std::printf("CPU backend:  %s\nCUDA backend: %s\n", Backends::cpu->describe().c_str(),
                    Backends::gpu->describe().c_str());
    }
    void TearDown() override {
        Backends::gpu.reset();
        Backends::cpu.reset();
    }
};

}  // namespace

class TestBackendConsistency : public ::testing::Test {
protected:
    // Every test is skipped, saying why, where no GPU is usable (initTestCase's QSKIP, as was).
    void SetUp() override {
        if (!Backends::gpu) GTEST_SKIP() << Backends::skipReason;
        m_cpu = Backends::cpu.get();
        m_gpu = Backends::gpu.get();
    }

    template <typename T>
    Pair<T> upload(const std::vector<T>& host) {
        Pair<T> pair{DeviceBuffer<T>(*m_cpu, host.size()), DeviceBuffer<T>(*m_gpu, host.size())};
        pair.cpu.upload(host);
        pair.gpu.upload(host);
        return pair;
    }
    BufferPair upload(const std::vector<float>& host) { return upload<float>(host); }
    BufferPair sentinel(size_t count) { return upload(std::vector<float>(count, kSentinel)); }
    /// One float, as a learning rate lives: filled by each backend's own fill.
    BufferPair rate(float value) {
        BufferPair pair = sentinel(1);
        m_cpu->fill(pair.cpu.data(), value, 1);
        m_gpu->fill(pair.gpu.data(), value, 1);
        return pair;
    }

    Backend* m_cpu = nullptr;
    Backend* m_gpu = nullptr;
};

TEST_F(TestBackendConsistency, supportsOp) {
    for (const char* op : {"gemm", "add_bias", "bias_gradient", "relu", "conv2d", "maxpool2d", "softmax_cross_entropy",
                           "sgd_momentum", "no_such_op"}) {
        EXPECT_EQ(m_gpu->supportsOp(op), m_cpu->supportsOp(op))
            << "supportsOp(\"" << op << "\"): CPU and CUDA answer differently";
    }
}

// Backend memory is host memory on the CPU backend only: BatchFeeder keeps the data set on a GPU.
TEST_F(TestBackendConsistency, sharesHostMemory) {
    EXPECT_TRUE(m_cpu->sharesHostMemory());
    EXPECT_FALSE(m_gpu->sharesHostMemory());
}

TEST_F(TestBackendConsistency, copyRoundTrip) {
    const std::vector<float> host = randomValues(1000, 1);
    std::vector<float> expectedShifted(host.size(), 0.0f);
    std::copy(host.begin() + 20, host.begin() + 520, expectedShifted.begin() + 10);
    for (Backend* backend : {m_cpu, m_gpu}) {
        DeviceBuffer<float> source(*backend, host.size()), target(*backend, host.size());
        source.upload(host);
        backend->fill(target.data(), 0.0f, target.size());
        backend->copyOnDevice(target.data() + 10, source.data() + 20, 500 * sizeof(float));
        EXPECT_EQ(source.download(), host) << backend->name() << ": upload/download";
        EXPECT_EQ(target.download(), expectedShifted) << backend->name() << ": copyOnDevice of a sub-range";
    }
}

TEST_F(TestBackendConsistency, fill) {
    BufferPair values = sentinel(4099);
    m_cpu->fill(values.cpu.data(), -2.5f, values.cpu.size());
    m_gpu->fill(values.gpu.data(), -2.5f, values.gpu.size());
    EXPECT_TRUE(agree("fill", values));
    EXPECT_EQ(values.gpu.download(), std::vector<float>(4099, -2.5f)) << "fill: CUDA result is not exactly -2.5";
}

TEST_F(TestBackendConsistency, gemm) {
    struct Row {
        const char* name;
        bool transA, transB;
        int m, n, k;
        float alpha, beta;
    };
    for (const Row& row : {Row{"A B", false, false, 37, 29, 53, 0.75f, -0.5f},
                           Row{"A B^T", false, true, 37, 29, 53, 1.25f, 0.5f},
                           Row{"A^T B", true, false, 37, 29, 53, -0.5f, 2.0f},
                           Row{"A^T B^T", true, true, 37, 29, 53, 0.3f, -1.5f},
                           Row{"dense forward 64x784 * 784x256^T", false, true, 64, 256, 784, 1.0f, 0.0f},
                           Row{"dense weight grad dY^T X", true, false, 256, 784, 64, 1.0f, 0.0f}}) {
        SCOPED_TRACE(row.name);
        const BufferPair a = upload(randomValues(static_cast<size_t>(row.m) * row.k, 11));
        const BufferPair b = upload(randomValues(static_cast<size_t>(row.k) * row.n, 12));
        BufferPair c = upload(randomValues(static_cast<size_t>(row.m) * row.n, 13));
        m_cpu->gemm(row.transA, row.transB, row.m, row.n, row.k, row.alpha, a.cpu.data(), b.cpu.data(), row.beta,
                    c.cpu.data());
        m_gpu->gemm(row.transA, row.transB, row.m, row.n, row.k, row.alpha, a.gpu.data(), b.gpu.data(), row.beta,
                    c.gpu.data());
        EXPECT_TRUE(agree("gemm", c));
    }
}

TEST_F(TestBackendConsistency, addBias) {
    const int rows = 64, cols = 37;
    BufferPair y = upload(randomValues(static_cast<size_t>(rows) * cols, 21));
    const BufferPair bias = upload(randomValues(cols, 22));
    m_cpu->addBias(y.cpu.data(), bias.cpu.data(), rows, cols);
    m_gpu->addBias(y.gpu.data(), bias.gpu.data(), rows, cols);
    EXPECT_TRUE(agree("addBias", y));
}

TEST_F(TestBackendConsistency, biasGradient) {
    const int rows = 64, cols = 300;
    const BufferPair dy = upload(randomValues(static_cast<size_t>(rows) * cols, 31));
    BufferPair grad = sentinel(cols);
    m_cpu->biasGradient(dy.cpu.data(), grad.cpu.data(), rows, cols);
    m_gpu->biasGradient(dy.gpu.data(), grad.gpu.data(), rows, cols);
    EXPECT_TRUE(agree("biasGradient", grad));

    const std::vector<float> first = grad.gpu.download();
    m_gpu->biasGradient(dy.gpu.data(), grad.gpu.data(), rows, cols);
    EXPECT_TRUE(identical("biasGradient", first, grad.gpu.download()));
}

TEST_F(TestBackendConsistency, relu) {
    std::vector<float> input = randomValues(10007, 41);
    for (size_t i = 0; i < input.size(); i += 5) input[i] = 0.0f;  // the boundary itself
    const BufferPair x = upload(input);
    BufferPair y = sentinel(input.size());
    m_cpu->relu(x.cpu.data(), y.cpu.data(), input.size());
    m_gpu->relu(x.gpu.data(), y.gpu.data(), input.size());
    EXPECT_TRUE(agree("relu", y));
}

TEST_F(TestBackendConsistency, reluBackward) {
    std::vector<float> output = randomValues(10007, 51);
    for (float& v : output) v = std::max(v, 0.0f);  // a ReLU output: about half exact zeros
    const BufferPair y = upload(output);
    const BufferPair dy = upload(randomValues(output.size(), 52));
    BufferPair dx = sentinel(output.size());
    m_cpu->reluBackward(y.cpu.data(), dy.cpu.data(), dx.cpu.data(), output.size());
    m_gpu->reluBackward(y.gpu.data(), dy.gpu.data(), dx.gpu.data(), output.size());
    EXPECT_TRUE(agree("reluBackward", dx));
}

TEST_F(TestBackendConsistency, conv2dForward) {
    for (const ConvRow& row : kConvRows) {
        SCOPED_TRACE(row.name);
        const ConvShape& shape = row.shape;
        const BufferPair x = upload(randomValues(inputCount(shape), 61));
        const BufferPair w = upload(randomValues(weightCount(shape), 62, -0.3f, 0.3f));
        const BufferPair bias = upload(randomValues(shape.outChannels, 63));
        BufferPair y = sentinel(outputCount(shape));
        m_cpu->conv2dForward(shape, x.cpu.data(), w.cpu.data(), bias.cpu.data(), y.cpu.data());
        m_gpu->conv2dForward(shape, x.gpu.data(), w.gpu.data(), bias.gpu.data(), y.gpu.data());
        EXPECT_TRUE(agree("conv2dForward", y));
    }
}

TEST_F(TestBackendConsistency, conv2dBackwardData) {
    for (const ConvRow& row : kConvRows) {
        SCOPED_TRACE(row.name);
        const ConvShape& shape = row.shape;
        const BufferPair w = upload(randomValues(weightCount(shape), 71, -0.3f, 0.3f));
        const BufferPair dy = upload(randomValues(outputCount(shape), 72));
        BufferPair dx = sentinel(inputCount(shape));
        m_cpu->conv2dBackwardData(shape, w.cpu.data(), dy.cpu.data(), dx.cpu.data());
        m_gpu->conv2dBackwardData(shape, w.gpu.data(), dy.gpu.data(), dx.gpu.data());
        EXPECT_TRUE(agree("conv2dBackwardData", dx));

        const std::vector<float> first = dx.gpu.download();
        m_gpu->conv2dBackwardData(shape, w.gpu.data(), dy.gpu.data(), dx.gpu.data());
        EXPECT_TRUE(identical("conv2dBackwardData", first, dx.gpu.download()));
    }
}

TEST_F(TestBackendConsistency, conv2dBackwardFilter) {
    for (const ConvRow& row : kConvRows) {
        SCOPED_TRACE(row.name);
        const ConvShape& shape = row.shape;
        const BufferPair x = upload(randomValues(inputCount(shape), 81));
        const BufferPair dy = upload(randomValues(outputCount(shape), 82));
        BufferPair dw = sentinel(weightCount(shape));  // the sentinel also catches accumulating into dw
        BufferPair dbias = sentinel(shape.outChannels);
        m_cpu->conv2dBackwardFilter(shape, x.cpu.data(), dy.cpu.data(), dw.cpu.data(), dbias.cpu.data());
        m_gpu->conv2dBackwardFilter(shape, x.gpu.data(), dy.gpu.data(), dw.gpu.data(), dbias.gpu.data());
        EXPECT_TRUE(agree("conv2dBackwardFilter (dw)", dw));
        EXPECT_TRUE(agree("conv2dBackwardFilter (dbias)", dbias));

        const std::vector<float> firstDw = dw.gpu.download(), firstDbias = dbias.gpu.download();
        m_gpu->conv2dBackwardFilter(shape, x.gpu.data(), dy.gpu.data(), dw.gpu.data(), dbias.gpu.data());
        EXPECT_TRUE(identical("conv2dBackwardFilter (dw)", firstDw, dw.gpu.download()));
        EXPECT_TRUE(identical("conv2dBackwardFilter (dbias)", firstDbias, dbias.gpu.download()));
    }
}

TEST_F(TestBackendConsistency, maxPool2dForward) {
    for (const PoolRow& row : kPoolRows) {
        SCOPED_TRACE(row.name);
        const BufferPair x = upload(poolInput(row.shape, row.ties, 91));
        BufferPair y = sentinel(outputCount(row.shape));
        m_cpu->maxPool2dForward(row.shape, x.cpu.data(), y.cpu.data());
        m_gpu->maxPool2dForward(row.shape, x.gpu.data(), y.gpu.data());
        EXPECT_TRUE(agree("maxPool2dForward", y));
    }
}

TEST_F(TestBackendConsistency, maxPool2dBackward) {
    for (const PoolRow& row : kPoolRows) {
        SCOPED_TRACE(row.name);
        const PoolShape& shape = row.shape;
        const BufferPair x = upload(poolInput(shape, row.ties, 101));
        BufferPair y = sentinel(outputCount(shape));
        m_cpu->maxPool2dForward(shape, x.cpu.data(), y.cpu.data());
        m_gpu->maxPool2dForward(shape, x.gpu.data(), y.gpu.data());
        const BufferPair dy = upload(randomValues(outputCount(shape), 102));
        BufferPair dx = sentinel(inputCount(shape));
        m_cpu->maxPool2dBackward(shape, x.cpu.data(), y.cpu.data(), dy.cpu.data(), dx.cpu.data());
        m_gpu->maxPool2dBackward(shape, x.gpu.data(), y.gpu.data(), dy.gpu.data(), dx.gpu.data());
        EXPECT_TRUE(agree(row.ties ? "maxPool2dBackward (ties: first maximum)" : "maxPool2dBackward", dx));
    }
}

TEST_F(TestBackendConsistency, softmaxCrossEntropy) {
    struct Row {
        const char* name;
        int rows, classes;
        float range;
    };
    for (const Row& row : {Row{"33 x 10", 33, 10, 5.0f}, Row{"5 x 37, more classes than a warp", 5, 37, 5.0f},
                           Row{"64 x 10, logits up to 80 (stability)", 64, 10, 80.0f}}) {
        SCOPED_TRACE(row.name);
        const size_t count = static_cast<size_t>(row.rows) * row.classes;
        const BufferPair logits = upload(randomValues(count, 111, -row.range, row.range));
        Rng rng(112);
        std::vector<int32_t> hostLabels(row.rows);
        for (int32_t& label : hostLabels) label = static_cast<int32_t>(rng.below(row.classes));
        const Pair<int32_t> labels = upload(hostLabels);
        BufferPair rowLoss = sentinel(row.rows);
        BufferPair dlogits = sentinel(count);
        m_cpu->softmaxCrossEntropy(logits.cpu.data(), labels.cpu.data(), row.rows, row.classes, rowLoss.cpu.data(),
                                   dlogits.cpu.data());
        m_gpu->softmaxCrossEntropy(logits.gpu.data(), labels.gpu.data(), row.rows, row.classes, rowLoss.gpu.data(),
                                   dlogits.gpu.data());
        EXPECT_TRUE(agree("softmaxCrossEntropy (rowLoss)", rowLoss));
        EXPECT_TRUE(agree("softmaxCrossEntropy (dlogits)", dlogits));
    }
}

TEST_F(TestBackendConsistency, sgdMomentumStep) {
    const size_t count = 1000;
    BufferPair params = upload(randomValues(count, 121));
    BufferPair velocity = upload(randomValues(count, 122, -0.1f, 0.1f));
    const BufferPair learningRate = rate(0.05f);
    for (uint64_t step = 0; step < 3; ++step) {  // several steps, so velocity carries over
        const BufferPair grads = upload(randomValues(count, 130 + step));
        m_cpu->sgdMomentumStep(params.cpu.data(), grads.cpu.data(), velocity.cpu.data(), count, learningRate.cpu.data(),
                               0.9f, 5e-4f);
        m_gpu->sgdMomentumStep(params.gpu.data(), grads.gpu.data(), velocity.gpu.data(), count, learningRate.gpu.data(),
                               0.9f, 5e-4f);
    }
    EXPECT_TRUE(agree("sgdMomentumStep (params)", params));
    EXPECT_TRUE(agree("sgdMomentumStep (velocity)", velocity));
}

// The rate is read from its buffer when the step runs: a value written there between two steps (as a
// schedule writes it) is the one the second step uses, on both backends.
TEST_F(TestBackendConsistency, sgdMomentumStepReadsTheRateWhenItRuns) {
    const size_t count = 1000;
    const std::vector<float> initialParams = randomValues(count, 151);
    BufferPair params = upload(initialParams);
    BufferPair velocity = sentinel(count);
    m_cpu->fill(velocity.cpu.data(), 0.0f, count);
    m_gpu->fill(velocity.gpu.data(), 0.0f, count);
    BufferPair learningRate = rate(0.05f);
    const BufferPair grads = upload(randomValues(count, 152));
    const auto step = [&] {
        m_cpu->sgdMomentumStep(params.cpu.data(), grads.cpu.data(), velocity.cpu.data(), count, learningRate.cpu.data(),
                               0.9f, 5e-4f);
        m_gpu->sgdMomentumStep(params.gpu.data(), grads.gpu.data(), velocity.gpu.data(), count, learningRate.gpu.data(),
                               0.9f, 5e-4f);
    };
    step();
    EXPECT_TRUE(agree("sgdMomentumStep at 0.05 (params)", params));
    m_cpu->fill(learningRate.cpu.data(), 0.5f, 1);
    m_gpu->fill(learningRate.gpu.data(), 0.5f, 1);
    step();
    EXPECT_TRUE(agree("sgdMomentumStep at 0.05, then 0.5 (params)", params));
    EXPECT_TRUE(agree("sgdMomentumStep at 0.05, then 0.5 (velocity)", velocity));

    // Both backends keeping 0.05 would pass the checks above; at 0.05 throughout, CUDA would be elsewhere.
    DeviceBuffer<float> p(*m_cpu, count), v(*m_cpu, count), lr(*m_cpu, 1);
    p.upload(initialParams);
    m_cpu->fill(v.data(), 0.0f, count);
    m_cpu->fill(lr.data(), 0.05f, 1);
    for (int i = 0; i < 2; ++i) m_cpu->sgdMomentumStep(p.data(), grads.cpu.data(), v.data(), count, lr.data(), 0.9f, 5e-4f);
    EXPECT_GT(relativeError(p.download(), params.gpu.download()), 100 * kTolerance)
        << "CUDA's second step ran at the old rate";
}

// Gathers are copies: both backends give exactly the source rows, in the order asked, repeats and
// all, and the output's rows past `count` keep their sentinel.
TEST_F(TestBackendConsistency, gatherRows) {
    const int sourceRows = 500, spareRows = 3;
    for (const size_t rowLength : {size_t(784), size_t(37)})
        for (const int count : {1, 300}) {
            SCOPED_TRACE(std::to_string(count) + " rows of " + std::to_string(rowLength));
            const std::vector<float> source = randomValues(sourceRows * rowLength, 140 + rowLength);
            const std::vector<int32_t> rows = rowIndices(count, sourceRows, 141 + count);
            std::vector<float> expected((count + spareRows) * rowLength, kSentinel);
            for (int i = 0; i < count; ++i)
                std::copy_n(source.begin() + rows[i] * rowLength, rowLength, expected.begin() + i * rowLength);
            const BufferPair src = upload(source);
            const Pair<int32_t> index = upload(rows);
            BufferPair dst = sentinel(expected.size());
            m_cpu->gatherRows(src.cpu.data(), index.cpu.data(), count, rowLength, dst.cpu.data());
            m_gpu->gatherRows(src.gpu.data(), index.gpu.data(), count, rowLength, dst.gpu.data());
            const std::vector<float> cpu = dst.cpu.download(), gpu = dst.gpu.download();
            EXPECT_TRUE(sameValues("gatherRows: CUDA against CPU", cpu, gpu));
            EXPECT_TRUE(sameValues("gatherRows on CPU", expected, cpu));
            EXPECT_TRUE(sameValues("gatherRows on CUDA", expected, gpu));
        }
}

TEST_F(TestBackendConsistency, gatherLabels) {
    const int sourceRows = 500, spare = 5;
    Rng rng(150);
    std::vector<int32_t> labels(sourceRows);
    for (int32_t& label : labels) label = static_cast<int32_t>(rng.below(1000000));  // a wrong row shows
    const Pair<int32_t> src = upload(labels);
    for (const int count : {1, 300}) {
        SCOPED_TRACE(std::to_string(count) + " labels");
        const std::vector<int32_t> rows = rowIndices(count, sourceRows, 151 + count);
        std::vector<int32_t> expected(count + spare, kLabelSentinel);
        for (int i = 0; i < count; ++i) expected[i] = labels[rows[i]];
        const Pair<int32_t> index = upload(rows);
        Pair<int32_t> dst = upload(std::vector<int32_t>(expected.size(), kLabelSentinel));
        m_cpu->gatherLabels(src.cpu.data(), index.cpu.data(), count, dst.cpu.data());
        m_gpu->gatherLabels(src.gpu.data(), index.gpu.data(), count, dst.gpu.data());
        const std::vector<int32_t> cpu = dst.cpu.download(), gpu = dst.gpu.download();
        EXPECT_TRUE(sameValues("gatherLabels: CUDA against CPU", cpu, gpu));
        EXPECT_TRUE(sameValues("gatherLabels on CPU", expected, cpu));
        EXPECT_TRUE(sameValues("gatherLabels on CUDA", expected, gpu));
    }
}

// The CPU backend runs each call as it comes: it records nothing, says why, and leaves the calls to the caller.
TEST_F(TestBackendConsistency, cpuBackendRecordsNothing) {
    bool ran = false;
    std::string whyNot;
    EXPECT_TRUE(m_cpu->record([&] { ran = true; }, &whyNot) == nullptr);
    EXPECT_FALSE(whyNot.empty()) << "record() on CPU gave no reason";
    EXPECT_FALSE(ran) << "record() on CPU ran the work, which its caller then runs again";
}

// A dense layer's forward pass and an SGD step recorded on CUDA (a CUDA graph): recording runs none of
// it, and each replay gives what the same calls give made one by one on the CPU backend, reading the
// input and the learning rate as their buffers hold them at replay time.
TEST_F(TestBackendConsistency, recordedWorkReplaysLikeTheCalls) {
    const int m = 64, n = 37, k = 784;
    BufferPair x = upload(randomValues(size_t(m) * k, 161));
    BufferPair w = upload(randomValues(size_t(n) * k, 162, -0.1f, 0.1f));
    const BufferPair bias = upload(randomValues(n, 163));
    const BufferPair grads = upload(randomValues(size_t(n) * k, 164));
    BufferPair velocity = upload(randomValues(size_t(n) * k, 165, -0.1f, 0.1f));
    BufferPair learningRate = rate(0.05f);
    BufferPair c = sentinel(size_t(m) * n), y = sentinel(size_t(m) * n);
    const auto calls = [&](Backend& backend, DeviceBuffer<float> BufferPair::*on) {
        backend.gemm(false, true, m, n, k, 1.0f, (x.*on).data(), (w.*on).data(), 0.0f, (c.*on).data());
        backend.addBias((c.*on).data(), (bias.*on).data(), m, n);
        backend.relu((c.*on).data(), (y.*on).data(), size_t(m) * n);
        backend.sgdMomentumStep((w.*on).data(), (grads.*on).data(), (velocity.*on).data(), size_t(n) * k,
                                (learningRate.*on).data(), 0.9f, 5e-4f);
    };
    const std::vector<float> weightsBefore = w.gpu.download(), velocityBefore = velocity.gpu.download();
    std::string whyNot;
    const std::unique_ptr<RecordedWork> work = m_gpu->record([&] { calls(*m_gpu, &BufferPair::gpu); }, &whyNot);
    ASSERT_TRUE(work != nullptr) << "CUDA recorded nothing: " << whyNot;
    m_gpu->synchronize();
    const std::vector<float> untouched(c.gpu.size(), kSentinel);
    EXPECT_TRUE(sameValues("C after recording alone", untouched, c.gpu.download()));
    EXPECT_TRUE(sameValues("Y after recording alone", untouched, y.gpu.download()));
    EXPECT_TRUE(sameValues("weights after recording alone", weightsBefore, w.gpu.download()));
    EXPECT_TRUE(sameValues("velocity after recording alone", velocityBefore, velocity.gpu.download()));

    for (int replay = 1; replay <= 2; ++replay) {
        SCOPED_TRACE("replay " + std::to_string(replay));
        if (replay == 2) {  // a new batch and a new rate, written as a trainer writes them
            const std::vector<float> batch = randomValues(x.cpu.size(), 166);
            x.cpu.upload(batch);
            x.gpu.upload(batch);
            m_cpu->fill(learningRate.cpu.data(), 0.02f, 1);
            m_gpu->fill(learningRate.gpu.data(), 0.02f, 1);
        }
        calls(*m_cpu, &BufferPair::cpu);
        work->replay();
        EXPECT_TRUE(agree("recorded gemm + addBias (C)", c));
        EXPECT_TRUE(agree("recorded relu (Y)", y));
        EXPECT_TRUE(agree("recorded sgdMomentumStep (weights)", w));
        EXPECT_TRUE(agree("recorded sgdMomentumStep (velocity)", velocity));
    }
}

// Exits 77 (ctest's SKIP_RETURN_CODE) when every test was skipped: no usable GPU here.
int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new BackendEnvironment);  // GoogleTest owns it
    const int failed = RUN_ALL_TESTS();
    const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
    if (failed == 0 && unit.test_to_run_count() > 0 && unit.skipped_test_count() == unit.test_to_run_count()) {
        std::printf("SKIP: %s\n", Backends::skipReason.c_str());
        return 77;
    }
    return failed;
}
