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

    /// Flushes what is buffered and closes the file; call flush() first to learn of a failure.
    ~RecordingWriter();
    RecordingWriter(const RecordingWriter&) = delete;
    RecordingWriter& operator=(const RecordingWriter&) = delete;

    /// Buffers one record, writing the buffer out once it has grown past a few tens of KiB.
    /// After a write error, returns that error again and writes nothing.
    Status append(const wire::Record& record);

    /// Hands everything buffered to the kernel (no fsync: a crashed process loses nothing that
    /// was flushed; a crashed machine may lose the last seconds). Called about once per tick.
    Status flush();

    const std::string& path() const { return m_path; }

private:
    RecordingWriter(std::string path, int fd);
    void bufferFrame(const std::string& payload);
    Status writeBuffer();

    std::string m_path;
    int m_fd = -1;
    std::string m_buffer;
    Status m_writeStatus;  ///< ok until the first write error; after it, nothing more is written
};

}  // namespace syncscope::engine
