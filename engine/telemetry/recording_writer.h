// RecordingWriter: appends checksummed frames to a run recording (format in recording_format.h).
// A write error (a full disk) makes the writer inert, so what is on disk stays readable up to the
// last whole record.
#pragma once

#include <memory>
#include <string>

#include "engine/core/status.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

/// One open recording file. Not thread-safe: the coordinator's loop owns it.
class RecordingWriter {
public:
    /// Creates (or truncates) `path` and writes the magic and `header` to disk at once, so even a
    /// run that crashes before its first flush() leaves a readable recording.
    static Result<std::unique_ptr<RecordingWriter>> create(const std::string& path,
                                                           const wire::RecordingHeader& header);
    /// Continues the recording at `path` (a resumed run): a partial last record is cut off, the
    /// header is kept, new records go after the last whole one. `header` is returned in `existing`.
    static Result<std::unique_ptr<RecordingWriter>> resume(const std::string& path, wire::RecordingHeader* existing);

    /// Flushes what is buffered and closes the file; call flush() first to learn of a failure.
    ~RecordingWriter();
    RecordingWriter(const RecordingWriter&) = delete;
    RecordingWriter& operator=(const RecordingWriter&) = delete;

    /// Buffers one record, writing the buffer out once it has grown past a few tens of KiB. While
    /// the disk is full, returns that error and keeps the records in memory (up to
    /// kMaxBacklogBytes; later ones are dropped and counted) for when space returns.
    Status append(const wire::Record& record);

    /// Hands everything buffered to the kernel (no fsync: a crashed process loses nothing that
    /// was flushed; a crashed machine may lose the last seconds). Called about once per tick; after
    /// a failure it is also the retry: what was cut off mid-frame continues where it stopped.
    Status flush();
    /// Whether the last write failed (and the records since wait in memory).
    bool failing() const { return !m_writeStatus.isOk(); }
    /// Records dropped because the disk stayed full past kMaxBacklogBytes.
    uint64_t droppedRecords() const { return m_dropped; }
    static constexpr size_t kMaxBacklogBytes = 32u << 20;

    const std::string& path() const { return m_path; }

private:
    RecordingWriter(std::string path, int fd);
    void bufferFrame(const std::string& payload);
    Status writeBuffer();

    std::string m_path;
    int m_fd = -1;
    std::string m_buffer;
    Status m_writeStatus;  ///< the last write's outcome: an error while the disk is full
    uint64_t m_dropped = 0;
};

}  // namespace syncscope::engine
