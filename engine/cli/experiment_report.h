// The experiment's files: runs.csv (one line per finished run, appended as runs finish, read back to
// resume), results.csv (medians per mode and delay) and results.md (a table per figure and the
// issue's targets, met or missed by how much).
#pragma once

#include <string>
#include <vector>

#include "engine/cli/experiment_metrics.h"
#include "engine/cli/experiment_spec.h"

namespace syncscope::engine {

/// One finished run: which cell and seed, the fingerprint of its arguments, its figures.
struct RunRow {
    std::string mode;
    int delayPercent = 0;
    uint64_t seed = 0;
    std::string config;  ///< configHash() of its `run` arguments
    RunMetrics metrics;
    double fixedTime = 0;  ///< the time metrics.accuracyAtFixedTime was taken at
    std::string recording;
};

/// Reads DIR/runs.csv; a missing file is no runs. A malformed line (a crash mid-write) is skipped
/// and named in `warning`.
Result<std::vector<RunRow>> readRunsCsv(const std::string& path, std::string* warning);
/// Measures every row again from its recording, the source of its figures (runs.csv only remembers
/// them to resume): a later --fixed-time needs no new training, and rows written under an older rule
/// (before 2026-11-29 the time to target was when the coordinator knew it, not when the model got
/// there) get today's. Rows whose recording is gone or unreadable keep theirs and are named in
/// `warning`. Returns whether any figure changed.
bool refreshMetrics(std::vector<RunRow>& rows, const ExperimentSpec& spec, std::string* warning);
/// Writes `rows` as the whole of runs.csv (through a temporary file, renamed over it).
Status writeRunsCsv(const std::string& path, const std::vector<RunRow>& rows);
/// Appends one line (writing the header first when the file is new) and flushes it to disk.
Status appendRunsCsv(const std::string& path, const RunRow& row);

/// The rows that are runs of this spec as it stands: same mode, delay, seed and `run` arguments (a
/// line written under an earlier version of the spec is not one).
std::vector<RunRow> rowsOfSpec(const ExperimentSpec& spec, const std::vector<RunRow>& rows);

/// Medians of every (mode, delay) cell of the spec that has finished runs, in the spec's order.
std::vector<CellSummary> summariseCells(const ExperimentSpec& spec, const std::vector<RunRow>& rows);

/// The targets as lines of text ("met" / "missed by ..." / "not evaluated: ...").
std::vector<std::string> targetLines(const ExperimentSpec& spec, const std::vector<CellSummary>& cells);

Status writeResultsCsv(const std::string& path, const ExperimentSpec& spec, const std::vector<CellSummary>& cells);
Status writeResultsMarkdown(const std::string& path, const ExperimentSpec& spec, const std::vector<CellSummary>& cells,
                            const std::string& command);

}  // namespace syncscope::engine
