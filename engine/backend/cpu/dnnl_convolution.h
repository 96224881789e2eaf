// DnnlConvolution: the CPU backend's convolutions as oneDNN primitives on plain NCHW/OIHW memory,
// one primitive set per distinct geometry, created on first use and kept.
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
    using Key = std::tuple<int, int, int, int, int, int, int, int>;
    Primitives& primitives(const ConvShape& s);

    struct Engine;
    std::unique_ptr<Engine> m_engine;
    std::map<Key, std::unique_ptr<Primitives>> m_cache;
};

}  // namespace syncscope::engine
