// The reports of a reproduction's claims: claims.md for people, claims.json for programs (the
// console's results window and syncscope-plot draw each claim's runs and intervals from it).
#pragma once

#include <string>
#include <vector>

#include "engine/cli/claims.h"

namespace syncscope::engine {

/// claims.md: a summary table, then per claim the paper's figure, ours with intervals, the verdict.
Status writeClaimsMarkdown(const std::string& path, const ReproductionSpec& spec, const std::vector<ClaimResult>& results,
                           const std::string& command);

/// claims.json: the same claims for programs (the console's results window, syncscope-plot): each
/// claim's verdict, figures, runs per seed and comparisons with their intervals. JSON has no
/// infinity: a run that did not reach the target, or an unbounded interval end, is null.
Status writeClaimsJson(const std::string& path, const ReproductionSpec& spec, const std::vector<ClaimResult>& results,
                       const std::string& command);

}  // namespace syncscope::engine
