// Chrome / Perfetto trace export: every event obeys the Trace Event Format's rules for its phase
// (the format's documentation, checked field by field below), times are microseconds of run time,
// the spans are the recorded compute and wait times, and the window and the event cap bound it.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/telemetry/export_file.h"
#include "tests/unit/synthetic_run.h"
#include "tests/unit/test_support.h"

using namespace syncscope::engine;
using nlohmann::json;

namespace {

// The Trace Event Format (JSON Object Format) as documented for chrome://tracing and Perfetto:
// returns what is wrong with `trace`, or an empty string.
std::string formatProblem(const json& trace) {
    if (!trace.is_object() || !trace.contains("traceEvents") || !trace["traceEvents"].is_array())
        return "no traceEvents array";
    if (trace.contains("displayTimeUnit") && trace["displayTimeUnit"] != "ms" && trace["displayTimeUnit"] != "ns")
        return "displayTimeUnit must be ms or ns";
    static const std::set<std::string> metadataNames = {"process_name", "process_labels", "process_sort_index",
                                                        "thread_name", "thread_sort_index"};
    int index = 0;
    for (const json& e : trace["traceEvents"]) {
        const std::string at = " (event " + std::to_string(index++) + ": " + e.dump() + ")";
        if (!e.is_object() || !e.contains("ph") || !e["ph"].is_string() || e["ph"].get<std::string>().size() != 1)
            return "no one-letter ph" + at;
        if (!e.contains("name") || !e["name"].is_string()) return "no name" + at;
        if (!e.contains("pid") || !e["pid"].is_number_integer()) return "no integer pid" + at;
        if (!e.contains("tid") || !e["tid"].is_number_integer()) return "no integer tid" + at;
        if (e.contains("cat") && !e["cat"].is_string()) return "cat is not a string" + at;
        if (e.contains("args") && !e["args"].is_object()) return "args is not an object" + at;
        const char ph = e["ph"].get<std::string>()[0];
        const bool timed = e.contains("ts") && e["ts"].is_number() && e["ts"].get<double>() >= 0;
        switch (ph) {
        case 'X':  // complete event: ts and dur, microseconds
            if (!timed || !e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0)
                return "a complete event needs ts and dur >= 0" + at;
            break;
        case 'i':
        case 'I':  // instant event: ts, scope g (global), p (process) or t (thread, the default)
            if (!timed) return "an instant event needs ts" + at;
            if (e.contains("s") && e["s"] != "g" && e["s"] != "p" && e["s"] != "t") return "scope must be g, p or t" + at;
            break;
        case 'C':  // counter event: ts and args of numbers, one series each
            if (!timed || !e.contains("args") || e["args"].empty()) return "a counter needs ts and args" + at;
            for (const auto& [name, value] : e["args"].items())
                if (!value.is_number()) return "counter " + name + " is not a number" + at;
            break;
        case 'M':  // metadata: one of the known names, with its argument
            if (!metadataNames.count(e["name"].get<std::string>())) return "unknown metadata name" + at;
            if (e["name"].get<std::string>().ends_with("_name") && !(e.contains("args") && e["args"]["name"].is_string()))
                return "a *_name metadata event needs args.name" + at;
            if (e["name"].get<std::string>().ends_with("sort_index") && !e["args"]["sort_index"].is_number_integer())
                return "a *_sort_index metadata event needs an integer args.sort_index" + at;
            break;
        default:
            return std::string("phase '") + ph + "' is not one this export writes" + at;
        }
    }
    return {};
}

std::vector<json> spans(const json& trace, const std::string& name, int tid) {
    std::vector<json> found;
    for (const json& e : trace["traceEvents"])
        if (e["ph"] == "X" && e["name"] == name && e["tid"] == tid) found.push_back(e);
    return found;
}

}  // namespace

class TestTraceExport : public ::testing::Test {
protected:
    void SetUp() override {
        m_recording = m_dir.filePath("run.ssrec");
        ASSERT_TRUE(synthetic::write(m_run, m_recording));
    }

    json exportTrace(const TraceOptions& options, TraceSummary* summary = nullptr) {
        ExportRequest request;
        request.recording = m_recording;
        request.format = ExportFormat::Trace;
        request.trace = options;
        std::ostringstream out;
        auto result = exportRecordingFile(request, out);
        if (!result) throw std::runtime_error("export failed: " + result.status().message());
        if (summary) *summary = result->trace;
        return json::parse(out.str());  // throws, and so fails the test, on malformed JSON
    }

    syncscope::testing::TempDir m_dir;
    synthetic::Run m_run = synthetic::make();
    std::string m_recording;
};

TEST_F(TestTraceExport, followsTheTraceEventFormat) {
    const json trace = exportTrace({});
    const std::string problem = formatProblem(trace);
    ASSERT_TRUE(problem.empty()) << problem.c_str();
    // and the check itself catches a broken event
    json broken = trace;
    broken["traceEvents"].push_back({{"name", "x"}, {"ph", "X"}, {"pid", 1}, {"tid", 1}, {"ts", 5}});
    ASSERT_TRUE(!formatProblem(broken).empty());
}

TEST_F(TestTraceExport, spansAreTheRecordedTimesInMicroseconds) {
    const json trace = exportTrace({});
    for (int w = 0; w < synthetic::kWorkers; ++w) {
        int releases = 0;
        for (const auto& r : m_run.records) releases += r.has_release() && r.release().worker_id() == uint32_t(w);
        const auto compute = spans(trace, "compute", w);
        const auto wait = spans(trace, "wait", w);
        ASSERT_EQ(int(compute.size()), releases - 1);  // the last iteration never ends
        ASSERT_EQ(int(wait.size()), releases - 1);
        for (const json& c : compute) ASSERT_TRUE(std::abs(c["dur"].get<double>() - 1000 * synthetic::computeMs(w)) < 0.01);
        for (const json& s : wait) ASSERT_TRUE(std::abs(s["dur"].get<double>() - 1000 * synthetic::kHeldMs) < 0.01);
        // iteration 0: released at 50 ms; communication (period - held - compute) split around the compute
        const double comm = 1e6 * synthetic::releasePeriod(w) - 1000 * (synthetic::kHeldMs + synthetic::computeMs(w));
        ASSERT_TRUE(std::abs(compute[0]["ts"].get<double>() - (1e6 * synthetic::kFirstRelease + comm / 2)) < 0.01);
        // one worker's spans never overlap
        std::vector<std::pair<double, double>> all;
        for (const json& e : trace["traceEvents"])
            if (e["ph"] == "X" && e["tid"] == w) all.emplace_back(e["ts"].get<double>(), e["dur"].get<double>());
        std::sort(all.begin(), all.end());
        for (size_t i = 1; i < all.size(); ++i) ASSERT_TRUE(all[i - 1].first + all[i - 1].second <= all[i].first + 0.01);
    }
    int updates = 0, controls = 0;
    for (const json& e : trace["traceEvents"]) {
        updates += e["name"] == "update";
        controls += e.value("cat", "") == "control";
    }
    ASSERT_EQ(controls, m_run.events);
    ASSERT_TRUE(updates > 0);
}

TEST_F(TestTraceExport, theWindowBoundsIt) {
    TraceOptions options;
    options.fromSeconds = 0.2;
    options.toSeconds = 0.4;
    const json trace = exportTrace(options);
    ASSERT_TRUE(formatProblem(trace).empty());
    int timed = 0;
    for (const json& e : trace["traceEvents"]) {
        if (e["ph"] == "M") continue;
        ++timed;
        ASSERT_TRUE(e["ts"].get<double>() >= 0.2e6 && e["ts"].get<double>() < 0.4e6) << e.dump().c_str();
    }
    ASSERT_TRUE(timed > 10);
}

TEST_F(TestTraceExport, theCapEndsItEarlyAndSaysWhere) {
    TraceOptions options;
    options.maxEvents = 60;
    TraceSummary summary;
    const json trace = exportTrace(options, &summary);
    ASSERT_TRUE(formatProblem(trace).empty());
    ASSERT_TRUE(summary.cut);
    ASSERT_TRUE(summary.cutAtSeconds > 0 && summary.cutAtSeconds < synthetic::kEnd);
    ASSERT_TRUE(trace["traceEvents"].size() <= 60 + 2 * synthetic::kWorkers);  // thread names still come
    for (const json& e : trace["traceEvents"])
        if (e["ph"] != "M") {
            ASSERT_TRUE(e["ts"].get<double>() <= summary.cutAtSeconds * 1e6);
        }
    TraceSummary whole;
    exportTrace({}, &whole);
    ASSERT_TRUE(!whole.cut);
}
