// File versions (see file_versions.h).
#include "engine/telemetry/file_versions.h"

#include <fmt/format.h>

#include "engine/core/version.h"
#include "engine/telemetry/recording_format.h"

namespace syncscope::engine {

Status checkFileFormat(std::string_view start, std::string_view kind, unsigned readable, const std::string& path,
                       const std::string& what) {
    const std::optional<unsigned> format = formatNamed(start, kind);
    if (!format || *format == readable) return Status::ok();
    return invalidArgument(fmt::format(
        "'{}' is a SyncScope {} in format {}, and this SyncScope {} reads format {} only: {} release wrote it, so "
        "open it with that release{}",
        path, what, *format, kSyncScopeVersion, readable, *format > readable ? "a newer" : "an older",
        *format > readable ? " or a later one" : " (or export it there to CSV or JSON Lines)"));
}

std::string writerOf(const wire::RecordingHeader& header) {
    if (header.writer().empty())
        return fmt::format("a SyncScope of protocol {}.{}", header.protocol_major(), header.protocol_minor());
    return fmt::format("SyncScope {} (protocol {}.{})", header.writer(), header.protocol_major(),
                       header.protocol_minor());
}

}  // namespace syncscope::engine
