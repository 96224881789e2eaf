// DnnlConvolution: oneDNN 2.x convolution forward / backward-data / backward-weights primitives.
// oneDNN picks each tensor's layout (`any`), so it can use its direct AVX-512 kernels on blocked
// layouts; Operand reorders between the layouts the backend's buffers hold (the shape's activation
// layouts, OIHW weights) and those, where they differ. With NChw16c activations they rarely do.
#include "engine/backend/cpu/dnnl_convolution.h"

#include <dnnl.hpp>

namespace syncscope::engine {

using dnnl::memory;
using Tag = memory::format_tag;
using Dt = memory::data_type;

struct DnnlConvolution::Engine {
    dnnl::engine engine{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{engine};
};

namespace {

// One argument of one primitive: the plain layout the backend stores, the layout the primitive
// chose, and (when they differ) a staging buffer and the reorder between them.
struct Operand {
    memory::desc plain;
    memory staging;
    dnnl::reorder toChosen, toPlain;

    void init(const memory::desc& plainDesc, const memory::desc& chosen, const dnnl::engine& eng) {
        plain = plainDesc;
        if (chosen == plainDesc) return;
        staging = memory(chosen, eng);
        memory plainProbe(plainDesc, eng, DNNL_MEMORY_NONE);
        toChosen = dnnl::reorder(plainProbe, staging);
        toPlain = dnnl::reorder(staging, plainProbe);
    }
    // Memory to pass as an input: the plain data, reordered into staging where needed.
    memory input(const float* data, const dnnl::engine& eng, dnnl::stream& stream) {
        memory user(plain, eng, const_cast<float*>(data));  // oneDNN takes non-const handles
        if (!staging) return user;
        toChosen.execute(stream, user, staging);
        return staging;
    }
    // Memory to pass as an output; finish() copies staged results back to the plain buffer.
    memory output(float* data, const dnnl::engine& eng) { return staging ? staging : memory(plain, eng, data); }
    void finish(float* data, const dnnl::engine& eng, dnnl::stream& stream) {
        if (!staging) return;
        memory user(plain, eng, data);
        toPlain.execute(stream, staging, user);
    }
};

}  // namespace

struct DnnlConvolution::Primitives {
    dnnl::convolution_forward forward;
    dnnl::convolution_backward_data backwardData;
    dnnl::convolution_backward_weights backwardWeights;
    Operand fwdSrc, fwdWeights, fwdDst, bdDiffDst, bdWeights, bdDiffSrc, bwSrc, bwDiffDst, bwDiffWeights;
    memory::desc bias;
    // Scratchpads owned here: oneDNN's default allocates one per call, and the kernel then zeroes
    // fresh pages every step.
    memory forwardScratch, backwardDataScratch, backwardWeightsScratch;
};

DnnlConvolution::DnnlConvolution() : m_engine(std::make_unique<Engine>()) {}
DnnlConvolution::~DnnlConvolution() = default;

DnnlConvolution::Primitives& DnnlConvolution::primitives(const ConvShape& s) {
    const Key key{s.batch,  s.inChannels, s.height,  s.width,
                  s.outChannels, s.kernel, s.stride, s.padding,
                  static_cast<int>(s.srcLayout) * 2 + static_cast<int>(s.dstLayout)};
    auto& slot = m_cache[key];
    if (slot) return *slot;
    auto p = std::make_unique<Primitives>();
    const memory::dims srcDims{s.batch, s.inChannels, s.height, s.width};
    const memory::dims weightDims{s.outChannels, s.inChannels, s.kernel, s.kernel};
    const memory::dims dstDims{s.batch, s.outChannels, s.outHeight(), s.outWidth()};
    const auto tag = [](ActivationLayout layout) { return layout == ActivationLayout::NChw16c ? Tag::nChw16c : Tag::nchw; };
    const memory::desc src(srcDims, Dt::f32, tag(s.srcLayout)), weights(weightDims, Dt::f32, Tag::oihw),
        dst(dstDims, Dt::f32, tag(s.dstLayout));
    const memory::desc anySrc(srcDims, Dt::f32, Tag::any), anyWeights(weightDims, Dt::f32, Tag::any),
        anyDst(dstDims, Dt::f32, Tag::any);
    p->bias = memory::desc({s.outChannels}, Dt::f32, Tag::x);
    const memory::dims strides{s.stride, s.stride}, padding{s.padding, s.padding};
    const auto algo = dnnl::algorithm::convolution_direct;
    const dnnl::engine& eng = m_engine->engine;
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);

    dnnl::convolution_forward::primitive_desc fwd(
        {dnnl::prop_kind::forward_training, algo, anySrc, anyWeights, p->bias, anyDst, strides, padding, padding}, attr,
        eng);
    dnnl::convolution_backward_data::primitive_desc bwdData({algo, anySrc, anyWeights, anyDst, strides, padding, padding},
                                                            attr, eng, fwd);
    dnnl::convolution_backward_weights::primitive_desc bwdWeights(
        {algo, anySrc, anyWeights, p->bias, anyDst, strides, padding, padding}, attr, eng, fwd);
    p->forward = dnnl::convolution_forward(fwd);
    p->backwardData = dnnl::convolution_backward_data(bwdData);
    p->backwardWeights = dnnl::convolution_backward_weights(bwdWeights);
    p->fwdSrc.init(src, fwd.src_desc(), eng);
    p->fwdWeights.init(weights, fwd.weights_desc(), eng);
    p->fwdDst.init(dst, fwd.dst_desc(), eng);
    p->bdDiffDst.init(dst, bwdData.diff_dst_desc(), eng);
    p->bdWeights.init(weights, bwdData.weights_desc(), eng);
    p->bdDiffSrc.init(src, bwdData.diff_src_desc(), eng);
    p->bwSrc.init(src, bwdWeights.src_desc(), eng);
    p->bwDiffDst.init(dst, bwdWeights.diff_dst_desc(), eng);
    p->bwDiffWeights.init(weights, bwdWeights.diff_weights_desc(), eng);
    p->forwardScratch = memory(fwd.scratchpad_desc(), eng);
    p->backwardDataScratch = memory(bwdData.scratchpad_desc(), eng);
    p->backwardWeightsScratch = memory(bwdWeights.scratchpad_desc(), eng);
    slot = std::move(p);
    return *slot;
}

void DnnlConvolution::forward(const ConvShape& s, const float* x, const float* w, const float* bias, float* y) {
    Primitives& p = primitives(s);
    const auto& eng = m_engine->engine;
    auto& stream = m_engine->stream;
    p.forward.execute(stream, {{DNNL_ARG_SRC, p.fwdSrc.input(x, eng, stream)},
                               {DNNL_ARG_WEIGHTS, p.fwdWeights.input(w, eng, stream)},
                               {DNNL_ARG_BIAS, memory(p.bias, eng, const_cast<float*>(bias))},
                               {DNNL_ARG_DST, p.fwdDst.output(y, eng)},
                               {DNNL_ARG_SCRATCHPAD, p.forwardScratch}});
    p.fwdDst.finish(y, eng, stream);
    stream.wait();
}

void DnnlConvolution::backwardData(const ConvShape& s, const float* w, const float* dy, float* dx) {
    Primitives& p = primitives(s);
    const auto& eng = m_engine->engine;
    auto& stream = m_engine->stream;
    p.backwardData.execute(stream, {{DNNL_ARG_DIFF_DST, p.bdDiffDst.input(dy, eng, stream)},
                                    {DNNL_ARG_WEIGHTS, p.bdWeights.input(w, eng, stream)},
                                    {DNNL_ARG_DIFF_SRC, p.bdDiffSrc.output(dx, eng)},
                                    {DNNL_ARG_SCRATCHPAD, p.backwardDataScratch}});
    p.bdDiffSrc.finish(dx, eng, stream);
    stream.wait();
}

void DnnlConvolution::backwardWeights(const ConvShape& s, const float* x, const float* dy, float* dw, float* dbias) {
    Primitives& p = primitives(s);
    const auto& eng = m_engine->engine;
    auto& stream = m_engine->stream;
    p.backwardWeights.execute(stream, {{DNNL_ARG_SRC, p.bwSrc.input(x, eng, stream)},
                                       {DNNL_ARG_DIFF_DST, p.bwDiffDst.input(dy, eng, stream)},
                                       {DNNL_ARG_DIFF_WEIGHTS, p.bwDiffWeights.output(dw, eng)},
                                       {DNNL_ARG_DIFF_BIAS, memory(p.bias, eng, dbias)},
                                       {DNNL_ARG_SCRATCHPAD, p.backwardWeightsScratch}});
    p.bwDiffWeights.finish(dw, eng, stream);
    stream.wait();
}

}  // namespace syncscope::engine
