// The CPU backend's convolutions and pooling give the same numbers whichever activation layouts
// (NCHW or NChw16c) they read and write, and a model keeps NChw16c exactly where the plan says.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/backend/device_buffer.h"
#include "engine/core/rng.h"
#include "engine/model/model_zoo.h"
#include "tests/unit/test_support.h"

using namespace syncscope::engine;
using L = ActivationLayout;

namespace {

std::vector<float> randomVector(Rng& rng, size_t n) {
    std::vector<float> v(n);
    for (float& x : v) x = rng.uniform(-1.0f, 1.0f);
    return v;
}

// Copies an N x C x H x W activation from one layout into another.
std::vector<float> relayout(const std::vector<float>& v, L from, L to, int n, int c, int h, int w) {
    std::vector<float> out(v.size());
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < c; ++j)
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    out[activationOffset(to, i, j, y, x, c, h, w)] = v[activationOffset(from, i, j, y, x, c, h, w)];
    return out;
}

double worstDifference(const std::vector<float>& a, const std::vector<float>& b) {
    double worst = a.size() == b.size() ? 0.0 : INFINITY;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
        worst = std::max(worst, std::fabs(double(a[i]) - b[i]) / (1.0 + std::fabs(double(a[i]))));
    return worst;
}

std::string layoutName(L l) { return l == L::Nchw ? "nchw" : "nChw16c"; }

}  // namespace

class TestCpuLayouts : public ::testing::Test {
protected:
    void SetUp() override { m_backend = std::move(createBackend(BackendKind::Cpu, 1).value()); }

    void convolutionAgreesAcrossLayouts(L src, L dst) {
        SetUp();  // each row on a backend of its own, as each Qt Test data row was
        ConvShape plain{3, 16, 14, 14, 32, 5, 1, 0};
        ConvShape shaped = plain;
        shaped.srcLayout = src;
        shaped.dstLayout = dst;
        const int oh = plain.outHeight(), ow = plain.outWidth();
        Rng rng(3);
        const auto x = randomVector(rng, size_t(3) * 16 * 14 * 14), dy = randomVector(rng, size_t(3) * 32 * oh * ow);
        const auto w = randomVector(rng, size_t(32) * 16 * 25), b = randomVector(rng, 32);
        auto run = [&](const ConvShape& s) {
            DeviceBuffer<float> dx(*m_backend, x.size()), dw(*m_backend, w.size()), db(*m_backend, b.size()),
                dyBuf(*m_backend, dy.size()), y(*m_backend, dy.size()), xBuf(*m_backend, x.size()),
                wBuf(*m_backend, w.size()), bBuf(*m_backend, b.size());
            xBuf.upload(relayout(x, L::Nchw, s.srcLayout, 3, 16, 14, 14));
            dyBuf.upload(relayout(dy, L::Nchw, s.dstLayout, 3, 32, oh, ow));
            wBuf.upload(w);
            bBuf.upload(b);
            m_backend->conv2dForward(s, xBuf.data(), wBuf.data(), bBuf.data(), y.data());
            m_backend->conv2dBackwardData(s, wBuf.data(), dyBuf.data(), dx.data());
            m_backend->conv2dBackwardFilter(s, xBuf.data(), dyBuf.data(), dw.data(), db.data());
            return std::vector<std::vector<float>>{relayout(y.download(), s.dstLayout, L::Nchw, 3, 32, oh, ow),
                                                   relayout(dx.download(), s.srcLayout, L::Nchw, 3, 16, 14, 14),
                                                   dw.download(), db.download()};
        };
        const auto expected = run(plain), got = run(shaped);
        const char* names[] = {"y", "dx", "dw", "dbias"};
        for (int i = 0; i < 4; ++i)
            ASSERT_LT(worstDifference(expected[i], got[i]), 1e-5)
                << names[i] << " differs by " << worstDifference(expected[i], got[i]);
    }

    void poolingAgreesAcrossLayouts(L in, L out, int window) {
        SetUp();  // each row on a backend of its own, as each Qt Test data row was
        PoolShape plain{2, 32, 10, 10, window, 2};
        PoolShape shaped = plain;
        shaped.inLayout = in;
        shaped.outLayout = out;
        const int oh = plain.outHeight(), ow = plain.outWidth();
        Rng rng(5);
        auto x = randomVector(rng, size_t(2) * 32 * 10 * 10);
        for (size_t i = 0; i < x.size(); i += 7) x[i] = 0.5f;  // ties: the first in scan order takes dy
        const auto dy = randomVector(rng, size_t(2) * 32 * oh * ow);
        auto run = [&](const PoolShape& s) {
            DeviceBuffer<float> xBuf(*m_backend, x.size()), y(*m_backend, dy.size()), dyBuf(*m_backend, dy.size()),
                dx(*m_backend, x.size());
            xBuf.upload(relayout(x, L::Nchw, s.inLayout, 2, 32, 10, 10));
            dyBuf.upload(relayout(dy, L::Nchw, s.outLayout, 2, 32, oh, ow));
            m_backend->fill(dx.data(), 42.0f, x.size());  // every element must be written
            m_backend->maxPool2dForward(s, xBuf.data(), y.data());
            m_backend->maxPool2dBackward(s, xBuf.data(), y.data(), dyBuf.data(), dx.data());
            return std::make_pair(relayout(y.download(), s.outLayout, L::Nchw, 2, 32, oh, ow),
                                  relayout(dx.download(), s.inLayout, L::Nchw, 2, 32, 10, 10));
        };
        const auto expected = run(plain), got = run(shaped);
        ASSERT_FUZZY_EQ(worstDifference(expected.first, got.first), 0.0);
        ASSERT_FUZZY_EQ(worstDifference(expected.second, got.second), 0.0);
        // And the plain result is max pooling: each output is its window's maximum.
        for (int oy = 0; oy < oh; ++oy)
            for (int ox = 0; ox < ow; ++ox) {
                float best = -INFINITY;
                for (int wy = 0; wy < window; ++wy)
                    for (int wx = 0; wx < window; ++wx) best = std::max(best, x[(oy * 2 + wy) * 10 + ox * 2 + wx]);
                ASSERT_FUZZY_EQ(expected.first[oy * ow + ox], best);
            }
    }

    std::unique_ptr<Backend> m_backend;
};

TEST_F(TestCpuLayouts, preferredLayoutNeedsWholeBlocks) {
    ASSERT_EQ(m_backend->preferredLayout(16), L::NChw16c);
    ASSERT_EQ(m_backend->preferredLayout(32), L::NChw16c);
    ASSERT_EQ(m_backend->preferredLayout(1), L::Nchw);
    ASSERT_EQ(m_backend->preferredLayout(24), L::Nchw);
}

// conv 5x5 16 -> 32 on 14x14 (the cnn's second convolution), every layout pair.
TEST_F(TestCpuLayouts, convolutionAgreesAcrossLayouts) {
    for (L s : {L::Nchw, L::NChw16c})
        for (L d : {L::Nchw, L::NChw16c})
            if (s != L::Nchw || d != L::Nchw) {
                SCOPED_TRACE(layoutName(s) + " -> " + layoutName(d));
                convolutionAgreesAcrossLayouts(s, d);
            }
}

// 2x2 pools that tile (the vectorised path when the input is blocked) and overlapping 3x3
// windows of stride 2 (the general loop), every layout pair, with ties so the first maximum matters.
TEST_F(TestCpuLayouts, poolingAgreesAcrossLayouts) {
    for (int window : {2, 3})
        for (L i : {L::Nchw, L::NChw16c})
            for (L o : {L::Nchw, L::NChw16c}) {
                SCOPED_TRACE(std::to_string(window) + "x" + std::to_string(window) + " " + layoutName(i) + " -> " +
                             layoutName(o));
                poolingAgreesAcrossLayouts(i, o, window);
            }
}

// The cnn keeps NChw16c from its first convolution to its last pool, which writes the plain
// rows its dense layer reads; the mlp stays plain.
TEST_F(TestCpuLayouts, modelsPlanTheirLayouts) {
    auto cnn = std::move(createModel(*m_backend, "cnn", 4, 1).value());
    std::string plan;
    for (const auto& layer : cnn->layers()) {
        if (!plan.empty()) plan += ' ';
        plan += layer->name();
        plan += ':';
        plan += layoutName(layer->inputLayout());
        plan += '>';
        plan += layoutName(layer->outputLayout());
    }
    ASSERT_EQ(plan, std::string("conv2d:nchw>nChw16c relu:nChw16c>nChw16c maxpool2d:nChw16c>nChw16c "
                                "conv2d:nChw16c>nChw16c relu:nChw16c>nChw16c maxpool2d:nChw16c>nchw "
                                "dense:nchw>nchw relu:nchw>nchw dense:nchw>nchw"));
    auto mlp = std::move(createModel(*m_backend, "mlp", 4, 1).value());
    for (const auto& layer : mlp->layers()) ASSERT_EQ(layer->outputLayout(), L::Nchw);
}
