// ReproductionSpec: several experiment grids ("parts", each an ExperimentSpec run into its own
// folder) and the seeds' claims checked across them (resources/experiments/seeds-reproduction.json).
// `experiment --spec FILE` runs one when the file has "parts"; `--quick` applies each part's "quick"
// keys (fewer seeds, modes or a shorter cap) to check the claims' direction in minutes.
#pragma once

#include <string>
#include <vector>

#include "engine/cli/experiment_spec.h"
#include "engine/core/status.h"

namespace syncscope::engine {

/// One of n-softsync's settings (Zhang et al.): the same staleness n with a fixed learning rate and
/// with alpha / tau modulation.
struct SoftsyncPair {
    int n = 0;
    std::string fixed, modulated;  ///< mode names in the claim's part
};

/// What a claim compares; `kind` picks the rule (claims.h says each).
struct ClaimSpec {
    std::string kind;    ///< "straggler-rescue", "softsync", "faster-than", "near-best"
    std::string title;   ///< the paper's claim in a line
    std::string paper;   ///< the paper's own figure, quoted in the report
    std::vector<std::string> parts;  ///< the parts whose runs it reads
    std::string mode;                ///< the mode the claim is about
    std::string baseline;            ///< the mode it is measured against
    int delay = 0, baselineDelay = 0;
    std::vector<std::string> against;  ///< more modes compared at `delay` (direction only)
    double maxRatio = 0;               ///< time to target, mode / baseline (or / best), at most this
    double maxPointsLost = 0;          ///< accuracy at the fixed time, baseline - mode, at most this
    std::vector<SoftsyncPair> pairs;
};

struct ReproductionPart {
    std::string name;  ///< a folder under --out
    ExperimentSpec grid;
};

struct ReproductionSpec {
    std::string name, description;
    bool quick = false;
    std::vector<ReproductionPart> parts;
    std::vector<ClaimSpec> claims;
};

/// True when the JSON file at path is an object with "parts" (a reproduction, not a single grid).
bool isReproductionSpec(const std::string& path);

/// Reads a reproduction spec: "defaults" (grid keys every part gets), "parts" (each {"name", "grid",
/// "quick"}), "claims". With quick, each part's "quick" object is merged over its grid (JSON merge
/// patch). Every part and every claim's modes are checked; errors name the part or claim.
Result<ReproductionSpec> loadReproductionSpec(const std::string& path, bool quick);

}  // namespace syncscope::engine
