// The seeds' claims on a reproduction's runs: bootstrap intervals, one rule per claim kind (the
// reports are in claims_report.cpp).
#include "engine/cli/claims.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "engine/cli/experiment_metrics.h"

namespace syncscope::engine {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double percentileOf(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    const double at = q * double(v.size() - 1);
    const size_t below = size_t(std::floor(at));
    if (below + 1 >= v.size()) return v.back();
    const double lo = v[below], hi = v[below + 1];
    if (std::isinf(lo) || std::isinf(hi)) return at - double(below) < 0.5 ? lo : hi;
    return lo + (at - double(below)) * (hi - lo);
}

// A cell's per-seed values of one figure.
using Figure = std::function<double(const RunMetrics&)>;
double timeToTarget(const RunMetrics& m) { return m.timeToTarget ? *m.timeToTarget : kInf; }
double accuracyPoints(const RunMetrics& m) { return 100 * m.accuracyAtFixedTime; }
double staleness(const RunMetrics& m) { return m.stalenessMean; }

// A cell's figure by seed (in seed order).
std::map<uint64_t, double> bySeed(const std::vector<RunRow>& rows, const std::string& mode, std::optional<int> delay, const Figure& f) {
    std::map<uint64_t, double> values;
    for (const RunRow& r : rows)
        if (r.mode == mode && (!delay || r.delayPercent == *delay)) values[r.seed] = f(r.metrics);
    return values;
}

std::vector<double> cell(const std::vector<RunRow>& rows, const std::string& mode, std::optional<int> delay, const Figure& f) {
    std::vector<double> values;
    for (const auto& [seed, value] : bySeed(rows, mode, delay, f)) values.push_back(value);
    return values;
}

// mode's figure against other's: paired by seed where both ran the same seeds (two or more), else
// the statistic of the two medians.
Interval compare(const std::vector<RunRow>& rowsA, const std::string& modeA, std::optional<int> delayA,
                 const std::vector<RunRow>& rowsB, const std::string& modeB, std::optional<int> delayB, const Figure& f,
                 const std::function<double(double, double)>& statistic) {
    const auto a = bySeed(rowsA, modeA, delayA, f), b = bySeed(rowsB, modeB, delayB, f);
    std::vector<double> va, vb;
    bool same = a.size() == b.size() && a.size() >= 2;
    for (const auto& [seed, value] : a) {
        va.push_back(value);
        if (!b.count(seed)) same = false;
    }
    for (const auto& [seed, value] : b) vb.push_back(value);
    return same ? bootstrapPaired(va, vb, statistic) : bootstrapMedians(va, vb, statistic);
}

// Keeps a cell's runs for claims.json (once per cell).
void keepRuns(ClaimResult& r, const std::string& part, const std::vector<RunRow>& rows, const std::string& mode,
              std::optional<int> delay) {
    for (const ClaimRuns& k : r.runs)
        if (k.part == part && k.mode == mode && k.delay == delay) return;
    r.runs.push_back({part, mode, delay, bySeed(rows, mode, delay, timeToTarget)});
}

std::string at(const std::string& mode, int delay) { return fmt::format("{} +{}%", mode, delay); }

double ratio(double a, double b) {
    if (std::isinf(a) && std::isinf(b)) return std::nan("");
    return a / b;
}

std::string seconds(double s) { return std::isinf(s) ? "not reached" : fmt::format("{:.1f} s", s); }
std::string times(const Interval& i) {
    if (std::isnan(i.value)) return "n/a (neither reached the target)";
    auto one = [](double v) { return std::isinf(v) ? std::string("∞") : std::isnan(v) ? std::string("n/a") : fmt::format("{:.2f}", v); };
    return fmt::format("{}x [{}, {}]", one(i.value), one(i.low), one(i.high));
}
std::string reached(const std::vector<double>& tta) {
    const auto n = std::count_if(tta.begin(), tta.end(), [](double t) { return !std::isinf(t); });
    return fmt::format("{}/{} reached", n, tta.size());
}

struct Context {
    const ReproductionSpec& spec;
    const std::map<std::string, std::vector<RunRow>>& rows;
    const std::vector<RunRow>& of(const std::string& part) const {
        static const std::vector<RunRow> none;
        auto it = rows.find(part);
        return it == rows.end() ? none : it->second;
    }
    const ExperimentSpec* grid(const std::string& part) const {
        for (const auto& p : spec.parts)
            if (p.name == part) return &p.grid;
        return nullptr;
    }
};

ClaimResult missing(ClaimResult r, const std::string& what) {
    r.verdict = Verdict::NotEvaluated;
    r.why = "no runs of " + what + (r.why.empty() ? "" : "; " + r.why);
    return r;
}

ClaimResult stragglerRescue(const Context& ctx, ClaimResult r) {
    const ClaimSpec& c = *r.claim;
    const auto& rows = ctx.of(c.parts.front());
    const auto& baseRows = ctx.of(c.parts.back());  // the baseline may have a part of its own
    const auto mode = cell(rows, c.mode, c.delay, timeToTarget), base = cell(baseRows, c.baseline, c.baselineDelay, timeToTarget);
    if (mode.empty() || base.empty())
        return missing(r, (mode.empty() ? c.mode : c.baseline) + " at +" +
                              std::to_string(mode.empty() ? c.delay : c.baselineDelay) + "%");
    const Interval slower = compare(rows, c.mode, c.delay, baseRows, c.baseline, c.baselineDelay, timeToTarget, ratio);
    const Interval lost = compare(baseRows, c.baseline, c.baselineDelay, rows, c.mode, c.delay, accuracyPoints, std::minus<>());
    const double fixedTime = ctx.grid(c.parts.front())->fixedTimeSeconds;
    keepRuns(r, c.parts.front(), rows, c.mode, c.delay);
    keepRuns(r, c.parts.back(), baseRows, c.baseline, c.baselineDelay);
    r.comparisons.push_back({at(c.mode, c.delay) + " / " + at(c.baseline, c.baselineDelay), "x", slower, {}, c.maxRatio});
    r.comparisons.push_back({"points lost against " + at(c.baseline, c.baselineDelay), "points", lost, {}, c.maxPointsLost});
    r.lines.push_back(fmt::format("{} at +{}%: {} (median {}), {} at +{}%: {} (median {})", c.mode, c.delay, reached(mode),
                                  seconds(median(mode)), c.baseline, c.baselineDelay, reached(base), seconds(median(base))));
    r.lines.push_back(fmt::format("time to target, {} at +{}% / {} at +{}%: {} (limit {:.2f}x)", c.mode, c.delay, c.baseline,
                                  c.baselineDelay, times(slower), c.maxRatio));
    r.lines.push_back(fmt::format("accuracy at {:g} s, points lost against {} at +{}%: {:.2f} [{:.2f}, {:.2f}] (limit {:.1f})",
                                  fixedTime, c.baseline, c.baselineDelay, lost.value, lost.low, lost.high, c.maxPointsLost));
    bool faster = true;
    std::string slowerThan;
    for (const auto& other : c.against) {
        const auto o = cell(rows, other, c.delay, timeToTarget);
        if (o.empty()) continue;
        const Interval i = compare(rows, c.mode, c.delay, rows, other, c.delay, timeToTarget, ratio);
        keepRuns(r, c.parts.front(), rows, other, c.delay);
        r.comparisons.push_back({at(c.mode, c.delay) + " / " + at(other, c.delay), "x", i, {}, 1.0});
        r.lines.push_back(fmt::format("against {} at +{}% ({}, median {}): {}", other, c.delay, reached(o), seconds(median(o)), times(i)));
        if (!(i.value < 1) && !std::isnan(i.value)) faster = false, slowerThan += (slowerThan.empty() ? "" : ", ") + other;
    }
    const bool met = slower.value <= c.maxRatio && lost.value <= c.maxPointsLost;
    r.verdict = met && faster ? Verdict::Reproduced : Verdict::NotReproduced;
    r.why = fmt::format("{:.2f}x the no-delay time (limit {:.2f}x), {:.2f} points lost (limit {:.1f}){}", slower.value,
                        c.maxRatio, lost.value, c.maxPointsLost, faster ? "" : "; not faster than " + slowerThan);
    return r;
}

ClaimResult softsync(const Context& ctx, ClaimResult r) {
    const ClaimSpec& c = *r.claim;
    const auto& rows = ctx.of(c.parts.front());
    bool proportional = true, evaluated = false;
    const SoftsyncPair* largest = nullptr;
    for (const SoftsyncPair& p : c.pairs) {
        const auto fixed = cell(rows, p.fixed, {}, timeToTarget), modulated = cell(rows, p.modulated, {}, timeToTarget);
        if (fixed.empty() && modulated.empty()) continue;
        evaluated = true;
        const auto stale = cell(rows, fixed.empty() ? p.modulated : p.fixed, {}, staleness);
        const Interval s = bootstrapMedians(stale, {double(p.n)}, std::divides<>());
        if (s.value < 0.5 || s.value > 1.5) proportional = false;
        for (const std::string* m : {&p.fixed, &p.modulated})
            if (!cell(rows, *m, {}, timeToTarget).empty()) keepRuns(r, c.parts.front(), rows, *m, {});
        r.comparisons.push_back({fmt::format("staleness / n, n = {}", p.n), "x", s, 0.5, 1.5});
        r.lines.push_back(fmt::format("n = {}: staleness mean {:.2f} = {:.2f} [{:.2f}, {:.2f}] x n; fixed lr {} (median {}), "
                                      "alpha/tau {} (median {})",
                                      p.n, median(stale), s.value, s.low, s.high, fixed.empty() ? "not run" : reached(fixed),
                                      fixed.empty() ? "-" : seconds(median(fixed)),
                                      modulated.empty() ? "not run" : reached(modulated),
                                      modulated.empty() ? "-" : seconds(median(modulated))));
        if (!fixed.empty() && !modulated.empty() && (!largest || p.n > largest->n)) largest = &p;
    }
    if (!evaluated) return missing(r, "any of its modes");
    if (!largest) {
        r.verdict = Verdict::NotEvaluated;
        r.why = "no n has runs of both learning rates";
        return r;
    }
    const double fixedAtLargest = median(cell(rows, largest->fixed, {}, timeToTarget));
    const double modulatedAtLargest = median(cell(rows, largest->modulated, {}, timeToTarget));
    const bool diverges = std::isinf(fixedAtLargest) && !std::isinf(modulatedAtLargest);
    r.verdict = proportional && diverges ? Verdict::Reproduced : Verdict::NotReproduced;
    r.why = fmt::format("staleness {} n; at n = {} the fixed lr {} and alpha/tau {}",
                        proportional ? "about" : "not about", largest->n,
                        std::isinf(fixedAtLargest) ? "did not reach the target" : "reached it in " + seconds(fixedAtLargest),
                        std::isinf(modulatedAtLargest) ? "did not either" : "in " + seconds(modulatedAtLargest));
    return r;
}

ClaimResult perPart(const Context& ctx, ClaimResult r, bool nearBest) {
    const ClaimSpec& c = *r.claim;
    const double limit = c.maxRatio > 0 ? c.maxRatio : 1.0;
    bool all = true, any = false;
    std::string failed, unevaluated;
    for (const auto& part : c.parts) {
        const auto& rows = ctx.of(part);
        // The claim's delay where the part runs it, else the part's own (largest) delay.
        const auto& delays = ctx.grid(part)->delaysPercent;
        const int delay = std::count(delays.begin(), delays.end(), c.delay) ? c.delay : *std::max_element(delays.begin(), delays.end());
        const auto mode = cell(rows, c.mode, delay, timeToTarget);
        std::string against = c.baseline;
        if (nearBest) {  // the best other mode of the part, by median time to target
            double best = kInf;
            for (const auto& m : ctx.grid(part)->modes) {
                const auto other = cell(rows, m.name, delay, timeToTarget);
                if (m.name != c.mode && !other.empty() && (against.empty() || median(other) < best))
                    best = median(other), against = m.name;
            }
        }
        const auto base = cell(rows, against, delay, timeToTarget);
        if (mode.empty() || base.empty()) {
            r.lines.push_back(fmt::format("{}: not evaluated (no runs of {})", part, mode.empty() ? c.mode : against));
            unevaluated += (unevaluated.empty() ? "" : ", ") + part;
            continue;
        }
        any = true;
        const Interval i = compare(rows, c.mode, delay, rows, against, delay, timeToTarget, ratio);
        keepRuns(r, part, rows, c.mode, delay);
        keepRuns(r, part, rows, against, delay);
        r.comparisons.push_back({part + ": " + c.mode + " / " + against, "x", i, {}, limit});
        r.lines.push_back(fmt::format("{}: {} {} (median {}), {}{} {} (median {}): {}", part, c.mode, reached(mode),
                                      seconds(median(mode)), nearBest ? "best other mode " : "", against, reached(base),
                                      seconds(median(base)), times(i)));
        const bool holds = nearBest ? i.value <= limit : i.value < limit;  // faster-than: strictly faster
        if (!holds) all = false, failed += (failed.empty() ? "" : ", ") + part;
    }
    if (!any) return missing(r, c.mode + " and what it is compared with");
    r.verdict = all ? Verdict::Reproduced : Verdict::NotReproduced;
    r.why = all ? fmt::format("{} {:.2f}x in every part with runs", nearBest ? "at most" : "below", limit)
                : fmt::format("{} {:.2f}x in: {}", nearBest ? "above" : "not below", limit, failed);
    if (!unevaluated.empty()) r.why += "; not evaluated in " + unevaluated + " (no runs)";
    return r;
}

}  // namespace

Interval bootstrapMedians(const std::vector<double>& a, const std::vector<double>& b,
                          const std::function<double(double, double)>& statistic, int draws, uint64_t seed) {
    Interval out{statistic(median(a), median(b)), 0, 0};
    std::mt19937_64 random(seed);
    std::vector<double> stats, ra(a.size()), rb(b.size());
    stats.reserve(size_t(draws));
    for (int d = 0; d < draws; ++d) {
        for (auto& v : ra) v = a[std::uniform_int_distribution<size_t>(0, a.size() - 1)(random)];
        for (auto& v : rb) v = b[std::uniform_int_distribution<size_t>(0, b.size() - 1)(random)];
        const double s = statistic(median(ra), median(rb));
        if (!std::isnan(s)) stats.push_back(s);
    }
    if (stats.empty()) return {out.value, out.value, out.value};
    out.low = percentileOf(stats, 0.025);
    out.high = percentileOf(stats, 0.975);
    return out;
}

Interval bootstrapPaired(const std::vector<double>& a, const std::vector<double>& b,
                         const std::function<double(double, double)>& statistic, int draws, uint64_t seed) {
    auto medianOf = [&](const std::vector<size_t>& seeds) {
        std::vector<double> values;
        for (size_t i : seeds)
            if (const double s = statistic(a[i], b[i]); !std::isnan(s)) values.push_back(s);
        return values.empty() ? std::nan("") : median(values);
    };
    std::vector<size_t> all(std::min(a.size(), b.size()));
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    Interval out{medianOf(all), 0, 0};
    std::mt19937_64 random(seed);
    std::vector<double> stats;
    std::vector<size_t> drawn(all.size());
    for (int d = 0; d < draws && !all.empty(); ++d) {
        for (auto& i : drawn) i = std::uniform_int_distribution<size_t>(0, all.size() - 1)(random);
        if (const double s = medianOf(drawn); !std::isnan(s)) stats.push_back(s);
    }
    if (stats.empty()) return {out.value, out.value, out.value};
    out.low = percentileOf(stats, 0.025);
    out.high = percentileOf(stats, 0.975);
    return out;
}

const char* verdictText(Verdict v) {
    switch (v) {
        case Verdict::Reproduced: return "reproduced";
        case Verdict::NotReproduced: return "not reproduced";
        case Verdict::NotEvaluated: return "not evaluated";
    }
    return "?";
}

std::vector<ClaimResult> evaluateClaims(const ReproductionSpec& spec, const std::map<std::string, std::vector<RunRow>>& rows) {
    const Context ctx{spec, rows};
    std::vector<ClaimResult> results;
    for (const ClaimSpec& c : spec.claims) {
        ClaimResult r;
        r.claim = &c;
        if (c.kind == "straggler-rescue") results.push_back(stragglerRescue(ctx, r));
        else if (c.kind == "softsync") results.push_back(softsync(ctx, r));
        else results.push_back(perPart(ctx, r, c.kind == "near-best"));
    }
    return results;
}

}  // namespace syncscope::engine
