// GradientAccumulator: the gradients of one update being added up, scale x gradient each. Where the
// coordinator holds the model it is a dense sum; where parameter shards hold it (a sharded run) it is
// the list of terms that each shard adds up over its own range, the gradients' ranges waiting there.
// The policies build every update through it, so they decide the same way in both.
#pragma once

#include <cstddef>
#include <vector>

#include "engine/proto/syncscope.pb.h"
#include "engine/policy/gradient.h"

namespace syncscope::engine {

class GradientAccumulator {
public:
    GradientAccumulator(size_t parameterCount, bool sharded) : m_count(parameterCount), m_sharded(sharded) {}

    /// Adds scale x the gradient.
    void add(const GradientIn& gradient, float scale);
    /// Adds an aggregator's sum as it is (already batch x gradient); dense only (in a sharded run
    /// aggregators only relay, and the data plane refuses sums).
    void add(const GradientSum& sum);
    /// Multiplies everything added so far (a weighted sum becomes an average).
    void scale(float factor);
    void clear();
    bool empty() const { return m_sharded ? m_terms.empty() : m_sum.empty(); }

    bool sharded() const { return m_sharded; }
    /// The dense sum (not sharded, not empty).
    const float* dense() const { return m_sum.data(); }
    /// The terms (sharded).
    const std::vector<wire::GradientTerm>& terms() const { return m_terms; }

private:
    size_t m_count;
    bool m_sharded;
    std::vector<float> m_sum;
    std::vector<wire::GradientTerm> m_terms;
};

/// The term of one gradient whose ranges wait at the shards.
wire::GradientTerm gradientTerm(const GradientIn& gradient, float scale);

}  // namespace syncscope::engine
