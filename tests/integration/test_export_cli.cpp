// The engine's machine-readable side, through the real binary: `run --json` and `train --json` print
// one JSON object of results, `--version` the project version, `export --json` to tfevents and
// trace, the trace's window and cap, a progress bar on a terminal, and clear errors for wrong flags.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <regex>
#include <string>

#include "tests/integration/engine_process.h"
#include "tests/integration/json_values.h"

using namespace syncscope::testing;
namespace fs = std::filesystem;

namespace {

// The one JSON object a --json command prints, or an empty object (and the test fails) if its
// standard output holds anything else.
Json onlyJson(const EngineRun& run) {
    const Json doc = parseJson(run.out);
    if (doc.is_discarded() || !doc.is_object() || count(run.out, "\n") != 1) {
        ADD_FAILURE() << "standard output is not one JSON object: " << run.out.substr(0, 500);
        return Json::object();
    }
    return doc;
}

// %1 of QString::number(value, 'f', 3).
std::string fixed3(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%.3f", value);
    return text;
}

}  // namespace

// The tests run in this order and share the folder and the recording the first one makes.
class TestExportCli : public ::testing::Test {
protected:
    static void SetUpTestSuite() { s_dir = std::make_unique<TempDir>(); }
    static void TearDownTestSuite() { s_dir.reset(); }

    static std::unique_ptr<TempDir> s_dir;
    static std::string s_recording;
};

std::unique_ptr<TempDir> TestExportCli::s_dir;
std::string TestExportCli::s_recording;

TEST_F(TestExportCli, runPrintsOneJsonObject) {
    ASSERT_TRUE(s_dir);
    s_recording = s_dir->filePath("run.ssrec");
    const EngineRun run = runEngine({"run", "--workers", "2", "--epochs", "1", "--data", SYNCSCOPE_FASHION_MNIST_DIR,
                                     "--record", s_recording, "--json"});
    ASSERT_TRUE(run.finished && run.exitCode == 0) << run.err;
    const Json result = onlyJson(run);
    ASSERT_EQ(jsonString(jsonMember(result, "command")), std::string("run"));
    ASSERT_TRUE(jsonDouble(jsonMember(result, "final_test_accuracy")) > 0.7) << run.out;
    ASSERT_TRUE(jsonInteger(jsonMember(result, "model_version")) > 0);
    ASSERT_EQ(jsonString(jsonMember(result, "mode")), std::string("bsp"));
    ASSERT_EQ(jsonArray(jsonMember(result, "workers")).size(), size_t(2));
    ASSERT_TRUE(jsonDouble(jsonMember(jsonObject(jsonArray(jsonMember(result, "workers"))[0]), "samples_per_s")) > 0);
    ASSERT_TRUE(jsonInteger(jsonMember(result, "pushed")) >= jsonInteger(jsonMember(result, "applied")));
    ASSERT_TRUE(contains(run.err, "final test accuracy")) << "the coordinator's report goes to standard error";
}

TEST_F(TestExportCli, trainPrintsOneJsonObject) {
    const EngineRun run = runEngine({"train", "--epochs", "1", "--train-limit", "2000", "--threads", "1", "--data",
                                     SYNCSCOPE_FASHION_MNIST_DIR, "--json"});
    ASSERT_TRUE(run.finished && run.exitCode == 0) << run.err;
    const Json result = onlyJson(run);
    ASSERT_EQ(jsonString(jsonMember(result, "command")), std::string("train"));
    const double accuracy = jsonDouble(jsonMember(result, "test_accuracy"));
    ASSERT_TRUE(accuracy > 0.5 && accuracy <= 1.0) << run.out;
    ASSERT_EQ(jsonInt(jsonMember(result, "total")), 10000);
    ASSERT_TRUE(std::regex_search(jsonString(jsonMember(result, "parameter_checksum")), std::regex("^[0-9a-f]{16}$")));
}

TEST_F(TestExportCli, versionIsTheProjectVersion) {
    const EngineRun run = runEngine({"--version"});
    ASSERT_EQ(run.exitCode, 0);
    ASSERT_EQ(trimmed(run.out), std::string("syncscope-engine " SYNCSCOPE_VERSION));
}

TEST_F(TestExportCli, exportsTfEventsWithJson) {
    const std::string folder = s_dir->filePath("tb");
    const EngineRun run = runEngine({"export", s_recording, "--format", "tfevents", "--output", folder, "--json"});
    ASSERT_TRUE(run.exitCode == 0) << run.err;
    const Json result = onlyJson(run);
    ASSERT_EQ(jsonArray(jsonMember(result, "files")).size(), size_t(3));  // the job and two workers
    for (const Json& file : jsonArray(jsonMember(result, "files"))) {
        ASSERT_TRUE(fs::exists(jsonString(file)));
    }
    ASSERT_TRUE(jsonInteger(jsonMember(result, "events")) > 10);
    ASSERT_TRUE(jsonInteger(jsonMember(result, "records")) > 100);
    ASSERT_TRUE(fs::is_directory(folder + "/worker_1"));
}

TEST_F(TestExportCli, exportsABoundedTrace) {
    const std::string path = s_dir->filePath("trace.json");
    EngineRun run = runEngine({"export", s_recording, "--format", "trace", "--output", path, "--json"});
    ASSERT_TRUE(run.exitCode == 0) << run.err;
    ASSERT_TRUE(fs::exists(path));
    const Json events = jsonArray(jsonMember(jsonObject(parseJson(readFile(path))), "traceEvents"));
    int compute = 0;
    double first = 1e300, last = 0;  // the run's span, in microseconds of run time
    for (const Json& e : events) {
        compute += jsonString(jsonMember(e, "name")) == "compute";
        if (jsonString(jsonMember(e, "ph")) == "M") continue;
        first = std::min(first, jsonDouble(jsonMember(e, "ts")));
        last = std::max(last, jsonDouble(jsonMember(e, "ts")));
    }
    ASSERT_TRUE(compute > 100) << compute;
    ASSERT_EQ(jsonInteger(jsonMember(onlyJson(run), "events")), static_cast<long long>(events.size()));
    // A cap: the trace ends early and the note says how to widen it.
    run = runEngine({"export", s_recording, "--format", "trace", "--output", path, "--max-events", "100", "--json"});
    ASSERT_TRUE(run.exitCode == 0) << run.err;
    const Json trace = jsonObject(jsonMember(onlyJson(run), "trace"));
    ASSERT_TRUE(jsonBool(jsonMember(trace, "cut")));
    ASSERT_TRUE(jsonDouble(jsonMember(trace, "cut_at_s")) > 0);
    ASSERT_TRUE(contains(run.err, "--max-events 100")) << run.err;
    // A window, the middle half of the run: only what starts in it, in microseconds of run time.
    // (Taken from the run, which on a fast machine trains its epoch in well under a second.)
    const double from = (first + 0.25 * (last - first)) / 1e6, to = (first + 0.75 * (last - first)) / 1e6;
    run = runEngine({"export", s_recording, "--format", "trace", "--output", path, "--window",
                     fixed3(from) + ":" + fixed3(to)});
    ASSERT_TRUE(run.exitCode == 0) << run.err;
    ASSERT_TRUE(fs::exists(path));
    int timed = 0;
    const Json windowed = parseJson(readFile(path));
    for (const Json& e : jsonArray(jsonMember(jsonObject(windowed), "traceEvents"))) {
        if (jsonString(jsonMember(e, "ph")) == "M") continue;
        ++timed;
        const double ts = jsonDouble(jsonMember(e, "ts"));
        ASSERT_TRUE(ts >= std::round(from * 1e3) * 1e3 && ts < std::round(to * 1e3) * 1e3)
            << ts << " outside " << from << ":" << to << " s";
    }
    ASSERT_TRUE(timed > 0);
}

TEST_F(TestExportCli, showsAProgressBarOnATerminal) {
    // script(1) gives the export a pseudo-terminal, where the progress bar draws.
    const ProgramRun script = runProgram("script", {"-qec", std::string(SYNCSCOPE_ENGINE_BINARY) + " export " + s_recording +
                                                               " --format csv --output " + s_dir->filePath("r.csv"),
                                                    "/dev/null"},
                                         60'000);
    ASSERT_TRUE(script.started && script.finished) << script.error;
    const std::string& shown = script.out;
    ASSERT_TRUE(contains(shown, "100% [") && contains(shown, "KiB read")) << shown;
}

// `--output -` is standard output, as for most tools: the CSV comes there, and no file named "-" is made.
TEST_F(TestExportCli, outputDashIsStandardOutput) {
    const std::string dash = fs::current_path() / "-";
    ASSERT_FALSE(fs::exists(dash)) << "a file named '-' is already in " << fs::current_path();
    const EngineRun run = runEngine({"export", s_recording, "--format", "csv", "--output", "-"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_FALSE(fs::exists(dash)) << "export --output - wrote a file named '-'";
    EXPECT_EQ(run.out.rfind("record,time_s,", 0), 0u) << run.out.substr(0, 200);  // the CSV's header first
    EXPECT_GT(count(run.out, "\n"), 10);
    const EngineRun events = runEngine({"export", s_recording, "--format", "tfevents", "--output", "-"});
    EXPECT_TRUE(events.exitCode == 2 && contains(events.err, "give a folder")) << events.err;
}

TEST_F(TestExportCli, wrongFlagsSayWhatToDo) {
    const struct {
        Args args;
        const char* says;
    } cases[] = {
        {{"--format", "csv", "--json"}, "add --output FILE"},
        {{"--format", "csv", "--window", "1:2", "--output", "x.csv"}, "use them with --format trace"},
        {{"--format", "trace", "--window", "5:1", "--output", "x.json"}, "must be FROM:TO"},
        {{"--format", "trace", "--window", "a:b", "--output", "x.json"}, "must be FROM:TO"},
        {{"--format", "tfevents"}, "--output DIR"},
        {{"--format", "trace", "--output", fs::temp_directory_path().string()}, "is a folder"},
    };
    for (const auto& c : cases) {
        const EngineRun run = runEngine(Args{"export", s_recording} + c.args);
        ASSERT_TRUE(run.exitCode == 2 && contains(run.err, c.says)) << c.args.join() << ": " << run.err;
        ASSERT_TRUE(run.out.empty()) << run.out;
    }
}
