// `syncscope-engine export`: reads a recording (warning about a cut-off or corrupt tail) a record at
// a time with a progress bar, and writes it as CSV, JSON Lines, a Chrome/Perfetto trace (to
// stdout or --output FILE) or TensorBoard event files (--output DIR).
#include "engine/cli/export_command.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "engine/cli/cli_errors.h"
#include "engine/cli/json_output.h"
#include "engine/core/progress_bar.h"
#include "engine/telemetry/export_file.h"

namespace syncscope::engine {
namespace {

struct ExportFlags {
    std::string recording;
    std::string format;
    std::string output;  // empty: stdout
    std::string window;  // trace: "FROM:TO" seconds, either side may be empty
    uint64_t maxEvents = kDefaultTraceMaxEvents;
    bool json = false;
    CLI::Option* windowOption = nullptr;
    CLI::Option* maxEventsOption = nullptr;
};

// "10:20", ":30" or "5:" seconds of run time into the trace window.
Status parseWindow(const std::string& text, TraceOptions& trace) {
    const auto colon = text.find(':');
    const Status bad = invalidArgument("--window '" + text + "' must be FROM:TO in seconds of run time, e.g. 10:20, "
                                       ":30 or 5: (an empty side: the start or end of the run)");
    if (colon == std::string::npos) return bad;
    try {
        size_t used = 0;
        const std::string from = text.substr(0, colon), to = text.substr(colon + 1);
        if (!from.empty() && ((trace.fromSeconds = std::stod(from, &used)), used != from.size())) return bad;
        if (!to.empty() && ((trace.toSeconds = std::stod(to, &used)), used != to.size())) return bad;
    } catch (const std::exception&) {  // std::stod: not a number, or out of range
        return bad;
    }
    if (trace.fromSeconds < 0 || !(trace.toSeconds > trace.fromSeconds)) return bad;
    return Status::ok();
}

Result<ExportRequest> toRequest(const ExportFlags& f) {
    ExportRequest request;
    request.recording = f.recording;
    request.output = f.output == "-" ? std::string() : f.output;  // "-": standard output, as for most tools
    auto format = parseExportFormat(f.format);
    if (!format) return format.status();
    request.format = *format;
    if (f.output == "-" && request.format == ExportFormat::TfEvents)
        return invalidArgument("--output - (standard output) cannot hold TensorBoard event files: give a folder");
    const bool traceFlags = f.windowOption->count() > 0 || f.maxEventsOption->count() > 0;
    if (traceFlags && request.format != ExportFormat::Trace)
        return invalidArgument("--window and --max-events bound a trace; use them with --format trace");
    if (!f.window.empty())
        if (Status s = parseWindow(f.window, request.trace); !s) return s;
    request.trace.maxEvents = f.maxEvents;
    if (f.json && request.output.empty() && request.format != ExportFormat::TfEvents)
        return invalidArgument("--json prints the export's summary on standard output, so the export itself needs "
                               "a file: add --output FILE");
    return request;
}

nlohmann::json resultJson(const ExportFlags& f, const ExportResult& r) {
    nlohmann::json json = {{"command", "export"}, {"recording", f.recording}, {"format", f.format},
                           {"records", r.records}, {"bytes_read", r.bytesRead}, {"files", r.files},
                           {"warning", r.warning.empty() ? nlohmann::json() : nlohmann::json(r.warning)}};
    if (f.format == "tfevents" || f.format == "trace") json["events"] = r.events;
    if (f.format == "trace")
        json["trace"] = {{"cut", r.trace.cut}, {"cut_at_s", r.trace.cut ? nlohmann::json(r.trace.cutAtSeconds) : nlohmann::json()}};
    return json;
}

int runExport(const ExportFlags& f) {
    auto request = toRequest(f);
    if (!request) return printError(request.status());
    ProgressBar bar;
    long long shown = -1;
    auto progress = [&](uint64_t done, uint64_t total) {
        const long long permille = total > 0 ? static_cast<long long>(1000 * done / total) : 0;
        if (permille != shown) bar.update(static_cast<long long>(done >> 10), static_cast<long long>(total >> 10), "KiB read");
        shown = permille;
        return true;
    };
    auto result = exportRecordingFile(*request, std::cout, progress);
    bar.finish();
    std::cout.flush();
    if (!result) return printError(withFlagHint(result.status(), "the output is given with --output DIR for tfevents, --output FILE otherwise"));
    if (!result->warning.empty()) std::fprintf(stderr, "warning: %s\n", result->warning.c_str());
    if (result->trace.cut)
        std::fprintf(stderr, "note: the trace reached --max-events %llu and ends at %.2f s of run time; narrow it "
                             "with --window FROM:TO or raise --max-events\n",
                     static_cast<unsigned long long>(f.maxEvents), result->trace.cutAtSeconds);
    if (!f.output.empty() && f.output != "-")
        std::fprintf(stderr, "exported %llu records to %zu file(s) under '%s'\n",
                     static_cast<unsigned long long>(result->records), result->files.size(), f.output.c_str());
    if (f.json) printJson(resultJson(f, *result));
    return 0;
}

}  // namespace

void addExportCommand(CLI::App& app, int& exitCode) {
    auto f = std::make_shared<ExportFlags>();
    CLI::App* cmd = app.add_subcommand(
        "export", "Write a run recording as CSV (time series), JSON Lines (every record), TensorBoard event files "
                  "(tfevents) or a Chrome/Perfetto trace (trace)");
    cmd->add_option("REC", f->recording, "Recording file written by --record")->required();
    cmd->add_option("--format", f->format, "Output format")->required()->check(CLI::IsMember(exportFormatNames()));
    cmd->add_option("--output", f->output,
                    "File to write (default, or -: standard output); for tfevents a folder (a TensorBoard log dir)");
    f->windowOption = cmd->add_option("--window", f->window,
                                      "trace: only what starts in FROM:TO seconds of run time (default: the whole run)");
    f->maxEventsOption = cmd->add_option("--max-events", f->maxEvents,
                                         "trace: at most N events; the trace ends where they run out")
                             ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40))->capture_default_str();
    addJsonFlag(*cmd, f->json);
    cmd->callback([f, &exitCode] { exitCode = runExport(*f); });
}

}  // namespace syncscope::engine
