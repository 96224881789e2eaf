// claims.md and claims.json of a reproduction (claims_report.h).
#include "engine/cli/claims_report.h"

#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/cli/experiment_metrics.h"

namespace syncscope::engine {
namespace {

// JSON has no infinity or NaN: null stands for "not reached" / "unbounded"; NaN (no value) as well.
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }
nlohmann::json number(const std::optional<double>& v) { return v ? number(*v) : nlohmann::json(); }

nlohmann::json claimJson(const ClaimResult& r) {
    nlohmann::json runs = nlohmann::json::array(), comparisons = nlohmann::json::array();
    for (const ClaimRuns& k : r.runs) {
        nlohmann::json seeds = nlohmann::json::object();
        std::vector<double> values;
        for (const auto& [seed, seconds] : k.secondsBySeed) seeds[std::to_string(seed)] = number(seconds), values.push_back(seconds);
        runs.push_back({{"part", k.part}, {"mode", k.mode}, {"delay_percent", k.delay ? nlohmann::json(*k.delay) : nlohmann::json()},
                        {"time_to_target_s", seeds}, {"median_s", values.empty() ? nlohmann::json() : number(median(values))}});
    }
    for (const ClaimComparison& c : r.comparisons)
        comparisons.push_back({{"label", c.label}, {"unit", c.unit}, {"value", number(c.interval.value)},
                               {"low", number(c.interval.low)}, {"high", number(c.interval.high)},
                               {"at_least", number(c.atLeast)}, {"at_most", number(c.atMost)},
                               {"infinite_value", std::isinf(c.interval.value)}, {"infinite_high", std::isinf(c.interval.high)}});
    return {{"title", r.claim->title}, {"kind", r.claim->kind}, {"paper", r.claim->paper}, {"parts", r.claim->parts},
            {"verdict", verdictText(r.verdict)}, {"why", r.why}, {"figures", r.lines}, {"runs", runs},
            {"comparisons", comparisons}};
}

}  // namespace

Status writeClaimsMarkdown(const std::string& path, const ReproductionSpec& spec, const std::vector<ClaimResult>& results,
                           const std::string& command) {
    std::ofstream out(path, std::ios::trunc);
    if (!out) return unavailable("cannot write '" + path + "'; check that the folder is writable");
    out << "# " << spec.name << (spec.quick ? " (quick)" : "") << ": the seeds' claims\n\n";
    if (!spec.description.empty()) out << spec.description << "\n\n";
    out << "`" << command << "`\n\nTwo modes run with the same seeds are compared seed by seed (the same seed gives every "
        << "mode the same initial model and data order): the median over seeds of the per-seed ratio (or difference), "
        << "and [low, high] its percentile bootstrap 95% interval (2,000 draws of the seeds); cells with different seeds "
        << "compare their medians, each resampled on its own. A run that did not reach the target counts as +infinity.\n\n";
    out << "| claim | verdict | deciding figures |\n|---|---|---|\n";
    for (const auto& r : results) out << "| " << r.claim->title << " | **" << verdictText(r.verdict) << "** | " << r.why << " |\n";
    for (const auto& r : results) {
        out << "\n## " << r.claim->title << "\n\n";
        if (!r.claim->paper.empty()) out << "The paper: " << r.claim->paper << "\n\n";
        out << "Ours (parts:";
        for (const auto& p : r.claim->parts) out << ' ' << p;
        out << "):\n\n";
        for (const auto& line : r.lines) out << "- " << line << "\n";
        out << "\n**" << verdictText(r.verdict) << "**: " << r.why << "\n";
    }
    out.flush();
    if (!out) return unavailable("writing '" + path + "' failed (disk full?); the runs are kept in runs.csv");
    return Status::ok();
}

Status writeClaimsJson(const std::string& path, const ReproductionSpec& spec, const std::vector<ClaimResult>& results,
                       const std::string& command) {
    nlohmann::json parts = nlohmann::json::array(), claims = nlohmann::json::array();
    for (const auto& p : spec.parts)
        parts.push_back({{"name", p.name}, {"model", p.grid.model}, {"workers", p.grid.workers},
                         {"target_percent", p.grid.targetAccuracyPercent}, {"max_seconds", p.grid.maxSeconds},
                         {"fixed_time_s", p.grid.fixedTimeSeconds}, {"seeds", p.grid.seeds}});
    for (const auto& r : results) claims.push_back(claimJson(r));
    const nlohmann::json doc{{"format", "syncscope-claims"}, {"version", 1}, {"spec", spec.name}, {"quick", spec.quick},
                             {"description", spec.description}, {"command", command}, {"parts", parts}, {"claims", claims}};
    // Written beside and renamed over: a reader (the console) never sees half a file.
    const std::string partial = path + ".partial";
    {
        std::ofstream out(partial, std::ios::trunc);
        if (!out) return unavailable("cannot write '" + partial + "'; check that the folder is writable");
        out << doc.dump(2) << "\n";
        out.flush();
        if (!out) return unavailable("writing '" + partial + "' failed (disk full?); claims.md and the runs are kept");
    }
    std::error_code ec;
    std::filesystem::rename(partial, path, ec);
    if (ec) return unavailable("cannot rename '" + partial + "' to '" + path + "': " + ec.message());
    return Status::ok();
}

}  // namespace syncscope::engine
