// predictions.md (see prediction_report.h).
#include "engine/cli/prediction_report.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>

#include <fmt/format.h>

#include "engine/telemetry/prediction_check.h"
#include "engine/telemetry/recording_reader.h"

namespace syncscope::engine {
namespace {

namespace fs = std::filesystem;

std::string percent(double fraction) {
    return std::isnan(fraction) ? std::string("–") : fmt::format("{:+.0f}%", 100 * fraction);
}
std::string absPercent(double fraction) {
    return std::isnan(fraction) ? std::string("–") : fmt::format("{:.0f}%", 100 * fraction);
}

void table(std::ofstream& out, const std::vector<PredictionCheck>& checks) {
    out << "| option (switched to) | samples/s checks | median \\|error\\| | median error | time checks | median \\|error\\| | median error |\n"
        << "|---|---:|---:|---:|---:|---:|---:|\n";
    for (const PredictionSummary& s : summarisePredictions(checks))
        out << "| " << s.option << " | " << s.samplesChecks << " | " << absPercent(s.samplesAbsError) << " | "
            << percent(s.samplesBias) << " | " << s.timeChecks << " | " << absPercent(s.timeAbsError) << " | "
            << percent(s.timeBias) << " |\n";
}

// The run's recording, read once; empty when it is gone.
std::shared_ptr<const Recording> load(const std::string& recording, const fs::path& partDir, std::string* missing) {
    std::string path = recording;
    if (!fs::exists(path)) path = (partDir / "recordings" / fs::path(recording).filename()).string();
    auto read = readRecording(path);
    if (!read) {
        *missing += (missing->empty() ? "" : ", ") + fs::path(recording).filename().string();
        return nullptr;
    }
    return std::make_shared<const Recording>(std::move(*read));
}

}  // namespace

Status writePredictionsReport(const std::string& path, const std::string& out, const ReproductionSpec& spec,
                              const std::map<std::string, std::vector<RunRow>>& rows, std::FILE* progress) {
    std::vector<PredictionCheck> all;
    std::map<std::string, std::vector<PredictionCheck>> byPart;
    std::string missing;
    for (const auto& part : spec.parts) {
        const auto it = rows.find(part.name);
        if (it == rows.end()) continue;
        const std::vector<RunRow> runs = rowsOfSpec(part.grid, it->second);
        std::fprintf(progress, "predictions: part %s, %zu runs\n", part.name.c_str(), runs.size());
        std::fflush(progress);
        std::vector<std::shared_ptr<const Recording>> recordings;
        for (const RunRow& r : runs) recordings.push_back(load(r.recording, fs::path(out) / part.name, &missing));
        for (size_t a = 0; a < runs.size(); ++a)
            for (size_t b = 0; b < runs.size(); ++b) {
                if (a == b || !recordings[a] || !recordings[b] || runs[a].seed != runs[b].seed ||
                    runs[a].delayPercent != runs[b].delayPercent)
                    continue;
                if (auto c = checkPredictionAcross(recordings[a]->records, recordings[b]->records)) {
                    all.push_back(*c);
                    byPart[part.name].push_back(*c);
                }
            }
    }
    std::ofstream file(path, std::ios::trunc);
    if (!file) return unavailable("cannot write '" + path + "'; check that the folder is writable");
    file << "# " << spec.name << (spec.quick ? " (quick)" : "") << ": what-if predictions against the runs\n\n"
         << "In each part, every run's what-if predictions for the mode of each other run of its cell (the same "
         << "straggler and seed) against that run, which stands for switching to it: the runs of a cell start alike "
         << "and none switches. Samples/s: the median of the run's predictions after " << kPredictionSettleSeconds
         << " s against the other run's applied samples/s after its first " << kPredictionSettleSeconds
         << " s. Time to target: the first forecast, at accuracy a, against the time the other run took from a to "
         << "the target. Errors are (predicted - measured) / measured; auto's runs are left out (auto changes "
         << "mode).\n\n## All parts\n\n";
    table(file, all);
    for (const auto& [part, checks] : byPart) {
        file << "\n## " << part << "\n\n";
        table(file, checks);
    }
    if (!missing.empty()) file << "\nRecordings not read (gone or unreadable): " << missing << "\n";
    file.flush();
    if (!file) return unavailable("writing '" + path + "' failed (disk full?); the claims are written");
    return Status::ok();
}

}  // namespace syncscope::engine
