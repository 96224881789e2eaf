// im2col / col2im for NCHW batches (see im2col.h). For each (channel, ky, kx, output row) the
// in-bounds span of output columns is computed once, so the inner loop is a branch-free copy
// (a memcpy at stride 1) with zeroed borders.
#include "engine/backend/cpu/im2col.h"

#include <algorithm>
#include <cstring>

namespace syncscope::engine {
namespace {

// Output columns xo in [lo, hi) read input column xo*stride - padding + kx inside [0, width).
struct Span {
    int lo, hi;
};

Span validColumns(const ConvShape& s, int kx) {
    const int ow = s.outWidth();
    const int shift = s.padding - kx;  // xo*stride >= shift  and  xo*stride < width + shift
    int lo = shift > 0 ? (shift + s.stride - 1) / s.stride : 0;
    int hi = (s.width + shift + s.stride - 1) / s.stride;
    lo = std::clamp(lo, 0, ow);
    hi = std::clamp(hi, lo, ow);
    return {lo, hi};
}

// Calls fn(columnRowPointerOffset, inputRowOffset, span, kx) for every in-bounds input row of one
// image; rows that fall in the vertical padding are passed with inputRowOffset = -1.
template <typename Fn>
void forEachRow(const ConvShape& s, size_t rowLength, Fn&& fn) {
    const int oh = s.outHeight(), ow = s.outWidth();
    for (int c = 0; c < s.inChannels; ++c)
        for (int ky = 0; ky < s.kernel; ++ky)
            for (int kx = 0; kx < s.kernel; ++kx) {
                const size_t row = (static_cast<size_t>(c) * s.kernel + ky) * s.kernel + kx;
                const Span span = validColumns(s, kx);
                for (int y = 0; y < oh; ++y) {
                    const int iy = y * s.stride - s.padding + ky;
                    const long in = (iy < 0 || iy >= s.height) ? -1 : (static_cast<long>(c) * s.height + iy) * s.width;
                    fn(row * rowLength + static_cast<size_t>(y) * ow, in, span, kx - s.padding);
                }
            }
}

}  // namespace

void im2colBatch(const ConvShape& s, const float* x, float* columns) {
    const int ow = s.outWidth(), plane = s.outHeight() * ow;
    const size_t rowLength = static_cast<size_t>(s.batch) * plane;
    const size_t imageSize = static_cast<size_t>(s.inChannels) * s.height * s.width;
#pragma omp parallel for schedule(static)
    for (int b = 0; b < s.batch; ++b) {
        const float* image = x + b * imageSize;
        float* base = columns + static_cast<size_t>(b) * plane;
        forEachRow(s, rowLength, [&](size_t outOffset, long inOffset, Span span, int shift) {
            float* out = base + outOffset;
            if (inOffset < 0) {
                std::memset(out, 0, sizeof(float) * ow);
                return;
            }
            const float* in = image + inOffset + shift;  // in[xo*stride] is the input for column xo
            std::fill(out, out + span.lo, 0.0f);
            if (s.stride == 1)
                std::memcpy(out + span.lo, in + span.lo, sizeof(float) * (span.hi - span.lo));
            else
                for (int xo = span.lo; xo < span.hi; ++xo) out[xo] = in[xo * s.stride];
            std::fill(out + span.hi, out + ow, 0.0f);
        });
    }
}

void col2imBatch(const ConvShape& s, const float* columns, float* dx) {
    const int plane = s.outHeight() * s.outWidth();
    const size_t rowLength = static_cast<size_t>(s.batch) * plane;
    const size_t imageSize = static_cast<size_t>(s.inChannels) * s.height * s.width;
#pragma omp parallel for schedule(static)
    for (int b = 0; b < s.batch; ++b) {  // images are disjoint, so threads never share a write
        float* image = dx + b * imageSize;
        const float* base = columns + static_cast<size_t>(b) * plane;
        forEachRow(s, rowLength, [&](size_t inOffset, long outOffset, Span span, int shift) {
            if (outOffset < 0) return;
            const float* in = base + inOffset;
            float* out = image + outOffset + shift;
            for (int xo = span.lo; xo < span.hi; ++xo) out[xo * s.stride] += in[xo];
        });
    }
}

}  // namespace syncscope::engine
