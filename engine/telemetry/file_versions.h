// Which SyncScope wrote a recording or a checkpoint, and whether this build can read it: a file in
// another format is refused with a message that names the format and which way to go, rather than
// read as garbage; a header names the release that wrote it.
#pragma once

#include <string>
#include <string_view>

#include "engine/core/status.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

/// Refuses a file whose first bytes `start` name format N of `kind` ("SSREC", "SSCKPT") when this
/// build reads `readable`; ok when they name `readable`, or are no file of that kind (the caller's
/// own "not a recording" check says so). `what`: "recording", "checkpoint".
Status checkFileFormat(std::string_view start, std::string_view kind, unsigned readable, const std::string& path,
                       const std::string& what);

/// "SyncScope 0.1.0 (protocol 1.7)", or "a SyncScope of protocol 1.6" for a file from before the
/// header named its release.
std::string writerOf(const wire::RecordingHeader& header);

}  // namespace syncscope::engine
