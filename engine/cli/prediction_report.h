// predictions.md of a reproduction (issue 29, point 3): the what-if predictions held to the spec's
// own runs. In each part, every run's predictions for the mode of each other run of its cell (the
// same delay and seed) are checked against that run (checkPredictionAcross): per option, the median
// error of samples/s and of time to target, over all parts and per part.
#pragma once

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "engine/cli/experiment_report.h"
#include "engine/cli/reproduction_spec.h"
#include "engine/core/status.h"

namespace syncscope::engine {

/// Reads the recordings of `rows` (by part; a recording moved with its folder is looked for under
/// OUT/PART/recordings), checks every pair and writes `path`. `progress` gets a line per part.
Status writePredictionsReport(const std::string& path, const std::string& out, const ReproductionSpec& spec,
                              const std::map<std::string, std::vector<RunRow>>& rows, std::FILE* progress);

}  // namespace syncscope::engine
