// Exporting a recording file in one of the export formats, streamed a record at a time (any file
// size), with progress and cancellation: what `syncscope-engine export` and the console's
// File → Export both call.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "engine/core/status.h"
#include "engine/telemetry/trace_export.h"

namespace syncscope::engine {

enum class ExportFormat { Csv, JsonLines, TfEvents, Trace };

/// The formats' names, as the CLI takes them: csv, jsonl, tfevents, trace.
const std::vector<std::string>& exportFormatNames();
Result<ExportFormat> parseExportFormat(const std::string& name);

struct ExportRequest {
    std::string recording;  ///< the recording file to read
    ExportFormat format = ExportFormat::Csv;
    /// A file (csv, jsonl, trace) or a folder (tfevents, created if missing). Empty: `standardOutput`
    /// (not for tfevents).
    std::string output;
    TraceOptions trace;  ///< trace only: window and event cap
};

struct ExportResult {
    uint64_t records = 0;             ///< records read from the recording
    uint64_t bytesRead = 0;
    std::vector<std::string> files;   ///< written (empty for standard output)
    uint64_t events = 0;              ///< tfevents / trace: events written
    TraceSummary trace;               ///< trace only
    std::string warning;              ///< a cut-off or corrupt tail of the recording; empty if none
};

/// Called after each record with bytes read and the recording's size; returning false cancels.
using ExportProgress = std::function<bool(uint64_t bytesRead, uint64_t fileBytes)>;

/// Writes the export. On failure or cancellation (StatusCode::Cancelled) the files it created are
/// removed again; the recording itself is only read.
Result<ExportResult> exportRecordingFile(const ExportRequest& request, std::ostream& standardOutput,
                                         const ExportProgress& progress = {});

}  // namespace syncscope::engine
