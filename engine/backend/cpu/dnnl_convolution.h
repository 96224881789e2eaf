// DnnlConvolution: the CPU backend's convolutions as oneDNN primitives on memory in the shape's
// activation layouts (NCHW or NChw16c) and OIHW weights, one primitive set per distinct geometry
// and layouts, created on first use and kept.
#pragma once

#include <map>
#include <memory>
#include <tuple>

#include "engine/backend/backend.h"

namespace syncscope::engine {

class DnnlConvolution {
public:
    DnnlConvolution();
    ~DnnlConvolution();

    void forward(const ConvShape& s, const float* x, const float* w, const float* bias, float* y);
    void backwardData(const ConvShape& s, const float* w, const float* dy, float* dx);
    void backwardWeights(const ConvShape& s, const float* x, const float* dy, float* dw, float* dbias);

private:
    struct Primitives;  // oneDNN types stay in the .cpp
    using Key = std::tuple<int, int, int, int, int, int, int, int, int>;  // geometry, then the two layouts
    Primitives& primitives(const ConvShape& s);

    struct Engine;
    std::unique_ptr<Engine> m_engine;
    std::map<Key, std::unique_ptr<Primitives>> m_cache;
};

}  // namespace syncscope::engine
