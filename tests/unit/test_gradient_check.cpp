// Finite-difference gradient checks on the CPU backend: every layer's parameter and input
// gradients, the softmax cross-entropy, and both whole models, against central differences.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <memory>
#include <vector>

#include "engine/backend/device_buffer.h"
#include "engine/model/conv2d_layer.h"
#include "engine/model/dense_layer.h"
#include "engine/model/max_pool_layer.h"
#include "engine/model/model_zoo.h"
#include "engine/model/relu_layer.h"

using namespace syncscope::engine;

namespace {

constexpr float kStep = 1e-2f;

// Relative error with a floor, so near-zero gradients are compared absolutely.
double relativeError(double analytic, double numeric) {
    return std::fabs(analytic - numeric) / std::max(1e-2, std::fabs(analytic) + std::fabs(numeric));
}

// Central difference of f with respect to v[i]; f evaluates in double from float data.
double numericGradient(std::vector<float>& v, size_t i, const std::function<double()>& f, float step = kStep) {
    const float saved = v[i];
    v[i] = saved + step;
    const double up = f();
    v[i] = saved - step;
    const double down = f();
    v[i] = saved;
    return (up - down) / (double(saved + step) - double(saved - step));  // the step float actually took
}

// Checks a layer under the loss L = sum(y * r) for fixed random r, so dL/dy = r.
struct LayerCheck {
    Backend& backend;
    Layer& layer;
    int batch;
    std::vector<float> x, params, weights;  // weights = r

    double loss() {
        DeviceBuffer<float> dx(backend, x.size()), dp(backend, std::max<size_t>(1, params.size()));
        DeviceBuffer<float> dy(backend, weights.size()), dgrad(backend, std::max<size_t>(1, params.size()));
        dx.upload(x);
        if (!params.empty()) dp.upload(params);
        layer.bind(dp.data(), dgrad.data());
        layer.forward(backend, dx.data(), dy.data(), batch);
        const std::vector<float> y = dy.download();
        double sum = 0.0;
        for (size_t i = 0; i < y.size(); ++i) sum += double(y[i]) * weights[i];
        return sum;
    }

    // Returns the worst relative error over all input and parameter entries.
    double worstError() {
        DeviceBuffer<float> dx(backend, x.size()), dp(backend, std::max<size_t>(1, params.size()));
        DeviceBuffer<float> dy(backend, weights.size()), dgrad(backend, std::max<size_t>(1, params.size()));
        DeviceBuffer<float> dr(backend, weights.size()), dxGrad(backend, x.size());
        dx.upload(x);
        if (!params.empty()) dp.upload(params);
        dr.upload(weights);
        layer.bind(dp.data(), dgrad.data());
        layer.forward(backend, dx.data(), dy.data(), batch);
        layer.backward(backend, dx.data(), dy.data(), dr.data(), dxGrad.data(), batch);
        const std::vector<float> inputGrad = dxGrad.download();
        const std::vector<float> paramGrad = dgrad.download();

        double worst = 0.0;
        for (size_t i = 0; i < x.size(); ++i)
            worst = std::max(worst, relativeError(inputGrad[i], numericGradient(x, i, [&] { return loss(); })));
        for (size_t i = 0; i < params.size(); ++i)
            worst = std::max(worst, relativeError(paramGrad[i], numericGradient(params, i, [&] { return loss(); })));
        return worst;
    }
};

std::vector<float> randomVector(Rng& rng, size_t n, float lo, float hi) {
    std::vector<float> v(n);
    for (float& f : v) f = rng.uniform(lo, hi);
    return v;
}

// Values spaced at least 4 steps apart in random order, so no max-pool or ReLU kink sits
// within a finite-difference step.
std::vector<float> spacedVector(Rng& rng, size_t n, bool allowNearZero) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = (static_cast<float>(i) - n / 2.0f) * 4.5f * kStep;
    rng.shuffle(v);
    if (!allowNearZero)
        for (float& f : v)
            if (std::fabs(f) < 3 * kStep) f = 3.5f * kStep;
    return v;
}

}  // namespace

class TestGradientCheck : public ::testing::Test {
protected:
    void SetUp() override { m_backend = std::move(createBackend(BackendKind::Cpu, 1).value()); }

    void check(Layer& layer, Rng& rng, int batch) {
        LayerCheck c{*m_backend, layer, batch, randomVector(rng, batch * layer.inputShape().size(), -1, 1), {}, {}};
        c.params = randomVector(rng, layer.parameterCount(), -0.5, 0.5);
        c.weights = randomVector(rng, batch * layer.outputShape().size(), -1, 1);
        const double worst = c.worstError();
        ASSERT_LT(worst, 1e-2) << layer.name() << ": worst relative error " << worst;
    }

    void conv2d(int padding, int stride) {
        SetUp();  // each row on a backend of its own, as each Qt Test data row was
        Rng rng(2);
        Conv2dLayer layer({2, 7, 6}, 3, 3, padding, stride);
        check(layer, rng, 2);
    }

    // Whole models through Model::computeGradients: a sample of parameters from every layer.
    void wholeModel(const std::string& name) {
        SetUp();  // each row on a backend of its own, as each Qt Test data row was
        const int batch = 2;
        auto model = std::move(createModel(*m_backend, name, batch, 7).value());
        Rng rng(8);
        DeviceBuffer<float> x(*m_backend, 784 * batch);
        DeviceBuffer<int32_t> y(*m_backend, batch);
        x.upload(randomVector(rng, 784 * batch, -1, 1));
        y.upload(std::vector<int32_t>{3, 8});
        model->computeGradients(x.data(), y.data(), batch);
        std::vector<float> analytic(model->parameterCount());
        m_backend->copyToHost(analytic.data(), model->gradients(), sizeof(float) * analytic.size());
        std::vector<float> params = model->downloadParameters();
        auto loss = [&] {
            model->uploadParameters(params);
            return static_cast<double>(model->computeGradients(x.data(), y.data(), batch));
        };
        int checked = 0, bad = 0;
        std::ostringstream report;
        for (size_t i = 0; i < params.size(); i += 997, ++checked) {
            // A small step keeps ReLU kinks out of most differences; float loss noise is ~1e-4 here.
            const double numeric = numericGradient(params, i, loss, 1e-3f);
            if (std::fabs(analytic[i]) < 1e-3 && std::fabs(numeric) < 1e-3) continue;
            if (relativeError(analytic[i], numeric) > 5e-2) {
                ++bad;
                report << " [" << i << ": " << analytic[i] << " vs " << numeric << "]";
            }
        }
        ASSERT_LE(bad, checked / 50) << bad << " of " << checked << " sampled gradients disagree:" << report.str();
    }

    std::unique_ptr<Backend> m_backend;
};

TEST_F(TestGradientCheck, dense) {
    Rng rng(1);
    DenseLayer layer({6, 1, 1}, 4);
    check(layer, rng, 3);
}

TEST_F(TestGradientCheck, conv2d) {
    const struct {
        const char* row;
        int padding, stride;
    } rows[] = {{"pad 2, stride 1", 2, 1}, {"pad 0, stride 1", 0, 1}, {"pad 1, stride 2", 1, 2}};
    for (const auto& r : rows) {
        SCOPED_TRACE(r.row);
        conv2d(r.padding, r.stride);
    }
}

TEST_F(TestGradientCheck, maxPool) {
    Rng rng(3);
    MaxPoolLayer layer({2, 4, 6}, 2);
    LayerCheck c{*m_backend, layer, 2, spacedVector(rng, 2 * 2 * 4 * 6, true), {}, {}};
    c.weights = randomVector(rng, 2 * layer.outputShape().size(), -1, 1);
    const double worst = c.worstError();
    ASSERT_LT(worst, 1e-2) << worst;
}

TEST_F(TestGradientCheck, relu) {
    Rng rng(4);
    ReluLayer layer({5, 2, 2});
    LayerCheck c{*m_backend, layer, 3, spacedVector(rng, 3 * 20, false), {}, randomVector(rng, 60, -1, 1)};
    const double worst = c.worstError();
    ASSERT_LT(worst, 1e-2) << worst;
}

TEST_F(TestGradientCheck, softmaxCrossEntropy) {
    Rng rng(5);
    const int rows = 3, classes = 5;
    std::vector<float> logits = randomVector(rng, rows * classes, -2, 2);
    const std::vector<int32_t> labels{4, 0, 2};
    DeviceBuffer<float> z(*m_backend, logits.size()), loss(*m_backend, rows), dz(*m_backend, logits.size());
    DeviceBuffer<int32_t> y(*m_backend, rows);
    y.upload(labels);
    auto meanLoss = [&] {
        z.upload(logits);
        m_backend->softmaxCrossEntropy(z.data(), y.data(), rows, classes, loss.data(), dz.data());
        double sum = 0.0;
        for (float l : loss.download()) sum += l;
        return sum / rows;
    };
    meanLoss();
    const std::vector<float> analytic = dz.download();
    for (size_t i = 0; i < logits.size(); ++i) {
        const double err = relativeError(analytic[i], numericGradient(logits, i, meanLoss));
        ASSERT_LT(err, 1e-2) << "logit " << i << ": error " << err;
    }
}

TEST_F(TestGradientCheck, wholeModel) {
    for (const char* name : {"mlp", "cnn"}) {
        SCOPED_TRACE(name);
        wholeModel(name);
    }
}
