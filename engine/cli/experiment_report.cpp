// runs.csv (resume), results.csv and results.md (medians, a Markdown table per figure, targets).
#include "engine/cli/experiment_report.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>

namespace syncscope::engine {
namespace {

constexpr const char* kRunsHeader =
    "mode,delay_percent,seed,config,time_to_target_s,accuracy_at_fixed_time,fixed_time_s,final_accuracy,samples_per_s,"
    "staleness_mean,staleness_p99,applied,dropped,training_s,recording";

std::string number(double v, const char* format = "%.6g") {
    char text[64];
    std::snprintf(text, sizeof text, format, v);
    return text;
}

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> fields;
    std::stringstream in(line);
    for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    return fields;
}

bool parseRow(const std::string& line, RunRow& r) {
    const auto f = splitCsv(line);
    if (f.size() != 15) return false;
    try {
        r.mode = f[0];
        r.delayPercent = std::stoi(f[1]);
        r.seed = std::stoull(f[2]);
        r.config = f[3];
        if (!f[4].empty()) r.metrics.timeToTarget = std::stod(f[4]);
        r.metrics.accuracyAtFixedTime = std::stod(f[5]);
        r.fixedTime = std::stod(f[6]);
        r.metrics.finalAccuracy = std::stod(f[7]);
        r.metrics.samplesPerSecond = std::stod(f[8]);
        r.metrics.stalenessMean = std::stod(f[9]);
        r.metrics.stalenessP99 = std::stod(f[10]);
        r.metrics.applied = std::stoull(f[11]);
        r.metrics.dropped = std::stoull(f[12]);
        r.metrics.trainingSeconds = std::stod(f[13]);
        r.recording = f[14];
    } catch (const std::logic_error&) {  // std::invalid_argument, std::out_of_range
        return false;
    }
    return true;
}

Status cannotWrite(const std::string& path) {
    return unavailable("cannot write '" + path + "': " + std::strerror(errno) + "; check that --out is writable");
}

}  // namespace

Result<std::vector<RunRow>> readRunsCsv(const std::string& path, std::string* warning) {
    std::vector<RunRow> rows;
    std::ifstream in(path);
    if (!in) return rows;  // a new experiment
    std::string line;
    std::getline(in, line);
    if (line != kRunsHeader)
        return invalidArgument("'" + path + "' is not a runs.csv of this version of `experiment` (its header differs); "
                               "move it away or pick another --out");
    for (int lineNo = 2; std::getline(in, line); ++lineNo) {
        RunRow r;
        if (parseRow(line, r)) rows.push_back(std::move(r));
        else if (warning) *warning += "skipped malformed line " + std::to_string(lineNo) + " of '" + path + "'; ";
    }
    return rows;
}

bool refreshMetrics(std::vector<RunRow>& rows, const ExperimentSpec& spec, std::string* warning) {
    bool changed = false;
    for (RunRow& r : rows) {
        auto m = measureRun(r.recording, spec.targetAccuracyPercent / 100.0, spec.fixedTimeSeconds);
        if (!m) {
            *warning += "the figures of " + r.mode + " +" + std::to_string(r.delayPercent) + "% seed " +
                        std::to_string(r.seed) + " are runs.csv's, not measured again (" + m.status().message() + "); ";
            continue;
        }
        // runs.csv keeps 6 significant digits
        const auto differ = [](double a, double b) { return std::fabs(a - b) > 1e-5 * std::max(1.0, std::fabs(b)); };
        const bool timeChanged = r.metrics.timeToTarget.has_value() != m->timeToTarget.has_value() ||
                                 (m->timeToTarget && differ(*r.metrics.timeToTarget, *m->timeToTarget));
        if (timeChanged || r.fixedTime != spec.fixedTimeSeconds || differ(r.metrics.accuracyAtFixedTime, m->accuracyAtFixedTime))
            changed = true;
        r.metrics = *m;
        r.fixedTime = spec.fixedTimeSeconds;
    }
    return changed;
}

Status writeRunsCsv(const std::string& path, const std::vector<RunRow>& rows) {
    if (rows.empty()) return Status::ok();
    const std::string temporary = path + ".new";
    std::remove(temporary.c_str());
    for (const RunRow& r : rows)
        if (Status s = appendRunsCsv(temporary, r); !s) return s;
    if (std::rename(temporary.c_str(), path.c_str()) != 0) return cannotWrite(path);
    return Status::ok();
}

Status appendRunsCsv(const std::string& path, const RunRow& r) {
    const bool fresh = !std::ifstream(path).good();
    std::ofstream out(path, std::ios::app);
    if (fresh) out << kRunsHeader << '\n';
    const RunMetrics& m = r.metrics;
    out << r.mode << ',' << r.delayPercent << ',' << r.seed << ',' << r.config << ','
        << (m.timeToTarget ? number(*m.timeToTarget) : "") << ',' << number(m.accuracyAtFixedTime) << ','
        << number(r.fixedTime) << ',' << number(m.finalAccuracy) << ',' << number(m.samplesPerSecond) << ',' << number(m.stalenessMean) << ','
        << number(m.stalenessP99) << ',' << m.applied << ',' << m.dropped << ',' << number(m.trainingSeconds) << ','
        << r.recording << '\n';
    out.flush();
    return out ? Status::ok() : cannotWrite(path);
}

std::vector<RunRow> rowsOfSpec(const ExperimentSpec& spec, const std::vector<RunRow>& rows) {
    std::vector<RunRow> kept;
    for (const auto& mode : spec.modes)
        for (int delay : spec.delaysPercent)
            for (uint64_t seed : spec.seeds) {
                const std::string config = configHash(runArguments(spec, mode, delay, seed, ""));
                for (const RunRow& r : rows)
                    if (r.mode == mode.name && r.delayPercent == delay && r.seed == seed && r.config == config) {
                        kept.push_back(r);
                        break;
                    }
            }
    return kept;
}

std::vector<CellSummary> summariseCells(const ExperimentSpec& spec, const std::vector<RunRow>& rows) {
    std::vector<CellSummary> cells;
    for (const auto& mode : spec.modes)
        for (int delay : spec.delaysPercent) {
            std::vector<RunMetrics> runs;
            for (uint64_t seed : spec.seeds) {
                const std::string config = configHash(runArguments(spec, mode, delay, seed, ""));
                auto it = std::find_if(rows.begin(), rows.end(),
                                       [&](const RunRow& r) { return r.mode == mode.name && r.config == config; });
                if (it != rows.end()) runs.push_back(it->metrics);
            }
            if (!runs.empty()) cells.push_back(summarise(mode.name, delay, runs));
        }
    return cells;
}

namespace {

std::string familyOf(const ExperimentSpec& spec, const std::string& mode) {
    for (const auto& m : spec.modes)
        if (m.name == mode) return m.family();
    return {};
}

const CellSummary* findCell(const std::vector<CellSummary>& cells, const ExperimentSpec& spec, int delay,
                            const std::function<bool(const std::string& family)>& wanted) {
    const CellSummary* best = nullptr;
    for (const auto& c : cells)
        if (c.delayPercent == delay && wanted(familyOf(spec, c.mode)) && c.timeToTarget &&
            (!best || *c.timeToTarget < *best->timeToTarget))
            best = &c;
    return best;
}

std::string stragglerTarget(const ExperimentSpec& spec, const std::vector<CellSummary>& cells) {
    const std::string name = "Target 1 (at 300% delay, the best of grouped/auto reaches " +
                             number(spec.targetAccuracyPercent) + "% within 1.2x bsp's time at 0%, final accuracy within 1 point): ";
    auto isBsp = [](const std::string& f) { return f == "bsp"; };
    auto isHybrid = [](const std::string& f) { return f == "grouped" || f == "auto"; };
    const CellSummary* bsp = findCell(cells, spec, 0, isBsp);
    if (!bsp) return name + "not evaluated: needs bsp at 0% delay reaching the target";
    const double limit = 1.2 * *bsp->timeToTarget;
    const CellSummary* best = findCell(cells, spec, 300, isHybrid);
    if (!best) {
        const bool ran = std::any_of(cells.begin(), cells.end(), [&](const CellSummary& c) {
            return c.delayPercent == 300 && isHybrid(familyOf(spec, c.mode));
        });
        return name + (ran ? "MISSED: no grouped/auto mode reached the target at 300% within the " +
                                 number(spec.maxSeconds) + " s cap (limit " + number(limit, "%.1f") + " s)"
                           : "not evaluated: no grouped or auto mode at 300% delay in this experiment");
    }
    const double ratio = *best->timeToTarget / *bsp->timeToTarget;
    const double pointsLost = 100 * (bsp->finalAccuracy - best->finalAccuracy);
    const bool timeMet = ratio <= 1.2, accuracyMet = pointsLost <= 1.0;
    std::string line = name + (timeMet && accuracyMet ? "MET" : "MISSED") + ": " + best->mode + " took " +
                       number(*best->timeToTarget, "%.1f") + " s = " + number(ratio, "%.2f") + "x bsp's " +
                       number(*bsp->timeToTarget, "%.1f") + " s (limit 1.2x";
    line += timeMet ? ")" : ", over by " + number(*best->timeToTarget - limit, "%.1f") + " s)";
    line += "; final accuracy " + number(100 * best->finalAccuracy, "%.2f") + "% vs " +
            number(100 * bsp->finalAccuracy, "%.2f") + "% (" + number(-pointsLost, "%+.2f") + " points, limit -1";
    line += accuracyMet ? ")" : ", over by " + number(pointsLost - 1.0, "%.2f") + " points)";
    return line;
}

std::string autoTarget(const ExperimentSpec& spec, const std::vector<CellSummary>& cells) {
    const std::string name = "Target 2 (auto within 1.1x of the best fixed mode's time to " +
                             number(spec.targetAccuracyPercent) + "% at every delay): ";
    auto isAuto = [](const std::string& f) { return f == "auto"; };
    auto isFixed = [](const std::string& f) { return f != "auto"; };
    const bool hasAuto = std::any_of(spec.modes.begin(), spec.modes.end(), [](const auto& m) { return m.family() == "auto"; });
    if (!hasAuto) return name + "not evaluated: no auto mode in this experiment";
    bool met = true;
    double worst = 0;
    std::string detail;
    for (int delay : spec.delaysPercent) {
        const CellSummary* fixed = findCell(cells, spec, delay, isFixed);
        const CellSummary* autoCell = findCell(cells, spec, delay, isAuto);
        detail += "; " + std::to_string(delay) + "%: ";
        if (!fixed) {
            detail += "no fixed mode reached the target";
            continue;
        }
        if (!autoCell) {
            met = false;
            detail += "auto did not reach the target (best fixed: " + fixed->mode + " " +
                      number(*fixed->timeToTarget, "%.1f") + " s)";
            continue;
        }
        const double ratio = *autoCell->timeToTarget / *fixed->timeToTarget;
        worst = std::max(worst, ratio);
        met = met && ratio <= 1.1;
        detail += number(ratio, "%.2f") + "x " + fixed->mode + (ratio <= 1.1 ? "" : " (over by " + number(ratio - 1.1, "%.2f") + "x)");
    }
    return name + (met ? "MET" : "MISSED") + " (worst " + number(worst, "%.2f") + "x)" + detail;
}

}  // namespace

std::vector<std::string> targetLines(const ExperimentSpec& spec, const std::vector<CellSummary>& cells) {
    return {stragglerTarget(spec, cells), autoTarget(spec, cells)};
}

Status writeResultsCsv(const std::string& path, const ExperimentSpec& spec, const std::vector<CellSummary>& cells) {
    std::ofstream out(path, std::ios::trunc);
    out << "mode,family,delay_percent,runs,reached,time_to_target_s,accuracy_at_fixed_time,samples_per_s,"
           "staleness_mean,staleness_p99,dropped,final_accuracy,target_percent,fixed_time_s\n";
    for (const auto& c : cells)
        out << c.mode << ',' << familyOf(spec, c.mode) << ',' << c.delayPercent << ',' << c.runs << ',' << c.reached
            << ',' << (c.timeToTarget ? number(*c.timeToTarget) : "") << ',' << number(c.accuracyAtFixedTime) << ','
            << number(c.samplesPerSecond) << ',' << number(c.stalenessMean) << ',' << number(c.stalenessP99) << ','
            << number(c.dropped) << ',' << number(c.finalAccuracy) << ',' << number(spec.targetAccuracyPercent) << ','
            << number(spec.fixedTimeSeconds) << '\n';
    out.flush();
    return out ? Status::ok() : cannotWrite(path);
}

namespace {

void table(std::ostream& out, const ExperimentSpec& spec, const std::vector<CellSummary>& cells, const std::string& title,
           const std::function<std::string(const CellSummary&)>& cell) {
    out << "\n### " << title << "\n\n| mode |";
    for (int d : spec.delaysPercent) out << ' ' << d << "% |";
    out << "\n|---|";
    for (size_t i = 0; i < spec.delaysPercent.size(); ++i) out << "---:|";
    out << '\n';
    for (const auto& mode : spec.modes) {
        out << "| " << mode.name << " |";
        for (int d : spec.delaysPercent) {
            auto it = std::find_if(cells.begin(), cells.end(),
                                   [&](const CellSummary& c) { return c.mode == mode.name && c.delayPercent == d; });
            out << ' ' << (it == cells.end() ? std::string("") : cell(*it)) << " |";
        }
        out << '\n';
    }
}

std::string percent(double fraction) { return fraction < 0 ? "-" : number(100 * fraction, "%.1f"); }

}  // namespace

Status writeResultsMarkdown(const std::string& path, const ExperimentSpec& spec, const std::vector<CellSummary>& cells,
                            const std::string& command) {
    std::ofstream out(path, std::ios::trunc);
    const std::string target = number(spec.targetAccuracyPercent);
    out << "# Experiment '" << spec.name << "': results\n\n"
        << spec.workers << " workers, model " << spec.model << ", worker " << spec.straggler
        << " slowed by the delay in each column ("
        << (spec.delayBaseMs > 0 ? "a fixed extra delay of delay/100 x " + number(spec.delayBaseMs) + " ms per iteration"
                                 : std::string("slowdown factor 1 + delay/100 on its compute time"))
        << "); " << spec.seeds.size()
        << " seed(s), the median over seeds in every cell; each run stops at " << target << "% test accuracy"
        << (spec.runToCap ? " (no: --run-to-cap)" : "") << " or after " << number(spec.maxSeconds)
        << " s of training.\n\nCommand: `" << command << "`\n";
    table(out, spec, cells, "Time to " + target + "% test accuracy (s; \"-\": not reached by most seeds; (k/n): k of n seeds reached it)",
          [](const CellSummary& c) {
              std::string text = c.timeToTarget ? number(*c.timeToTarget, "%.1f") : "-";
              if (c.reached > 0 && c.reached < c.runs) text += " (" + std::to_string(c.reached) + "/" + std::to_string(c.runs) + ")";
              return text;
          });
    table(out, spec, cells, "Test accuracy at " + number(spec.fixedTimeSeconds) + " s (%; final accuracy if the run ended sooner)",
          [](const CellSummary& c) { return percent(c.accuracyAtFixedTime); });
    table(out, spec, cells, "Samples/s computed (all workers, mean over the run; dropped gradients count too)",
          [](const CellSummary& c) { return number(c.samplesPerSecond, "%.0f"); });
    table(out, spec, cells, "Staleness of applied gradients: mean",
          [](const CellSummary& c) { return number(c.stalenessMean, "%.2f"); });
    table(out, spec, cells, "Staleness of applied gradients: p99",
          [](const CellSummary& c) { return number(c.stalenessP99, "%.0f"); });
    table(out, spec, cells, "Dropped gradients", [](const CellSummary& c) { return number(c.dropped, "%.0f"); });
    table(out, spec, cells, "Final test accuracy (%)", [](const CellSummary& c) { return percent(c.finalAccuracy); });
    if (spec.seedsTargets) {
        out << "\n### Targets (issue 5, point 6)\n\n";
        for (const auto& line : targetLines(spec, cells)) out << "- " << line << '\n';
    }
    out.flush();
    return out ? Status::ok() : cannotWrite(path);
}

}  // namespace syncscope::engine
