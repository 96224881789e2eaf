// exportRecordingFile (see export_file.h): picks the sink, opens the output, streams the recording.
#include "engine/telemetry/export_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "engine/telemetry/recording_export.h"
#include "engine/telemetry/recording_reader.h"
#include "engine/telemetry/tfevents_writer.h"

namespace syncscope::engine {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<RecordingSink> makeStreamSink(ExportFormat format, std::ostream& out, const TraceOptions& trace) {
    switch (format) {
    case ExportFormat::Csv: return std::make_unique<CsvSink>(out);
    case ExportFormat::JsonLines: return std::make_unique<JsonLinesSink>(out);
    case ExportFormat::Trace: return std::make_unique<TraceSink>(out, trace);
    case ExportFormat::TfEvents: break;
    }
    return nullptr;
}

// Streams the recording through `sink`; the first error of either side ends it.
Result<ExportResult> stream(const ExportRequest& request, RecordingSink& sink, const ExportProgress& progress) {
    ExportResult result;
    Status failed;
    RecordVisitor visitor;
    visitor.onHeader = [&](const wire::RecordingHeader& header) { failed = sink.begin(header); };
    visitor.onRecord = [&](wire::Record&& record) {
        if (failed) failed = sink.add(record);
    };
    visitor.onProgress = [&](uint64_t done, uint64_t total) {
        result.bytesRead = done;
        return failed && (!progress || progress(done, total));
    };
    auto scan = forEachRecord(request.recording, visitor);
    if (!failed) return failed;  // the sink's error says more than "cancelled"
    if (!scan) return scan.status();
    if (Status s = sink.finish(); !s) return s;
    result.records = scan->recordCount;
    result.warning = scan->warning;
    return result;
}

void removeAll(const std::vector<std::string>& files) {
    std::error_code ignored;  // best effort: the export already failed with its own message
    for (const std::string& file : files) fs::remove(file, ignored);
}

Result<ExportResult> exportTfEvents(const ExportRequest& request, const ExportProgress& progress) {
    if (request.output.empty())
        return invalidArgument("the tfevents format writes a folder of event files, and no output folder was given");
    TfEventsSink sink(request.output);
    auto result = stream(request, sink, progress);
    if (!result) {
        removeAll(sink.files());
        return result.status();
    }
    result->files = sink.files();
    result->events = sink.eventCount();
    return result;
}

}  // namespace

const std::vector<std::string>& exportFormatNames() {
    static const std::vector<std::string> names = {"csv", "jsonl", "tfevents", "trace"};
    return names;
}

Result<ExportFormat> parseExportFormat(const std::string& name) {
    const auto& names = exportFormatNames();
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return static_cast<ExportFormat>(i);
    return invalidArgument("unknown export format '" + name + "'; use csv, jsonl, tfevents or trace");
}

Result<ExportResult> exportRecordingFile(const ExportRequest& request, std::ostream& standardOutput,
                                         const ExportProgress& progress) {
    if (request.format == ExportFormat::TfEvents) return exportTfEvents(request, progress);
    std::ofstream file;
    if (!request.output.empty()) {
        if (fs::is_directory(request.output))
            return invalidArgument("the output '" + request.output + "' is a folder; this format writes one file: name a file");
        file.open(request.output, std::ios::binary | std::ios::trunc);
        if (!file)
            return unavailable("cannot create the output file '" + request.output + "': " + std::strerror(errno) +
                               "; check that its folder exists and is writable");
    }
    std::ostream& out = request.output.empty() ? standardOutput : file;
    auto sink = makeStreamSink(request.format, out, request.trace);
    auto result = stream(request, *sink, progress);
    if (!result) {
        if (!request.output.empty()) {
            file.close();
            removeAll({request.output});
        }
        return result.status();
    }
    if (!request.output.empty()) result->files = {request.output};
    if (request.format == ExportFormat::Trace) {
        result->trace = static_cast<TraceSink&>(*sink).summary();
        result->events = result->trace.events;
    }
    return result;
}

}  // namespace syncscope::engine
