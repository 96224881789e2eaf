// ComputeTimeModel: a worker's compute time per iteration as a line in its batch size,
// ms(b) = fixed + perSample x b, fitted on its recent pushes. A step has a cost that does not grow
// with the batch (a Python worker's interpreter, a kernel's launch, the optimiser's pass over the
// parameters), so samples per second measured at one batch are not the speed at another: elastic
// batches sized in proportion to such a speed creep to the balance a rebalance at a time (a slow
// worker's smaller batch looks slower still), and a prediction for another batch is off by the
// fixed share. With one batch size seen
// (or sizes too close to tell the two terms apart) the line goes through zero: the proportional
// model, right at the batch it was measured at.
//
// A model may also remember sizes that left its window (sizesKept > 1): for a quantity that depends on
// the batch and not on the moment, such as a process's CPU time per iteration, which no quota or
// neighbour changes. Elastic gives a worker one size for many pushes (a throttled one 8-12 samples for
// seconds), and a line through zero at that size put its CPU time at 64 samples 1.5-2x too high, so
// bsp was predicted from elastic's runs 28-53% too slow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace syncscope::engine {

class ComputeTimeModel {
public:
    static constexpr size_t kWindow = 31;  ///< pushes kept (the median of as many robust to preemption)
    /// The fitted line is used once the batches seen span at least this ratio (largest / smallest).
    static constexpr double kSpreadToFit = 1.25;
    /// Sizes a CPU-time model remembers (WorkerRecord::cpu).
    static constexpr size_t kSizesKeptForCpu = 8;

    /// `sizesKept`: besides the window, the last kWindow pushes of each of the sizesKept most recently
    /// seen batch sizes are kept, and the line is fitted over them (1: the window alone).
    explicit ComputeTimeModel(size_t sizesKept) : m_sizesKept(sizesKept) {}
    ComputeTimeModel() = default;

    /// One push: `batch` samples computed in `ms` milliseconds (ignored unless both are positive).
    /// Cheap: it runs for every gradient on the coordinator's receive loop (twice: compute and CPU
    /// time); the speed and the line are worked out when next asked for.
    void record(uint32_t batch, double ms);
    bool measured() const { return !m_ring.empty(); }
    /// Median samples per second of the recent pushes, each at its own batch (0 before any).
    double samplesPerSecond() const;
    /// The fitted compute time of one iteration at `batch` (0 before any push).
    double milliseconds(double batch) const { return fixedMs() + perSampleMs() * batch; }
    double fixedMs() const { return line().fixedMs; }
    double perSampleMs() const { return line().perSampleMs; }

    /// The recent pushes, oldest first (for checkpoints: record() them again to restore the model).
    struct Push {
        uint32_t batch;
        double ms;
    };
    std::vector<Push> recent() const;

private:
    struct Line {
        double fixedMs = 0, perSampleMs = 0;
    };
    const Line& line() const;

    struct SizeTimes {
        std::vector<double> ms;  ///< ring of its last kWindow times
        size_t next = 0;
        uint64_t lastSeen = 0;
    };

    size_t m_sizesKept = 1;
    std::map<uint32_t, SizeTimes> m_sizes;  ///< sizesKept > 1: by batch size
    uint64_t m_pushes = 0;
    std::vector<Push> m_ring;
    size_t m_next = 0;
    mutable double m_speed = 0;
    mutable bool m_speedKnown = true;  ///< m_speed is the median of the ring as it is (a CPU-time model never asks)
    mutable Line m_line;
    mutable bool m_fitted = true;  ///< m_line holds the fit of the ring as it is
};

}  // namespace syncscope::engine
