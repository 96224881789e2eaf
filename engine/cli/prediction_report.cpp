// predictions.md (see prediction_report.h).
#include "engine/cli/prediction_report.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>

#include <fmt/format.h>

#include "engine/core/median.h"
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

// Option label -> |t_i - t_j| / t_j of its runs' times to the target over pairs of seeds (i != j, the
// same straggler): how far apart the mode's own runs are, the floor a time forecast meets.
using Spreads = std::map<std::string, std::vector<double>>;

void table(std::ofstream& out, const std::vector<PredictionCheck>& checks, const Spreads& spreads) {
    out << "| option (switched to) | samples/s checks | median \\|error\\| | median error | time checks | median \\|error\\| | median error | its seeds' spread |\n"
        << "|---|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const PredictionSummary& s : summarisePredictions(checks)) {
        const auto spread = spreads.find(s.option);
        out << "| " << s.option << " | " << s.samplesChecks << " | " << absPercent(s.samplesAbsError) << " | "
            << percent(s.samplesBias) << " | " << s.timeChecks << " | " << absPercent(s.timeAbsError) << " | "
            << percent(s.timeBias) << " | "
            << absPercent(spread == spreads.end() || spread->second.empty() ? std::nan("") : median(spread->second)) << " |\n";
    }
}

// The pairs of `runs` of one mode and straggler, different seeds, both at the target.
void addSpreads(const std::vector<RunRow>& runs, const std::map<std::string, std::string>& labelOfMode, Spreads& spreads) {
    for (const RunRow& a : runs)
        for (const RunRow& b : runs) {
            const auto label = labelOfMode.find(a.mode);
            if (&a == &b || a.mode != b.mode || a.delayPercent != b.delayPercent || label == labelOfMode.end() ||
                !a.metrics.timeToTarget || !b.metrics.timeToTarget || !(*b.metrics.timeToTarget > 0))
                continue;
            spreads[label->second].push_back(std::fabs(*a.metrics.timeToTarget - *b.metrics.timeToTarget) / *b.metrics.timeToTarget);
        }
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
    Spreads allSpreads;
    std::map<std::string, Spreads> partSpreads;
    std::string missing;
    for (const auto& part : spec.parts) {
        const auto it = rows.find(part.name);
        if (it == rows.end()) continue;
        const std::vector<RunRow> runs = rowsOfSpec(part.grid, it->second);
        std::fprintf(progress, "predictions: part %s, %zu runs\n", part.name.c_str(), runs.size());
        std::fflush(progress);
        std::vector<std::shared_ptr<const Recording>> recordings;
        for (const RunRow& r : runs) recordings.push_back(load(r.recording, fs::path(out) / part.name, &missing));
        std::map<std::string, std::string> labelOfMode;  // spec mode name -> its runs' option label
        for (size_t a = 0; a < runs.size(); ++a)
            for (size_t b = 0; b < runs.size(); ++b) {
                if (a == b || !recordings[a] || !recordings[b] || runs[a].seed != runs[b].seed ||
                    runs[a].delayPercent != runs[b].delayPercent)
                    continue;
                if (auto c = checkPredictionAcross(recordings[a]->records, recordings[b]->records)) {
                    labelOfMode[runs[b].mode] = c->to;
                    all.push_back(*c);
                    byPart[part.name].push_back(*c);
                }
            }
        addSpreads(runs, labelOfMode, allSpreads);
        addSpreads(runs, labelOfMode, partSpreads[part.name]);
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
         << "mode). Its seeds' spread: the median of |t_i - t_j| / t_j over the option's own runs of one straggler "
         << "and two seeds (times to the target): how far apart two runs of the same mode land, the floor a "
         << "forecast of the time to the target meets.\n\n## All parts\n\n";
    table(file, all, allSpreads);
    for (const auto& [part, checks] : byPart) {
        file << "\n## " << part << "\n\n";
        table(file, checks, partSpreads[part]);
    }
    if (!missing.empty()) file << "\nRecordings not read (gone or unreadable): " << missing << "\n";
    file.flush();
    if (!file) return unavailable("writing '" + path + "' failed (disk full?); the claims are written");
    return Status::ok();
}

}  // namespace syncscope::engine
