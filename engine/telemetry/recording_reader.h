// Reading a run recording back (format in recording_format.h). A tail cut off by a crash, or a
// corrupt frame, ends the read with a warning and keeps every whole record before it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/core/status.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

/// What a read found besides the records themselves.
struct RecordingScan {
    wire::RecordingHeader header;
    size_t recordCount = 0;
    bool truncatedTail = false;  ///< the file ends inside a frame (the writer was cut off)
    uint64_t validBytes = 0;     ///< bytes up to the end of the last whole record (where to append)
    std::string warning;         ///< empty when every byte was read; else what was skipped and where
};

/// A whole recording in memory.
struct Recording {
    wire::RecordingHeader header;
    std::vector<wire::Record> records;
    bool truncatedTail = false;
    std::string warning;
};

/// What forEachRecord calls while it reads; any of them may be empty.
struct RecordVisitor {
    std::function<void(const wire::RecordingHeader&)> onHeader;  ///< once, before the first record
    std::function<void(wire::Record&&)> onRecord;                ///< each whole record, in file order
    /// After each record: bytes read so far and the file's size. Returning false stops the read,
    /// which then fails with StatusCode::Cancelled.
    std::function<bool(uint64_t bytesRead, uint64_t fileBytes)> onProgress;
};

/// Reads the recording at `path` through `visitor`; fails as the overload below does, or Cancelled.
Result<RecordingScan> forEachRecord(const std::string& path, const RecordVisitor& visitor);

/// Calls `onRecord` for each whole record in file order, without holding them all in memory.
/// Fails (NotFound, Unavailable, DataLoss) only when no header can be read; a bad or partial
/// frame later on ends the scan with a warning instead.
Result<RecordingScan> forEachRecord(const std::string& path, const std::function<void(wire::Record&&)>& onRecord);

/// Reads the whole recording at `path`; see forEachRecord for what fails and what warns. With
/// `onProgress`, reports progress and can be cancelled as RecordVisitor::onProgress says.
Result<Recording> readRecording(const std::string& path,
                                const std::function<bool(uint64_t bytesRead, uint64_t fileBytes)>& onProgress = {});

}  // namespace syncscope::engine
