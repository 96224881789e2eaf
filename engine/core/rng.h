// Rng: a seeded generator whose sequence is the same on every platform and standard library
// (std::uniform_real_distribution is not), so a fixed seed gives a bit-for-bit repeatable run.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace syncscope::engine {

class Rng {
public:
    explicit Rng(uint64_t seed) : m_engine(seed) {}

    /// Uniform in [0, 1) with 24 random bits, exact in float.
    float uniform() { return static_cast<float>(m_engine() >> 40) * (1.0f / 16777216.0f); }
    float uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }
    /// Uniform integer in [0, n), n > 0; the modulo bias is below 2^-40 for the sizes used here.
    uint64_t below(uint64_t n) { return m_engine() % n; }

    /// Fisher-Yates shuffle driven by this generator.
    template <typename T>
    void shuffle(std::vector<T>& items) {
        for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[below(i)]);
    }

private:
    std::mt19937_64 m_engine;
};

}  // namespace syncscope::engine
