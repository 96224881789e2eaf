// `experiment`: plans the grid (each cell's `run` flags become its run plan, every one checked before
// the first run starts), runs each cell as a child `syncscope-engine run --plan FILE` recording to
// its file, appends its figures to runs.csv as it finishes (so an interrupted experiment resumes
// where it stopped), then writes the medians and asks syncscope-plot for PNGs.
#include "engine/cli/experiment_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "engine/cli/claims.h"
#include "engine/cli/claims_report.h"
#include "engine/cli/prediction_report.h"
#include "engine/cli/cli_errors.h"
#include "engine/cli/json_output.h"
#include "engine/cli/experiment_report.h"
#include "engine/cli/reproduction_spec.h"
#include "engine/cli/run_options.h"
#include "engine/core/process_signals.h"
#include "engine/core/process_launcher.h"
#include "engine/core/progress_bar.h"
#include "engine/plan/run_plan.h"

namespace syncscope::engine {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct ExperimentFlags {
    std::string spec, out = "experiment-results", data, stragglerKind;
    std::vector<int> delays;
    std::vector<std::string> modes;
    std::vector<uint64_t> seeds;
    unsigned workers = 8;
    double maxSeconds = 20, fixedTime = 5, delayBaseMs = 8;
    bool runToCap = false, dryRun = false, noPlots = false, json = false, quick = false;
    bool gridJson = true;  ///< print the grid's JSON (a reproduction prints its claims' instead)
    CLI::App* cmd = nullptr;
    bool given(const char* flag) const { return cmd->count(flag) > 0; }
};

struct PlannedRun {
    const ExperimentMode* mode;
    int delay;
    uint64_t seed;
    std::vector<std::string> args;  // the `run` command a person would type (without --record): shown, hashed
    std::string config;
    wire::RunPlan runPlan;          // what the args say, checked (its recording is set when it runs)
    std::string label() const {
        return mode->name + " +" + std::to_string(delay) + "% seed " + std::to_string(seed);
    }
    std::string fileStem() const {
        return mode->name + "_d" + std::to_string(delay) + "_s" + std::to_string(seed);
    }
};

Result<ExperimentSpec> effectiveSpec(const ExperimentFlags& f) {
    ExperimentSpec spec = seedsProtocol();
    if (!f.spec.empty()) {
        auto loaded = loadExperimentSpec(f.spec);
        if (!loaded) return loaded.status();
        spec = std::move(*loaded);
    }
    if (f.given("--delays")) spec.delaysPercent = f.delays;
    if (f.given("--seeds")) spec.seeds = f.seeds;
    if (f.given("--workers")) spec.workers = f.workers;
    if (f.given("--delay-base-ms")) spec.delayBaseMs = f.delayBaseMs;
    if (f.given("--straggler-kind")) spec.stragglerKind = f.stragglerKind;
    if (f.given("--max-seconds")) spec.maxSeconds = f.maxSeconds;
    if (f.given("--fixed-time")) spec.fixedTimeSeconds = f.fixedTime;
    if (f.runToCap) spec.runToCap = true;
    if (!f.data.empty()) spec.dataDir = f.data;
    if (f.given("--modes"))
        if (Status s = selectModes(spec, f.modes); !s) return s;
    if (Status s = validateSpec(spec); !s) return s;
    return spec;
}

std::string joined(const std::vector<std::string>& parts, const char* separator = " ") {
    std::string text;
    for (const auto& p : parts) text += (text.empty() ? "" : separator) + p;
    return text;
}

// `run`'s flags (args[0] is "run") read as `run` reads them, into its run plan.
Result<wire::RunPlan> runPlanOf(const std::vector<std::string>& args) {
    CLI::App app;
    RunOptions options;
    addPlacementOptions(app, options);
    addRunOptions(app, options, true);
    std::vector<std::string> flags(args.begin() + 1, args.end());
    std::reverse(flags.begin(), flags.end());  // CLI11 takes them last first
    try {
        app.parse(flags);
    } catch (const CLI::ParseError& e) {
        return invalidArgument(e.what());
    }
    return toRunPlan(options);
}

Result<std::vector<PlannedRun>> plan(const ExperimentSpec& spec) {
    // Seeds outermost: after each seed the tables are complete, an interruption costs least.
    std::vector<PlannedRun> runs;
    for (uint64_t seed : spec.seeds)
        for (int delay : spec.delaysPercent)
            for (const auto& mode : spec.modes) {
                PlannedRun r{&mode, delay, seed, runArguments(spec, mode, delay, seed, ""), {}, {}};
                r.config = configHash(r.args);
                auto runPlan = runPlanOf(r.args);
                if (!runPlan)
                    return invalidArgument("run " + r.label() + ": " + runPlan.status().message() +
                                           "; fix the spec's flags (its run: syncscope-engine " + joined(r.args) + ")");
                r.runPlan = std::move(*runPlan);
                runs.push_back(std::move(r));
            }
    return runs;
}


std::string equivalentCommand(const ExperimentSpec& spec, const ExperimentFlags& f) {
    std::vector<std::string> modes, delays, seeds;
    for (const auto& m : spec.modes) modes.push_back(m.name);
    for (int d : spec.delaysPercent) delays.push_back(std::to_string(d));
    for (uint64_t s : spec.seeds) seeds.push_back(std::to_string(s));
    char numbers[128];
    std::snprintf(numbers, sizeof numbers, " --workers %u --max-seconds %g --fixed-time %g", spec.workers,
                  spec.maxSeconds, spec.fixedTimeSeconds);
    return "syncscope-engine experiment" + (f.spec.empty() ? std::string() : " --spec " + f.spec) + " --modes " +
           joined(modes, ",") + " --delays " + joined(delays, ",") + " --seeds " + joined(seeds, ",") + numbers +
           (spec.runToCap ? " --run-to-cap" : "") + (f.data.empty() ? "" : " --data " + f.data) + " --out " + f.out;
}

/// Starts a run with stdout and stderr into logPath. The child dies with us (SIGTERM, so it stops
/// its own cluster) and stays in our process group, so Ctrl-C reaches it too.
Result<pid_t> spawn(ProcessLauncher& launcher, const std::vector<std::string>& args, const std::string& logPath) {
    const int log = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log < 0) return unavailable("cannot create the log '" + logPath + "': " + std::strerror(errno));
    LaunchOptions options;
    options.stdoutFd = options.stderrFd = log;
    options.deathSignal = SIGTERM;
    options.ownProcessGroup = false;
    auto pid = launcher.start(selfExecutable(), args, options);
    ::close(log);
    return pid;
}

/// Waits for a child while redrawing the progress bar; forwards an interruption to it.
int waitForRun(ProcessLauncher& launcher, pid_t pid, ProgressBar& bar, long long done, long long total,
               const std::string& label, double cap, double etaSeconds) {
    const auto start = Clock::now();
    bool forwarded = false;
    for (;;) {
        int exitCode = -1;
        if (!launcher.running(pid, &exitCode)) return exitCode;
        if (catchInterrupts().load() && !forwarded) {
            ::kill(pid, SIGINT);  // `run` stops its cluster and exits; a second Ctrl-C is not needed
            forwarded = true;
        }
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        char suffix[256];
        std::snprintf(suffix, sizeof suffix, "run %lld/%lld  %s  %.0fs (cap %.0fs)%s", done + 1, total, label.c_str(),
                      elapsed, cap, etaSeconds > 0 ? ("  ETA " + std::to_string(int(etaSeconds / 60 + 1)) + " min").c_str() : "");
        bar.update(done, total, suffix);
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
}

std::string findPlotTool() {
    const fs::path beside = fs::path(selfExecutable()).parent_path() / "syncscope-plot";
    if (::access(beside.c_str(), X_OK) == 0) return beside.string();
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');)
        if (!dir.empty() && ::access((fs::path(dir) / "syncscope-plot").c_str(), X_OK) == 0)
            return (fs::path(dir) / "syncscope-plot").string();
    return {};
}

/// syncscope-plot on `input` (a grid's results.csv or a reproduction's claims.json), PNGs into out.
void makePlots(const std::string& input, const std::string& out, bool skip, bool json) {
    const std::string tool = skip ? std::string() : findPlotTool();
    if (tool.empty()) {
        std::fprintf(textOutput(json), "plots: run `syncscope-plot %s --out %s` (built with the console, SYNCSCOPE_GUI=ON)\n",
                     input.c_str(), out.c_str());
        return;
    }
    ProcessLauncher launcher;
    LaunchOptions options;
    if (json) options.stdoutFd = STDERR_FILENO;  // standard output holds the JSON alone
    auto pid = launcher.start(tool, {input, "--out", out}, options);
    int exitCode = -1;
    while (pid && launcher.running(*pid, &exitCode)) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!pid || exitCode != 0)
        std::fprintf(stderr, "warning: %s failed; the tables are written, the plots are not\n", tool.c_str());
}

struct Progress {
    long long done = 0, total = 0;
    int ran = 0, failed = 0;
    double secondsRunning = 0;
};

void runOne(const ExperimentSpec& spec, const ExperimentFlags& f, const PlannedRun& p, ProgressBar& bar, Progress& progress) {
    const fs::path out(f.out);
    const std::string recording = (out / "recordings" / (p.fileStem() + ".ssrec")).string();
    const std::string log = (out / "logs" / (p.fileStem() + ".log")).string();
    const std::string planFile = (out / "plans" / (p.fileStem() + ".plan")).string();
    wire::RunPlan runPlan = p.runPlan;
    runPlan.set_record_path(recording);
    const std::vector<std::string> args{"run", "--plan", planFile};
    const Status written = writeRunPlan(planFile, runPlan);
    const double eta = progress.ran ? progress.secondsRunning / progress.ran * double(progress.total - progress.done) : 0;
    const auto start = Clock::now();
    ProcessLauncher launcher;
    auto pid = written ? spawn(launcher, args, log) : Result<pid_t>(written);
    const int exit =
        pid ? waitForRun(launcher, *pid, bar, progress.done, progress.total, p.label(), spec.maxSeconds, eta) : -1;
    progress.secondsRunning += std::chrono::duration<double>(Clock::now() - start).count();
    ++progress.ran;
    if (catchInterrupts().load()) return;
    auto metrics = exit == 0 ? measureRun(recording, spec.targetAccuracyPercent / 100.0, spec.fixedTimeSeconds)
                             : Result<RunMetrics>(unavailable(pid ? "exit code " + std::to_string(exit) : pid.status().message()));
    if (!metrics) {
        ++progress.failed;
        bar.keep(++progress.done, progress.total, p.label() + ": FAILED (" + metrics.status().message() + "); see " + log);
        return;
    }
    RunRow row{p.mode->name, p.delay, p.seed, p.config, *metrics, spec.fixedTimeSeconds, recording};
    if (Status s = appendRunsCsv((out / "runs.csv").string(), row); !s) std::fprintf(stderr, "error: %s\n", s.message().c_str());
    const RunMetrics& m = *metrics;
    char summary[256];
    std::snprintf(summary, sizeof summary, "%s: %s, final %.1f%%, %.0f samples/s, staleness %.2f", p.label().c_str(),
                  m.timeToTarget ? fmt::format("target at {:.2f} s", *m.timeToTarget).c_str() : "target not reached",
                  100 * m.finalAccuracy, m.samplesPerSecond, m.stalenessMean);
    bar.keep(++progress.done, progress.total, summary);
}

template <typename Finished>
nlohmann::json planJson(const ExperimentSpec& spec, const std::vector<PlannedRun>& runs, const Finished& finished) {
    nlohmann::json planned = nlohmann::json::array();
    for (const auto& p : runs)
        planned.push_back({{"mode", p.mode->name}, {"delay_percent", p.delay}, {"seed", p.seed},
                           {"done", finished(p)}, {"args", p.args}});
    return {{"command", "experiment"}, {"spec", spec.name}, {"dry_run", true}, {"runs", planned}};
}

nlohmann::json resultsJson(const ExperimentSpec& spec, const ExperimentFlags& f, const Progress& progress,
                           const std::vector<CellSummary>& cells) {
    auto optional = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
    nlohmann::json rows = nlohmann::json::array();
    for (const CellSummary& c : cells)
        rows.push_back({{"mode", c.mode}, {"delay_percent", c.delayPercent}, {"runs", c.runs}, {"reached", c.reached},
                        {"time_to_target_s", optional(c.timeToTarget)}, {"accuracy_at_fixed_time", c.accuracyAtFixedTime},
                        {"final_accuracy", c.finalAccuracy}, {"samples_per_s", c.samplesPerSecond},
                        {"staleness_mean", c.stalenessMean}, {"staleness_p99", c.stalenessP99}, {"dropped", c.dropped}});
    const fs::path out(f.out);
    return {{"command", "experiment"}, {"spec", spec.name}, {"out", f.out}, {"runs_total", progress.total},
            {"runs_done", progress.done}, {"runs_failed", progress.failed}, {"interrupted", catchInterrupts().load()},
            {"results_csv", (out / "results.csv").string()}, {"results_md", (out / "results.md").string()},
            {"cells", rows}};
}

/// Runs one grid into f.out (runs already in its runs.csv are skipped) and writes its tables and
/// plots; `rowsOut` gets the finished runs of this plan. Exit code: 0, 3 (a run failed), 130
/// (interrupted), or an error's.
int runGrid(const ExperimentSpec& grid, const ExperimentFlags& f, std::vector<RunRow>* rowsOut = nullptr) {
    const auto planned = plan(grid);  // every run's plan checked before the first one starts
    if (!planned) return printError(planned.status());
    const std::vector<PlannedRun>& runs = *planned;
    std::error_code error;
    for (const char* sub : {"recordings", "logs", "plans"}) fs::create_directories(fs::path(f.out) / sub, error);
    if (error) return printError(unavailable("cannot create '" + f.out + "': " + error.message() + "; pick another --out"));
    const std::string runsCsv = (fs::path(f.out) / "runs.csv").string();
    std::string warning;
    auto rows = readRunsCsv(runsCsv, &warning);
    if (!rows) return printError(rows.status());
    if (!warning.empty()) std::fprintf(stderr, "warning: %s\n", warning.c_str());
    auto finished = [&](const PlannedRun& p) {
        return std::any_of(rows->begin(), rows->end(), [&](const RunRow& r) { return r.mode == p.mode->name && r.config == p.config; });
    };
    Progress progress;
    progress.total = static_cast<long long>(runs.size());
    for (const auto& p : runs) progress.done += finished(p) ? 1 : 0;
    std::FILE* text = textOutput(f.json);
    std::fprintf(text, "%s: %lld runs, %lld already in %s, each at most %g s of training\n", grid.name.c_str(),
                 progress.total, progress.done, runsCsv.c_str(), grid.maxSeconds);
    if (f.dryRun) {
        for (const auto& p : runs) std::fprintf(text, "%s syncscope-engine %s\n", finished(p) ? "done" : "todo", joined(p.args).c_str());
        if (f.json && f.gridJson) printJson(planJson(grid, runs, finished));
        return 0;
    }
    std::fflush(stdout);
    catchInterrupts();
    ProgressBar bar;
    for (const auto& p : runs) {
        if (catchInterrupts().load()) break;
        if (!finished(p)) runOne(grid, f, p, bar, progress);
    }
    bar.finish();
    auto all = readRunsCsv(runsCsv, nullptr);
    if (!all) return printError(all.status());
    warning.clear();
    if (refreshMetrics(*all, grid, &warning))  // runs.csv agrees with the tables and claims made from it
        if (Status s = writeRunsCsv(runsCsv, *all); !s) std::fprintf(stderr, "error: %s\n", s.message().c_str());
    if (!warning.empty()) std::fprintf(stderr, "warning: %s\n", warning.c_str());
    if (rowsOut) *rowsOut = rowsOfSpec(grid, *all);
    const auto cells = summariseCells(grid, *all);
    const std::string results = (fs::path(f.out) / "results.md").string();
    if (Status s = writeResultsCsv((fs::path(f.out) / "results.csv").string(), grid, cells); !s) return printError(s);
    if (Status s = writeResultsMarkdown(results, grid, cells, equivalentCommand(grid, f)); !s) return printError(s);
    std::ifstream md(results);
    std::fprintf(text, "\n%s\n", std::string(std::istreambuf_iterator<char>(md), {}).c_str());
    if (f.json && f.gridJson) printJson(resultsJson(grid, f, progress, cells));
    if (catchInterrupts().load()) {
        std::fprintf(stderr, "interrupted: %lld of %lld runs done; run the same command again to continue\n",
                     progress.done, progress.total);
        return 130;
    }
    makePlots((fs::path(f.out) / "results.csv").string(), f.out, f.noPlots, f.json);
    if (progress.failed) return std::fprintf(stderr, "error: %d run(s) failed; see %s/logs\n", progress.failed, f.out.c_str()), 3;
    return 0;
}

const char* const kGridFlags[] = {"--modes", "--delays", "--seeds", "--workers", "--delay-base-ms", "--straggler-kind",
                                  "--max-seconds", "--fixed-time", "--run-to-cap"};

/// A reproduction: each part's grid into OUT/PART, then the claims on all of them into OUT/claims.md.
int runReproduction(const ExperimentFlags& f) {
    for (const char* flag : kGridFlags)
        if (f.given(flag))
            return printError(invalidArgument(std::string(flag) + " sets one grid, and " + f.spec +
                                              " has several parts: change the part's \"grid\" (or \"quick\") in the spec"));
    auto spec = loadReproductionSpec(f.spec, f.quick);
    if (!spec) return printError(spec.status());
    std::FILE* text = textOutput(f.json);
    size_t total = 0;
    for (auto& part : spec->parts) {
        if (!f.data.empty()) part.grid.dataDir = f.data;
        total += part.grid.modes.size() * part.grid.delaysPercent.size() * part.grid.seeds.size();
    }
    std::fprintf(text, "%s%s: %zu parts, %zu runs in all, into %s/PART\n", spec->name.c_str(), f.quick ? " (quick)" : "",
                 spec->parts.size(), total, f.out.c_str());
    std::map<std::string, std::vector<RunRow>> rows;
    int worst = 0;
    for (const auto& part : spec->parts) {
        std::fprintf(text, "\n== part %s ==\n", part.name.c_str());
        std::fflush(text);
        ExperimentFlags partFlags = f;
        partFlags.out = (fs::path(f.out) / part.name).string();
        partFlags.gridJson = false;  // text still goes to standard error with --json
        const int code = runGrid(part.grid, partFlags, &rows[part.name]);
        if (code == 130 || (code != 0 && code != 3)) return code;
        worst = std::max(worst, code);
    }
    if (f.dryRun) return 0;
    const auto results = evaluateClaims(*spec, rows);
    const std::string claims = (fs::path(f.out) / "claims.md").string();
    const std::string command = "syncscope-engine experiment --spec " + f.spec + (f.quick ? " --quick" : "") + " --out " + f.out;
    if (Status s = writeClaimsMarkdown(claims, *spec, results, command); !s) return printError(s);
    const std::string claimsJson = (fs::path(f.out) / "claims.json").string();
    if (Status s = writeClaimsJson(claimsJson, *spec, results, command); !s) return printError(s);
    makePlots(claimsJson, f.out, f.noPlots, f.json);
    const std::string predictions = (fs::path(f.out) / "predictions.md").string();
    if (Status s = writePredictionsReport(predictions, f.out, *spec, rows, text); !s) return printError(s);
    std::fprintf(text, "\n");
    for (const auto& r : results)
        std::fprintf(text, "%-16s %s: %s\n", verdictText(r.verdict), r.claim->title.c_str(), r.why.c_str());
    std::fprintf(text, "the claims, with every figure and interval: %s\n", claims.c_str());
    std::fprintf(text, "the what-if predictions against the runs: %s\n", predictions.c_str());
    if (f.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& r : results)
            list.push_back({{"title", r.claim->title}, {"kind", r.claim->kind}, {"verdict", verdictText(r.verdict)},
                            {"why", r.why}, {"figures", r.lines}});
        printJson({{"command", "experiment"}, {"spec", spec->name}, {"quick", f.quick}, {"out", f.out},
                   {"claims_md", claims}, {"claims_json", claimsJson}, {"predictions_md", predictions}, {"claims", list}});
    }
    return worst;
}

int runExperiment(const ExperimentFlags& f) {
    if (!f.spec.empty() && isReproductionSpec(f.spec)) return runReproduction(f);
    if (f.quick)
        return printError(invalidArgument("--quick needs a spec with \"parts\", e.g. resources/experiments/seeds-reproduction.json"));
    auto spec = effectiveSpec(f);
    if (!spec) return printError(spec.status());
    return runGrid(*spec, f);
}

}  // namespace

void addExperimentCommand(CLI::App& app, int& exitCode) {
    auto f = std::make_shared<ExperimentFlags>();
    CLI::App* cmd = app.add_subcommand(
        "experiment", "Run the seeds' protocol (modes x straggler delays x seeds) and write results.csv/.md and plots");
    f->cmd = cmd;
    cmd->add_option("--spec", f->spec, "Experiment spec (JSON), e.g. resources/experiments/seeds-protocol.json; "
                                       "default: the built-in seeds' protocol")->check(CLI::ExistingFile);
    cmd->add_option("--modes", f->modes, "Modes to run, by name in the spec (default: all), e.g. bsp,asp,ssp-s3")->delimiter(',');
    cmd->add_option("--delay-base-ms", f->delayBaseMs,
                    "A normal iteration's time in ms: d% delay = a fixed d/100 x this per iteration (0: the "
                    "slowdown factor 1 + d/100 on the straggler's compute time)")
        ->check(CLI::Range(0.0, 10000.0));
    cmd->add_option("--straggler-kind", f->stragglerKind,
                    "inject: the straggler sleeps (--slowdown); cpu-quota: the kernel limits its process to "
                    "its fair share of the CPUs (min(1, CPUs/workers)) / (1+d/100) (cgroup v1 quota or cpulimit)")
        ->check(CLI::IsMember({"inject", "cpu-quota"}));
    cmd->add_option("--delays", f->delays, "Extra delay of the straggler in percent, e.g. 0,100,200,300,400")
        ->delimiter(',')->check(CLI::Range(0, 9900));
    cmd->add_option("--seeds", f->seeds, "Seeds, e.g. 1,2,3")->delimiter(',');
    cmd->add_option("--workers", f->workers, "Workers per run")->check(CLI::Range(1, 1024))->capture_default_str();
    cmd->add_option("--max-seconds", f->maxSeconds, "Time cap of one run (training seconds)")
        ->check(CLI::Range(0.1, 1e6))->capture_default_str();
    cmd->add_option("--fixed-time", f->fixedTime, "Report test accuracy at this many seconds of training")
        ->check(CLI::Range(0.1, 1e6))->capture_default_str();
    cmd->add_option("--out", f->out, "Folder for runs.csv, results.csv, results.md, the PNGs, recordings and logs")
        ->capture_default_str();
    cmd->add_option("--data", f->data, "Folder with the Fashion-MNIST IDX .gz files (default: run's default)");
    cmd->add_flag("--run-to-cap", f->runToCap, "Train every run until --max-seconds instead of stopping at the target");
    cmd->add_flag("--quick", f->quick,
                  "With a spec of several parts (seeds-reproduction.json): each part's quick variant, fewer seeds and "
                  "modes, to check the claims' direction in minutes");
    cmd->add_flag("--dry-run", f->dryRun, "Print the planned runs (done/todo) and their commands, run nothing");
    cmd->add_flag("--no-plots", f->noPlots, "Do not call syncscope-plot at the end");
    addJsonFlag(*cmd, f->json);
    cmd->callback([f, &exitCode] { exitCode = runExperiment(*f); });
}

}  // namespace syncscope::engine
