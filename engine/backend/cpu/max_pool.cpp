// The CPU backend's max pooling. In NChw16c a window's 16 channels are one contiguous vector, so the
// blocked path takes the max (and routes the gradient) 16 lanes at a time; any other combination of
// layouts and geometry goes through the general loop, which indexes each element by its layout.
#include "engine/backend/cpu/max_pool.h"

#include <algorithm>

namespace syncscope::engine {
namespace {

constexpr int kBlock = 16;

bool windowsTile(const PoolShape& s) {
    return s.window == s.stride && s.outHeight() * s.stride == s.height && s.outWidth() * s.stride == s.width;
}

// Blocked input, 2x2 windows that tile it: one 16-lane vector per window element.
bool fastPath(const PoolShape& s) {
    return s.inLayout == ActivationLayout::NChw16c && s.window == 2 && windowsTile(s) && s.channels % kBlock == 0;
}

// Where output (n, c, oy, ox) lives; lanes of one blocked output vector are 1 apart in NChw16c and
// one output plane apart in Nchw.
size_t outOffset(const PoolShape& s, int n, int c, int oy, int ox) {
    return activationOffset(s.outLayout, n, c, oy, ox, s.channels, s.outHeight(), s.outWidth());
}
size_t laneStride(const PoolShape& s) {
    return s.outLayout == ActivationLayout::NChw16c ? 1 : size_t(s.outHeight()) * s.outWidth();
}

// One (image, channel block) plane of 2x2 windows; cloned per ISA (the build targets plain x86-64),
// like the SGD step, so the 16 lanes are one AVX-512 vector where the CPU has it. The output's 16
// lanes are contiguous in NChw16c (stride 1) and one output plane apart in NCHW; either way they are
// gathered into a local vector first, so the window loop itself is branch-free straight-line code.
__attribute__((target_clones("avx512f", "avx2", "default"))) void forwardPlane(const float* x, float* y, int oh,
                                                                                 int ow, size_t row, size_t stride) {
    const size_t step = stride == 1 ? kBlock : 1;
    for (int oy = 0; oy < oh; ++oy)
        for (int ox = 0; ox < ow; ++ox) {
            const float* p = x + 2 * oy * row + size_t(2 * ox) * kBlock;
            float best[kBlock];
#pragma omp simd
            for (int l = 0; l < kBlock; ++l)
                best[l] = std::max(std::max(p[l], p[kBlock + l]), std::max(p[row + l], p[row + kBlock + l]));
            float* out = y + size_t(oy * ow + ox) * step;
            for (int l = 0; l < kBlock; ++l) out[l * stride] = best[l];
        }
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void backwardPlane(const float* x, const float* y,
                                                                                  const float* dy, float* dx, int oh,
                                                                                  int ow, size_t row, size_t stride) {
    const size_t step = stride == 1 ? kBlock : 1;
    for (int oy = 0; oy < oh; ++oy)
        for (int ox = 0; ox < ow; ++ox) {
            const size_t at = 2 * oy * row + size_t(2 * ox) * kBlock;
            const size_t o = size_t(oy * ow + ox) * step;
            float m[kBlock], g[kBlock];
            for (int l = 0; l < kBlock; ++l) {
                m[l] = y[o + l * stride];
                g[l] = dy[o + l * stride];
            }
            const float *p0 = x + at, *p1 = p0 + kBlock, *p2 = p0 + row;  // the 4th is taken if none of these
            float *d0 = dx + at, *d1 = d0 + kBlock, *d2 = d0 + row, *d3 = d2 + kBlock;
#pragma omp simd
            for (int l = 0; l < kBlock; ++l) {
                // The first maximum in scan order (top-left, top-right, bottom-left, bottom-right).
                const bool a = p0[l] == m[l];
                const bool b = !a & (p1[l] == m[l]);
                const bool c = !(a | b) & (p2[l] == m[l]);
                const bool e = !(a | b | c);
                d0[l] = a ? g[l] : 0.0f;
                d1[l] = b ? g[l] : 0.0f;
                d2[l] = c ? g[l] : 0.0f;
                d3[l] = e ? g[l] : 0.0f;
            }
        }
}

void forwardBlocked2x2(const PoolShape& s, const float* x, float* y) {
    const int oh = s.outHeight(), ow = s.outWidth(), blocks = s.channels / kBlock;
    const size_t row = size_t(s.width) * kBlock;
#pragma omp parallel for collapse(2) schedule(static)
    for (int n = 0; n < s.batch; ++n)
        for (int b = 0; b < blocks; ++b)
            forwardPlane(x + activationOffset(s.inLayout, n, b * kBlock, 0, 0, s.channels, s.height, s.width),
                         y + outOffset(s, n, b * kBlock, 0, 0), oh, ow, row, laneStride(s));
}

void backwardBlocked2x2(const PoolShape& s, const float* x, const float* y, const float* dy, float* dx) {
    const int oh = s.outHeight(), ow = s.outWidth(), blocks = s.channels / kBlock;
    const size_t row = size_t(s.width) * kBlock;
#pragma omp parallel for collapse(2) schedule(static)
    for (int n = 0; n < s.batch; ++n)
        for (int b = 0; b < blocks; ++b) {
            const size_t in = activationOffset(s.inLayout, n, b * kBlock, 0, 0, s.channels, s.height, s.width);
            const size_t out = outOffset(s, n, b * kBlock, 0, 0);
            backwardPlane(x + in, y + out, dy + out, dx + in, oh, ow, row, laneStride(s));
        }
}

}  // namespace

void maxPoolForward(const PoolShape& s, const float* x, float* y) {
    if (fastPath(s)) return forwardBlocked2x2(s, x, y);
    const int oh = s.outHeight(), ow = s.outWidth();
#pragma omp parallel for collapse(2) schedule(static)
    for (int n = 0; n < s.batch; ++n)
        for (int c = 0; c < s.channels; ++c)
            for (int oy = 0; oy < oh; ++oy)
                for (int ox = 0; ox < ow; ++ox) {
                    float best = x[activationOffset(s.inLayout, n, c, oy * s.stride, ox * s.stride, s.channels,
                                                    s.height, s.width)];
                    for (int wy = 0; wy < s.window; ++wy)
                        for (int wx = 0; wx < s.window; ++wx)
                            best = std::max(best, x[activationOffset(s.inLayout, n, c, oy * s.stride + wy,
                                                                     ox * s.stride + wx, s.channels, s.height,
                                                                     s.width)]);
                    y[outOffset(s, n, c, oy, ox)] = best;
                }
}

void maxPoolBackward(const PoolShape& s, const float* x, const float* y, const float* dy, float* dx) {
    if (fastPath(s)) return backwardBlocked2x2(s, x, y, dy, dx);
    const int oh = s.outHeight(), ow = s.outWidth();
    std::fill(dx, dx + size_t(s.batch) * s.channels * s.height * s.width, 0.0f);
    // Windows may overlap (stride < window), so one (n, c) plane per iteration owns its dx.
#pragma omp parallel for collapse(2) schedule(static)
    for (int n = 0; n < s.batch; ++n)
        for (int c = 0; c < s.channels; ++c)
            for (int oy = 0; oy < oh; ++oy)
                for (int ox = 0; ox < ow; ++ox) {
                    const size_t o = outOffset(s, n, c, oy, ox);
                    for (int i = 0; i < s.window * s.window; ++i) {
                        const size_t at = activationOffset(s.inLayout, n, c, oy * s.stride + i / s.window,
                                                           ox * s.stride + i % s.window, s.channels, s.height,
                                                           s.width);
                        if (x[at] != y[o]) continue;
                        dx[at] += dy[o];
                        break;
                    }
                }
}

}  // namespace syncscope::engine
