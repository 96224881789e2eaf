// CPU vs CUDA: every Backend op runs on both backends with the same seeded inputs, and the results must
// agree to FP32 rounding (ggml's test-backend-ops habit). Outputs start filled with a sentinel, so an op
// that leaves part of its output unwritten fails too. Skips, saying why, where no GPU is usable.
#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/backend/cuda/cuda_backend_factory.h"
#include "engine/backend/device_buffer.h"
#include "engine/core/rng.h"

Q_DECLARE_METATYPE(syncscope::engine::ConvShape)
Q_DECLARE_METATYPE(syncscope::engine::PoolShape)

namespace {

using syncscope::engine::Backend;
using syncscope::engine::BackendKind;
using syncscope::engine::ConvShape;
using syncscope::engine::DeviceBuffer;
using syncscope::engine::PoolShape;
using syncscope::engine::Rng;

// Relative to the largest |value| of the CPU result: the backends sum in different orders, which
// moves each element by a few ulps of the largest partial sums rather than of the element itself.
constexpr double kTolerance = 1e-4;
// Written into every output before an op runs; no op here produces it.
constexpr float kSentinel = 777.0f;

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
struct BufferPair {
    DeviceBuffer<float> cpu;
    DeviceBuffer<float> gpu;
};

struct Verdict {
    bool ok = false;
    QByteArray message;
};

Verdict agree(const char* op, const BufferPair& pair) {
    const double error = relativeError(pair.cpu.download(), pair.gpu.download());
    return {error <= kTolerance, QByteArray(op) + ": CUDA differs from CPU by " + QByteArray::number(error) +
                                     " of the largest |value| (tolerance " + QByteArray::number(kTolerance) + ")"};
}

Verdict identical(const char* op, const std::vector<float>& first, const std::vector<float>& second) {
    return {first == second, QByteArray(op) + ": two CUDA runs on the same input gave different bits"};
}

ConvShape convShape(int batch, int in, int height, int width, int out, int kernel, int stride, int padding) {
    ConvShape s;
    s.batch = batch, s.inChannels = in, s.height = height, s.width = width;
    s.outChannels = out, s.kernel = kernel, s.stride = stride, s.padding = padding;
    return s;
}

PoolShape poolShape(int batch, int channels, int height, int width, int window, int stride) {
    PoolShape s;
    s.batch = batch, s.channels = channels, s.height = height, s.width = width;
    s.window = window, s.stride = stride;
    return s;
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

void addConvShapes() {
    QTest::addColumn<ConvShape>("shape");
    QTest::newRow("LeNet conv1: 1->6, 5x5, stride 1, pad 2") << convShape(2, 1, 28, 28, 6, 5, 1, 2);
    QTest::newRow("LeNet conv2: 6->16, 5x5, stride 1, pad 0") << convShape(3, 6, 14, 14, 16, 5, 1, 0);
    QTest::newRow("3->4, 3x3, stride 2, pad 1, odd sizes") << convShape(2, 3, 9, 11, 4, 3, 2, 1);
}

void addPoolShapes() {
    QTest::addColumn<PoolShape>("shape");
    QTest::addColumn<bool>("ties");
    QTest::newRow("2x2 stride 2") << poolShape(2, 3, 8, 8, 2, 2) << false;
    QTest::newRow("2x2 stride 2, odd sizes leave an edge") << poolShape(2, 4, 7, 9, 2, 2) << false;
    QTest::newRow("3x3 stride 2, overlapping") << poolShape(2, 2, 9, 9, 3, 2) << false;
    // Values from {0, 1, 2}: most windows hold several maxima, as after a ReLU; backend.h says the
    // gradient goes to the first one.
    QTest::newRow("2x2 stride 2, ties") << poolShape(2, 3, 8, 8, 2, 2) << true;
    QTest::newRow("3x3 stride 2, overlapping, ties") << poolShape(2, 2, 9, 9, 3, 2) << true;
}

std::vector<float> poolInput(const PoolShape& shape, bool ties, uint64_t seed) {
    if (!ties) return randomValues(inputCount(shape), seed);
    Rng rng(seed);
    std::vector<float> values(inputCount(shape));
    for (float& v : values) v = static_cast<float>(rng.below(3));
    return values;
}

}  // namespace

class TestBackendConsistency : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void supportsOp();
    void copyRoundTrip();
    void fill();
    void gemm_data();
    void gemm();
    void addBias();
    void biasGradient();
    void relu();
    void reluBackward();
    void conv2dForward_data() { addConvShapes(); }
    void conv2dForward();
    void conv2dBackwardData_data() { addConvShapes(); }
    void conv2dBackwardData();
    void conv2dBackwardFilter_data() { addConvShapes(); }
    void conv2dBackwardFilter();
    void maxPool2dForward_data() { addPoolShapes(); }
    void maxPool2dForward();
    void maxPool2dBackward_data() { addPoolShapes(); }
    void maxPool2dBackward();
    void softmaxCrossEntropy_data();
    void softmaxCrossEntropy();
    void sgdMomentumStep();

private:
    BufferPair upload(const std::vector<float>& host) {
        BufferPair pair{DeviceBuffer<float>(*m_cpu, host.size()), DeviceBuffer<float>(*m_gpu, host.size())};
        pair.cpu.upload(host);
        pair.gpu.upload(host);
        return pair;
    }
    BufferPair sentinel(size_t count) { return upload(std::vector<float>(count, kSentinel)); }

    std::unique_ptr<Backend> m_cpu;
    std::unique_ptr<Backend> m_gpu;
};

void TestBackendConsistency::initTestCase() {
    std::string whyNot;
    m_gpu = syncscope::engine::createCudaBackend(&whyNot);
    if (!m_gpu) QSKIP(qPrintable(QString::fromStdString("CUDA backend unavailable: " + whyNot)));
    auto cpu = syncscope::engine::createBackend(BackendKind::Cpu, 1);
    QVERIFY2(cpu.isOk(), cpu.status().message().c_str());
    m_cpu = std::move(cpu).value();
    qInfo("CPU backend:  %s", m_cpu->describe().c_str());
    qInfo("CUDA backend: %s", m_gpu->describe().c_str());
}

void TestBackendConsistency::cleanupTestCase() {
    m_gpu.reset();
    m_cpu.reset();
}

void TestBackendConsistency::supportsOp() {
    for (const char* op : {"gemm", "add_bias", "bias_gradient", "relu", "conv2d", "maxpool2d", "softmax_cross_entropy",
                           "sgd_momentum", "no_such_op"}) {
        QVERIFY2(m_gpu->supportsOp(op) == m_cpu->supportsOp(op),
                 qPrintable(QString("supportsOp(\"%1\"): CPU and CUDA answer differently").arg(op)));
    }
}

void TestBackendConsistency::copyRoundTrip() {
    const std::vector<float> host = randomValues(1000, 1);
    std::vector<float> expectedShifted(host.size(), 0.0f);
    std::copy(host.begin() + 20, host.begin() + 520, expectedShifted.begin() + 10);
    for (Backend* backend : {m_cpu.get(), m_gpu.get()}) {
        DeviceBuffer<float> source(*backend, host.size()), target(*backend, host.size());
        source.upload(host);
        backend->fill(target.data(), 0.0f, target.size());
        backend->copyOnDevice(target.data() + 10, source.data() + 20, 500 * sizeof(float));
        QVERIFY2(source.download() == host, qPrintable(QString::fromStdString(backend->name() + ": upload/download")));
        QVERIFY2(target.download() == expectedShifted,
                 qPrintable(QString::fromStdString(backend->name() + ": copyOnDevice of a sub-range")));
    }
}

void TestBackendConsistency::fill() {
    BufferPair values = sentinel(4099);
    m_cpu->fill(values.cpu.data(), -2.5f, values.cpu.size());
    m_gpu->fill(values.gpu.data(), -2.5f, values.gpu.size());
    const Verdict verdict = agree("fill", values);
    QVERIFY2(verdict.ok, verdict.message.constData());
    QVERIFY2(values.gpu.download() == std::vector<float>(4099, -2.5f), "fill: CUDA result is not exactly -2.5");
}

void TestBackendConsistency::gemm_data() {
    QTest::addColumn<bool>("transA");
    QTest::addColumn<bool>("transB");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("k");
    QTest::addColumn<float>("alpha");
    QTest::addColumn<float>("beta");
    QTest::newRow("A B") << false << false << 37 << 29 << 53 << 0.75f << -0.5f;
    QTest::newRow("A B^T") << false << true << 37 << 29 << 53 << 1.25f << 0.5f;
    QTest::newRow("A^T B") << true << false << 37 << 29 << 53 << -0.5f << 2.0f;
    QTest::newRow("A^T B^T") << true << true << 37 << 29 << 53 << 0.3f << -1.5f;
    QTest::newRow("dense forward 64x784 * 784x256^T") << false << true << 64 << 256 << 784 << 1.0f << 0.0f;
    QTest::newRow("dense weight grad dY^T X") << true << false << 256 << 784 << 64 << 1.0f << 0.0f;
}

void TestBackendConsistency::gemm() {
    QFETCH(bool, transA);
    QFETCH(bool, transB);
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, k);
    QFETCH(float, alpha);
    QFETCH(float, beta);
    const BufferPair a = upload(randomValues(static_cast<size_t>(m) * k, 11));
    const BufferPair b = upload(randomValues(static_cast<size_t>(k) * n, 12));
    BufferPair c = upload(randomValues(static_cast<size_t>(m) * n, 13));
    m_cpu->gemm(transA, transB, m, n, k, alpha, a.cpu.data(), b.cpu.data(), beta, c.cpu.data());
    m_gpu->gemm(transA, transB, m, n, k, alpha, a.gpu.data(), b.gpu.data(), beta, c.gpu.data());
    const Verdict verdict = agree("gemm", c);
    QVERIFY2(verdict.ok, verdict.message.constData());
}

void TestBackendConsistency::addBias() {
    const int rows = 64, cols = 37;
    BufferPair y = upload(randomValues(static_cast<size_t>(rows) * cols, 21));
    const BufferPair bias = upload(randomValues(cols, 22));
    m_cpu->addBias(y.cpu.data(), bias.cpu.data(), rows, cols);
    m_gpu->addBias(y.gpu.data(), bias.gpu.data(), rows, cols);
    const Verdict verdict = agree("addBias", y);
    QVERIFY2(verdict.ok, verdict.message.constData());
}

void TestBackendConsistency::biasGradient() {
    const int rows = 64, cols = 300;
    const BufferPair dy = upload(randomValues(static_cast<size_t>(rows) * cols, 31));
    BufferPair grad = sentinel(cols);
    m_cpu->biasGradient(dy.cpu.data(), grad.cpu.data(), rows, cols);
    m_gpu->biasGradient(dy.gpu.data(), grad.gpu.data(), rows, cols);
    const Verdict verdict = agree("biasGradient", grad);
    QVERIFY2(verdict.ok, verdict.message.constData());

    const std::vector<float> first = grad.gpu.download();
    m_gpu->biasGradient(dy.gpu.data(), grad.gpu.data(), rows, cols);
    const Verdict repeat = identical("biasGradient", first, grad.gpu.download());
    QVERIFY2(repeat.ok, repeat.message.constData());
}

void TestBackendConsistency::relu() {
    std::vector<float> input = randomValues(10007, 41);
    for (size_t i = 0; i < input.size(); i += 5) input[i] = 0.0f;  // the boundary itself
    const BufferPair x = upload(input);
    BufferPair y = sentinel(input.size());
    m_cpu->relu(x.cpu.data(), y.cpu.data(), input.size());
    m_gpu->relu(x.gpu.data(), y.gpu.data(), input.size());
    const Verdict verdict = agree("relu", y);
    QVERIFY2(verdict.ok, verdict.message.constData());
}

void TestBackendConsistency::reluBackward() {
    std::vector<float> output = randomValues(10007, 51);
    for (float& v : output) v = std::max(v, 0.0f);  // a ReLU output: about half exact zeros
    const BufferPair y = upload(output);
    const BufferPair dy = upload(randomValues(output.size(), 52));
    BufferPair dx = sentinel(output.size());
    m_cpu->reluBackward(y.cpu.data(), dy.cpu.data(), dx.cpu.data(), output.size());
    m_gpu->reluBackward(y.gpu.data(), dy.gpu.data(), dx.gpu.data(), output.size());
    const Verdict verdict = agree("reluBackward", dx);
    QVERIFY2(verdict.ok, verdict.message.constData());
}

void TestBackendConsistency::conv2dForward() {
    QFETCH(ConvShape, shape);
    const BufferPair x = upload(randomValues(inputCount(shape), 61));
    const BufferPair w = upload(randomValues(weightCount(shape), 62, -0.3f, 0.3f));
    const BufferPair bias = upload(randomValues(shape.outChannels, 63));
    BufferPair y = sentinel(outputCount(shape));
    m_cpu->conv2dForward(shape, x.cpu.data(), w.cpu.data(), bias.cpu.data(), y.cpu.data());
    m_gpu->conv2dForward(shape, x.gpu.data(), w.gpu.data(), bias.gpu.data(), y.gpu.data());
    const Verdict verdict = agree("conv2dForward", y);
    QVERIFY2(verdict.ok, verdict.message.constData());
}

void TestBackendConsistency::conv2dBackwardData() {
    QFETCH(ConvShape, shape);
    const BufferPair w = upload(randomValues(weightCount(shape), 71, -0.3f, 0.3f));
    const BufferPair dy = upload(randomValues(outputCount(shape), 72));
    BufferPair dx = sentinel(inputCount(shape));
    m_cpu->conv2dBackwardData(shape, w.cpu.data(), dy.cpu.data(), dx.cpu.data());
    m_gpu->conv2dBackwardData(shape, w.gpu.data(), dy.gpu.data(), dx.gpu.data());
    const Verdict verdict = agree("conv2dBackwardData", dx);
    QVERIFY2(verdict.ok, verdict.message.constData());

    const std::vector<float> first = dx.gpu.download();
    m_gpu->conv2dBackwardData(shape, w.gpu.data(), dy.gpu.data(), dx.gpu.data());
    const Verdict repeat = identical("conv2dBackwardData", first, dx.gpu.download());
    QVERIFY2(repeat.ok, repeat.message.constData());
}

void TestBackendConsistency::conv2dBackwardFilter() {
    QFETCH(ConvShape, shape);
    const BufferPair x = upload(randomValues(inputCount(shape), 81));
    const BufferPair dy = upload(randomValues(outputCount(shape), 82));
    BufferPair dw = sentinel(weightCount(shape));  // the sentinel also catches accumulating into dw
    BufferPair dbias = sentinel(shape.outChannels);
    m_cpu->conv2dBackwardFilter(shape, x.cpu.data(), dy.cpu.data(), dw.cpu.data(), dbias.cpu.data());
    m_gpu->conv2dBackwardFilter(shape, x.gpu.data(), dy.gpu.data(), dw.gpu.data(), dbias.gpu.data());
    const Verdict weights = agree("conv2dBackwardFilter (dw)", dw);
    QVERIFY2(weights.ok, weights.message.constData());
    const Verdict bias = agree("conv2dBackwardFilter (dbias)", dbias);
    QVERIFY2(bias.ok, bias.message.constData());

    const std::vector<float> firstDw = dw.gpu.download(), firstDbias = dbias.gpu.download();
    m_gpu->conv2dBackwardFilter(shape, x.gpu.data(), dy.gpu.data(), dw.gpu.data(), dbias.gpu.data());
    const Verdict repeatDw = identical("conv2dBackwardFilter (dw)", firstDw, dw.gpu.download());
    QVERIFY2(repeatDw.ok, repeatDw.message.constData());
    const Verdict repeatDbias = identical("conv2dBackwardFilter (dbias)", firstDbias, dbias.gpu.download());
    QVERIFY2(repeatDbias.ok, repeatDbias.message.constData());
}

void TestBackendConsistency::maxPool2dForward() {
    QFETCH(PoolShape, shape);
    QFETCH(bool, ties);
    const BufferPair x = upload(poolInput(shape, ties, 91));
    BufferPair y = sentinel(outputCount(shape));
    m_cpu->maxPool2dForward(shape, x.cpu.data(), y.cpu.data());
    m_gpu->maxPool2dForward(shape, x.gpu.data(), y.gpu.data());
    const Verdict verdict = agree("maxPool2dForward", y);
    QVERIFY2(verdict.ok, verdict.message.constData());
}

void TestBackendConsistency::maxPool2dBackward() {
    QFETCH(PoolShape, shape);
    QFETCH(bool, ties);
    const BufferPair x = upload(poolInput(shape, ties, 101));
    BufferPair y = sentinel(outputCount(shape));
    m_cpu->maxPool2dForward(shape, x.cpu.data(), y.cpu.data());
    m_gpu->maxPool2dForward(shape, x.gpu.data(), y.gpu.data());
    const BufferPair dy = upload(randomValues(outputCount(shape), 102));
    BufferPair dx = sentinel(inputCount(shape));
    m_cpu->maxPool2dBackward(shape, x.cpu.data(), y.cpu.data(), dy.cpu.data(), dx.cpu.data());
    m_gpu->maxPool2dBackward(shape, x.gpu.data(), y.gpu.data(), dy.gpu.data(), dx.gpu.data());
    const Verdict verdict = agree(ties ? "maxPool2dBackward (ties: first maximum)" : "maxPool2dBackward", dx);
    QVERIFY2(verdict.ok, verdict.message.constData());
}

void TestBackendConsistency::softmaxCrossEntropy_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("classes");
    QTest::addColumn<float>("range");
    QTest::newRow("33 x 10") << 33 << 10 << 5.0f;
    QTest::newRow("5 x 37, more classes than a warp") << 5 << 37 << 5.0f;
    QTest::newRow("64 x 10, logits up to 80 (stability)") << 64 << 10 << 80.0f;
}

void TestBackendConsistency::softmaxCrossEntropy() {
    QFETCH(int, rows);
    QFETCH(int, classes);
    QFETCH(float, range);
    const BufferPair logits = upload(randomValues(static_cast<size_t>(rows) * classes, 111, -range, range));
    Rng rng(112);
    std::vector<int32_t> hostLabels(rows);
    for (int32_t& label : hostLabels) label = static_cast<int32_t>(rng.below(classes));
    DeviceBuffer<int32_t> cpuLabels(*m_cpu, hostLabels.size()), gpuLabels(*m_gpu, hostLabels.size());
    cpuLabels.upload(hostLabels);
    gpuLabels.upload(hostLabels);
    BufferPair rowLoss = sentinel(rows);
    BufferPair dlogits = sentinel(static_cast<size_t>(rows) * classes);
    m_cpu->softmaxCrossEntropy(logits.cpu.data(), cpuLabels.data(), rows, classes, rowLoss.cpu.data(),
                               dlogits.cpu.data());
    m_gpu->softmaxCrossEntropy(logits.gpu.data(), gpuLabels.data(), rows, classes, rowLoss.gpu.data(),
                               dlogits.gpu.data());
    const Verdict loss = agree("softmaxCrossEntropy (rowLoss)", rowLoss);
    QVERIFY2(loss.ok, loss.message.constData());
    const Verdict gradient = agree("softmaxCrossEntropy (dlogits)", dlogits);
    QVERIFY2(gradient.ok, gradient.message.constData());
}

void TestBackendConsistency::sgdMomentumStep() {
    const size_t count = 1000;
    BufferPair params = upload(randomValues(count, 121));
    BufferPair velocity = upload(randomValues(count, 122, -0.1f, 0.1f));
    for (uint64_t step = 0; step < 3; ++step) {  // several steps, so velocity carries over
        const BufferPair grads = upload(randomValues(count, 130 + step));
        m_cpu->sgdMomentumStep(params.cpu.data(), grads.cpu.data(), velocity.cpu.data(), count, 0.05f, 0.9f, 5e-4f);
        m_gpu->sgdMomentumStep(params.gpu.data(), grads.gpu.data(), velocity.gpu.data(), count, 0.05f, 0.9f, 5e-4f);
    }
    const Verdict p = agree("sgdMomentumStep (params)", params);
    QVERIFY2(p.ok, p.message.constData());
    const Verdict v = agree("sgdMomentumStep (velocity)", velocity);
    QVERIFY2(v.ok, v.message.constData());
}

QTEST_APPLESS_MAIN(TestBackendConsistency)
#include "test_backend_consistency.moc"
