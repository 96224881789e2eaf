// `syncscope-engine experiment` end to end on a tiny grid (2 workers, bsp and asp, 0 and 100% delay,
// one seed, real local clusters): the files and their rows, plausible figures, resuming that skips
// finished runs, the shipped scenario file, and (with the console built) syncscope-plot's PNGs.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/engine_process.h"
#include "tests/integration/json_values.h"
#include "tests/unit/test_support.h"

using namespace syncscope::testing;
namespace fs = std::filesystem;

namespace {

using Row = std::map<std::string, std::string>;

// A CSV file as rows of column name -> text.
std::vector<Row> readCsv(const std::string& path) {
    if (!fs::exists(path)) return {};
    const std::vector<std::string> lines = split(readFile(path), '\n', true);
    if (lines.empty()) return {};
    const std::vector<std::string> header = split(lines.front(), ',');
    std::vector<Row> rows;
    for (size_t i = 1; i < lines.size(); ++i) {
        const std::vector<std::string> fields = split(lines[i], ',');
        Row row;
        for (size_t c = 0; c < header.size() && c < fields.size(); ++c) row[header[c]] = fields[c];
        rows.push_back(row);
    }
    return rows;
}

/// row[key], empty when absent (QMap::value).
std::string value(const Row& row, const std::string& key) {
    const auto it = row.find(key);
    return it == row.end() ? std::string() : it->second;
}

Row cell(const std::vector<Row>& rows, const std::string& mode, const std::string& delay) {
    for (const auto& row : rows)
        if (value(row, "mode") == mode && value(row, "delay_percent") == delay) return row;
    return {};
}

}  // namespace

// The tests run in this order and share the experiment's folder: the first runs the grid, the
// others read, resume and extend it.
class TestExperiment : public ::testing::Test {
protected:
    static void SetUpTestSuite() { s_dir = std::make_unique<TempDir>(); }
    static void TearDownTestSuite() { s_dir.reset(); }

    static Args tinyGrid(const std::string& seeds = "1", const std::string& fixedTime = "3") {
        return {"experiment", "--workers", "2", "--delays", "0,100", "--modes", "bsp,asp", "--seeds", seeds,
                "--max-seconds", "8", "--fixed-time", fixedTime, "--no-plots", "--data", SYNCSCOPE_FASHION_MNIST_DIR,
                "--out", s_dir->path()};
    }

    static std::unique_ptr<TempDir> s_dir;
};

std::unique_ptr<TempDir> TestExperiment::s_dir;

TEST_F(TestExperiment, tinyGridWritesTheTables) {
    ASSERT_TRUE(s_dir);
    const EngineRun run = runEngine(tinyGrid(), 180'000);
    ASSERT_TRUE(run.finished && run.exitCode == 0) << run.out + run.err;
    const auto runs = readCsv(s_dir->filePath("runs.csv"));
    ASSERT_EQ(runs.size(), size_t(4));
    const auto results = readCsv(s_dir->filePath("results.csv"));
    ASSERT_EQ(results.size(), size_t(4));
    for (const std::string mode : {"bsp", "asp"})
        for (const std::string delay : {"0", "100"}) {
            const auto row = cell(results, mode, delay);
            ASSERT_TRUE(!row.empty()) << mode + " at " + delay + "% is missing from results.csv";
            const double accuracy = toDouble(value(row, "final_accuracy"));
            ASSERT_TRUE(accuracy > 0 && accuracy <= 1) << mode + ": final accuracy " + value(row, "final_accuracy");
            const double atFixed = toDouble(value(row, "accuracy_at_fixed_time"));
            ASSERT_TRUE(atFixed > 0 && atFixed <= 1) << mode + ": accuracy at 3 s " + value(row, "accuracy_at_fixed_time");
            ASSERT_TRUE(toDouble(value(row, "samples_per_s")) > 0) << mode + ": no throughput";
            ASSERT_EQ(value(row, "runs"), std::string("1"));
        }
    // BSP applies every gradient on the version it was computed on; ASP cannot, with 2 workers.
    ASSERT_FUZZY_EQ(toDouble(value(cell(results, "bsp", "0"), "staleness_mean")), 0.0);
    ASSERT_TRUE(toDouble(value(cell(results, "asp", "0"), "staleness_mean")) > 0) << "asp shows no staleness";
    ASSERT_TRUE(fs::exists(s_dir->filePath("results.md")));
    const std::string text = readFile(s_dir->filePath("results.md"));
    ASSERT_TRUE(contains(text, "| mode | 0% | 100% |"));
    ASSERT_TRUE(contains(text, "| bsp |") && contains(text, "| asp |"));
    ASSERT_TRUE(contains(text, "Target 1") && contains(text, "Target 2")) << text;
    ASSERT_TRUE(fs::exists(s_dir->filePath("recordings/asp_d100_s1.ssrec")));
}

TEST_F(TestExperiment, rerunSkipsFinishedRuns) {
    ASSERT_TRUE(fs::exists(s_dir->filePath("runs.csv")));
    const std::string before = readFile(s_dir->filePath("runs.csv"));
    const Stopwatch timer;
    const EngineRun run = runEngine(tinyGrid(), 60'000);
    ASSERT_TRUE(run.finished && run.exitCode == 0) << run.err;
    ASSERT_TRUE(contains(run.out, "4 runs, 4 already in")) << run.out;
    ASSERT_TRUE(timer.elapsedMs() < 5000) << "a finished experiment must not run again";
    ASSERT_TRUE(fs::exists(s_dir->filePath("runs.csv")));
    ASSERT_EQ(readFile(s_dir->filePath("runs.csv")), before);
    // Another fixed time is read from the recordings again, without training.
    const EngineRun later = runEngine(tinyGrid("1", "1.5"), 60'000);
    ASSERT_TRUE(later.exitCode == 0 && contains(later.out, "4 runs, 4 already in")) << later.out + later.err;
    for (const auto& row : readCsv(s_dir->filePath("results.csv"))) ASSERT_EQ(value(row, "fixed_time_s"), std::string("1.5"));
    // --json: the same results as one JSON object on standard output, the tables on standard error.
    const EngineRun json = runEngine(tinyGrid() + Args{"--json"}, 60'000);
    ASSERT_TRUE(json.exitCode == 0) << json.err;
    const Json results = jsonObject(parseJson(json.out));
    ASSERT_EQ(jsonString(jsonMember(results, "command")), std::string("experiment"));
    ASSERT_EQ(jsonArray(jsonMember(results, "cells")).size(), size_t(4));
    for (const Json& c : jsonArray(jsonMember(results, "cells"))) {
        const Json& cellJson = jsonObject(c);
        const auto row = cell(readCsv(s_dir->filePath("results.csv")), jsonString(jsonMember(cellJson, "mode")),
                              std::to_string(jsonInt(jsonMember(cellJson, "delay_percent"))));
        const double fromJson = jsonDouble(jsonMember(cellJson, "final_accuracy"));
        ASSERT_TRUE(fromJson > 0 && std::abs(fromJson - toDouble(value(row, "final_accuracy"))) < 1e-4)
            << fromJson << " vs " << value(row, "final_accuracy");
    }
    ASSERT_TRUE(contains(json.err, "4 runs, 4 already in")) << json.err;
    // runs.csv was written again for each fixed time, and is back where it began.
    ASSERT_EQ(readFile(s_dir->filePath("runs.csv")), before);
    // A figure written under another rule (here a time to target 5 s late, as when it was the time the
    // coordinator knew it) is measured again from the recording, and runs.csv agrees with it again.
    {
        std::vector<std::string> lines = split(before, '\n', true);
        bool tampered = false;
        for (size_t i = 1; i < lines.size() && !tampered; ++i) {
            std::vector<std::string> fields = split(lines[i], ',', false);
            if (fields.size() < 5 || fields[4].empty()) continue;
            fields[4] = std::to_string(toDouble(fields[4]) + 5.0);
            std::string line;
            for (size_t f = 0; f < fields.size(); ++f) line += (f ? "," : "") + fields[f];
            lines[i] = line;
            tampered = true;
        }
        ASSERT_TRUE(tampered) << "no run reached the target:\n" << before;
        std::string text;
        for (const std::string& line : lines) text += line + "\n";
        ASSERT_TRUE(writeFile(s_dir->filePath("runs.csv"), text));
        ASSERT_NE(readFile(s_dir->filePath("runs.csv")), before);
        const EngineRun again = runEngine(tinyGrid(), 60'000);
        ASSERT_TRUE(again.exitCode == 0 && contains(again.out, "4 runs, 4 already in")) << again.out + again.err;
        ASSERT_EQ(readFile(s_dir->filePath("runs.csv")), before);
    }
    // One more seed: only its runs are new.
    const EngineRun more = runEngine(tinyGrid("1,2") + Args{"--dry-run"}, 60'000);
    ASSERT_TRUE(contains(more.out, "8 runs, 4 already in")) << more.out;
    ASSERT_EQ(count(more.out, "\ntodo "), 4);
}

TEST_F(TestExperiment, shippedScenarioIsTheBuiltInProtocol) {
    const std::string spec = SYNCSCOPE_SOURCE_DIR "/resources/experiments/seeds-protocol.json";
    const EngineRun fromFile = runEngine({"experiment", "--dry-run", "--spec", spec, "--out", s_dir->path() + "/plan"});
    const EngineRun builtIn = runEngine({"experiment", "--dry-run", "--out", s_dir->path() + "/plan"});
    ASSERT_TRUE(fromFile.exitCode == 0) << fromFile.err;
    ASSERT_TRUE(contains(fromFile.out, "150 runs"));
    ASSERT_EQ(fromFile.out, builtIn.out);
}

TEST_F(TestExperiment, badInputIsExplained) {
    const EngineRun unknown = runEngine({"experiment", "--modes", "bsp,nosuch", "--out", s_dir->path() + "/bad"});
    ASSERT_EQ(unknown.exitCode, 2);
    ASSERT_TRUE(contains(unknown.err, "unknown mode 'nosuch'") && contains(unknown.err, "grouped-g2")) << unknown.err;
    TempDir dir;
    const std::string broken = dir.filePath("spec.json");
    ASSERT_TRUE(writeFile(broken, R"({"workers": 8, "delay_percent": [0]})"));
    const EngineRun typo = runEngine({"experiment", "--dry-run", "--spec", broken, "--out", dir.path()});
    ASSERT_EQ(typo.exitCode, 2);
    ASSERT_TRUE(contains(typo.err, "unknown key \"delay_percent\"")) << typo.err;
}

#ifdef SYNCSCOPE_PLOT_BINARY
TEST_F(TestExperiment, plotToolDrawsTheFigures) {
    const ProgramRun plot =
        runProgram(SYNCSCOPE_PLOT_BINARY, {s_dir->filePath("results.csv"), "--out", s_dir->filePath("plots")}, 60'000);
    ASSERT_TRUE(plot.started && plot.finished) << plot.error;
    ASSERT_TRUE(plot.exitCode == 0) << plot.err;
    for (const std::string name : {"time_to_target", "samples_per_s", "staleness_mean", "accuracy_at_fixed_time"}) {
        const std::string png = s_dir->filePath("plots/" + name + ".png");
        ASSERT_TRUE(fs::exists(png)) << name + ".png is missing";
        ASSERT_EQ(readFile(png).substr(0, 4), std::string("\x89PNG", 4));
    }
}
#endif
