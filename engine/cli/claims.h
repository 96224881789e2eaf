// The seeds' claims checked on a reproduction's runs (claims.md): comparisons paired by seed where
// both cells ran the same seeds (else medians of each), with percentile-bootstrap 95% intervals, each claim reproduced, not reproduced (and why) or not
// evaluated (its runs are missing).
//
// The rules, by ClaimSpec::kind (time to target counts "not reached" as +infinity):
//   straggler-rescue  mode at `delay` against baseline at `baseline_delay`: time-to-target ratio
//                     <= max_ratio and accuracy at the fixed time at most max_points_lost below;
//                     and faster than each `against` mode at `delay` (Basu et al.); with two parts,
//                     the baseline's runs come from the second
//   softsync          per n: mean staleness / n (n-softsync's staleness is about n), and whether the
//                     fixed learning rate fails to reach the target at the largest n where alpha/tau
//                     modulation reaches it (Zhang et al.)
//   faster-than       in each part, mode's time to target below baseline's (max_ratio, default 1;
//                     Falcon's elastic batches against fixed ones)
//   near-best         in each part, mode within max_ratio of the best other mode's time (STAR's auto)
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/cli/experiment_report.h"
#include "engine/cli/reproduction_spec.h"

namespace syncscope::engine {

/// A statistic of the seeds and its bootstrap 95% interval (+infinity where runs did not get there).
struct Interval {
    double value = 0, low = 0, high = 0;
};

/// statistic(median of a, median of b) and its 95% interval: a and b are resampled with replacement,
/// each on its own, `draws` times (fixed seed: the same runs give the same interval).
Interval bootstrapMedians(const std::vector<double>& a, const std::vector<double>& b,
                          const std::function<double(double, double)>& statistic, int draws = 2000, uint64_t seed = 1);

/// The median over seeds of statistic(a[i], b[i]) (a and b measured with the same seeds, in the same
/// order) and its 95% interval: the seeds are resampled together, so a seed that is slow in every mode
/// (the same initial model and data order) does not widen the interval. NaN statistics are left out.
Interval bootstrapPaired(const std::vector<double>& a, const std::vector<double>& b,
                         const std::function<double(double, double)>& statistic, int draws = 2000, uint64_t seed = 1);

enum class Verdict { Reproduced, NotReproduced, NotEvaluated };

/// The runs of one cell a claim reads (for claims.json and its plots): a mode at a delay in a part,
/// its time to target per seed (+infinity: not reached).
struct ClaimRuns {
    std::string part, mode;
    std::optional<int> delay;  ///< empty: every delay of the part (softsync's cells)
    std::map<uint64_t, double> secondsBySeed;
};

/// One figure a claim is decided on: a ratio or difference over seeds, its interval, and the band it
/// must fall in (empty bounds: none on that side).
struct ClaimComparison {
    std::string label;  ///< "grouped-g2 +400% / bsp +0%"
    std::string unit;   ///< "x" (a ratio of times to target) or "points" (accuracy lost)
    Interval interval;
    std::optional<double> atLeast, atMost;
};

struct ClaimResult {
    const ClaimSpec* claim = nullptr;
    Verdict verdict = Verdict::NotEvaluated;
    std::string why;                 ///< the deciding figures, or what is missing
    std::vector<std::string> lines;  ///< ours: one line per figure, with its interval
    std::vector<ClaimRuns> runs;     ///< every cell the claim read, in the order of `lines`
    std::vector<ClaimComparison> comparisons;
};

/// Each claim of the spec on the runs of its parts (rows by part name).
std::vector<ClaimResult> evaluateClaims(const ReproductionSpec& spec, const std::map<std::string, std::vector<RunRow>>& rows);

const char* verdictText(Verdict v);

}  // namespace syncscope::engine
