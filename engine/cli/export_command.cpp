// `syncscope-engine export`: reads a recording (warning about a cut-off or corrupt tail) and
// writes it as CSV or JSON Lines to stdout or --output FILE.
#include "engine/cli/export_command.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "engine/cli/cli_errors.h"
#include "engine/telemetry/recording_export.h"
#include "engine/telemetry/recording_reader.h"

namespace syncscope::engine {
namespace {

struct ExportOptions {
    std::string recording;
    std::string format;
    std::string output;  // empty: stdout
};

int runExport(const ExportOptions& opt) {
    auto recording = readRecording(opt.recording);
    if (!recording) return printError(recording.status());
    if (!recording->warning.empty()) std::fprintf(stderr, "warning: %s\n", recording->warning.c_str());

    std::ofstream file;
    if (!opt.output.empty()) {
        file.open(opt.output, std::ios::binary | std::ios::trunc);
        if (!file)
            return printError(unavailable("cannot create the output file '" + opt.output + "': " + std::strerror(errno) +
                                          "; check that its folder exists and is writable"));
    }
    std::ostream& out = opt.output.empty() ? std::cout : file;
    const Status exported = opt.format == "csv" ? exportCsv(*recording, out) : exportJsonLines(*recording, out);
    out.flush();
    const std::string target = opt.output.empty() ? std::string("standard output") : "'" + opt.output + "'";
    if (!exported) return printError(unavailable("exporting to " + target + ": " + exported.message()));
    if (!out)
        return printError(
            unavailable("exporting to " + target + ": the last lines could not be written (is the disk full?)"));
    if (!opt.output.empty())
        std::fprintf(stderr, "exported %zu records to %s\n", recording->records.size(), target.c_str());
    return 0;
}

}  // namespace

void addExportCommand(CLI::App& app, int& exitCode) {
    auto opt = std::make_shared<ExportOptions>();
    CLI::App* cmd =
        app.add_subcommand("export", "Write a run recording as CSV (time series) or JSON Lines (every record)");
    cmd->add_option("REC", opt->recording, "Recording file written by --record")->required();
    cmd->add_option("--format", opt->format, "Output format")->required()->check(CLI::IsMember({"csv", "jsonl"}));
    cmd->add_option("--output", opt->output, "File to write (default: standard output)");
    cmd->callback([opt, &exitCode] { exitCode = runExport(*opt); });
}

}  // namespace syncscope::engine
