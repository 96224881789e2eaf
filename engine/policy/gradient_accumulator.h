// GradientAccumulator: the gradients of one update being added up, scale x gradient each. Where the
// coordinator holds the model it is a dense sum; where parameter shards hold it (a sharded run) it is
// the list of terms that each shard adds up over its own range, the gradients' ranges waiting there.
// The policies build every update through it, so they decide the same way in both. An external
// model's buffers (the values from bufferBegin on, RunSpec.buffer_count) are not scaled: the dense
// sum holds their batch-weighted mean over what was added, the value the update sets them to.
#pragma once

#include <cstddef>
#include <vector>

#include "engine/proto/syncscope.pb.h"
#include "engine/policy/gradient.h"

namespace syncscope::engine {

class GradientAccumulator {
public:
    GradientAccumulator(size_t parameterCount, bool sharded, size_t bufferBegin)
        : m_count(parameterCount), m_bufferBegin(bufferBegin), m_sharded(sharded) {}
    GradientAccumulator(size_t parameterCount, bool sharded) : GradientAccumulator(parameterCount, sharded, parameterCount) {}

    /// Adds scale x the gradient.
    void add(const GradientIn& gradient, float scale);
    /// Adds an aggregator's sum as it is (already batch x gradient); dense only (in a sharded run
    /// aggregators only relay, and the data plane refuses sums).
    void add(const GradientSum& sum);
    /// Multiplies the gradients added so far (a weighted sum becomes an average); not the buffers.
    void scale(float factor);
    void clear();
    bool empty() const { return m_sharded ? m_terms.empty() : m_sum.empty(); }

    bool sharded() const { return m_sharded; }
    /// The dense sum (not sharded, not empty).
    const float* dense() const { return m_sum.data(); }
    /// The terms (sharded).
    const std::vector<wire::GradientTerm>& terms() const { return m_terms; }

private:
    /// Adds `weight` more samples' buffer values (`values`: their weighted sum) to the running mean.
    void addBuffers(const float* values, double weight);

    size_t m_count;
    size_t m_bufferBegin;  ///< m_count: no buffers
    bool m_sharded;
    std::vector<float> m_sum;
    double m_bufferWeight = 0;  ///< samples whose buffers the mean holds
    std::vector<float> m_weighted;  ///< scratch: one gradient's batch x buffers
    std::vector<wire::GradientTerm> m_terms;
};

/// The term of one gradient whose ranges wait at the shards.
wire::GradientTerm gradientTerm(const GradientIn& gradient, float scale);

}  // namespace syncscope::engine
