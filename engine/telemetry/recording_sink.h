// RecordingSink: one export format, fed a recording's header and then its records in file order,
// so an export streams through a file of any size (engine/telemetry/export_file.h drives it).
#pragma once

#include "engine/core/status.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

class RecordingSink {
public:
    virtual ~RecordingSink() = default;
    /// Once, before any record.
    virtual Status begin(const wire::RecordingHeader& header) = 0;
    /// Each record in file order; an error (a full disk) ends the export.
    virtual Status add(const wire::Record& record) = 0;
    /// After the last record: flushes and closes what it wrote.
    virtual Status finish() = 0;
};

}  // namespace syncscope::engine
