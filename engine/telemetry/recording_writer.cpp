// RecordingWriter (see recording_writer.h): frames go into a buffer and leave it through write(2).
#include "engine/telemetry/recording_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "engine/core/storage_errors.h"
#include "engine/telemetry/recording_format.h"
#include "engine/telemetry/recording_reader.h"

namespace syncscope::engine {
namespace {

constexpr size_t kFlushThresholdBytes = 64 * 1024;

Status writeError(const std::string& path, int error) {
    return unavailable("cannot write the recording '" + path + "': " + std::strerror(error) + "; " +
                       storageFix(error) + ", or record to another path (the records written so far are kept)");
}

}  // namespace

RecordingWriter::RecordingWriter(std::string path, int fd) : m_path(std::move(path)), m_fd(fd) {}

RecordingWriter::~RecordingWriter() {
    (void)flush();  // a failure here has nobody to tell; callers that care call flush() first
    ::close(m_fd);
}

Result<std::unique_ptr<RecordingWriter>> RecordingWriter::create(const std::string& path,
                                                                 const wire::RecordingHeader& header) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return unavailable("cannot create the recording '" + path + "': " + std::strerror(errno) +
                           "; check that its folder exists and is writable, or record to another path");
    std::unique_ptr<RecordingWriter> writer(new RecordingWriter(path, fd));
    writer->m_buffer.append(kRecordingMagic);
    writer->bufferFrame(header.SerializeAsString());
    if (Status s = writer->writeBuffer(); !s) return s;
    return writer;
}

Status RecordingWriter::append(const wire::Record& record) {
    if (failing() && m_buffer.size() >= kMaxBacklogBytes) {
        ++m_dropped;  // only whole frames are dropped: what is on disk and in memory stays readable
        return m_writeStatus;
    }
    bufferFrame(record.SerializeAsString());
    if (failing()) return m_writeStatus;  // retried by flush(), once a tick
    return m_buffer.size() >= kFlushThresholdBytes ? writeBuffer() : Status::ok();
}

Status RecordingWriter::flush() { return writeBuffer(); }

void RecordingWriter::bufferFrame(const std::string& payload) {
    const auto frameHeader = encodeFrameHeader(payload);
    m_buffer.append(frameHeader.data(), frameHeader.size());
    m_buffer.append(payload);
}

// Writes the whole buffer or fails: a short write (the disk filling up) is retried until the
// kernel reports the error. What was written leaves the buffer; the rest (perhaps the second half
// of a frame) stays, to be written right after it once there is space again.
Status RecordingWriter::writeBuffer() {
    size_t done = 0;
    while (done < m_buffer.size()) {
        const ssize_t n = ::write(m_fd, m_buffer.data() + done, m_buffer.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            m_writeStatus = writeError(m_path, n < 0 ? errno : EIO);
            m_buffer.erase(0, done);
            return m_writeStatus;
        }
        done += static_cast<size_t>(n);
    }
    m_buffer.clear();
    m_writeStatus = Status::ok();
    return m_writeStatus;
}

Result<std::unique_ptr<RecordingWriter>> RecordingWriter::resume(const std::string& path, wire::RecordingHeader* existing) {
    auto scan = forEachRecord(path, [](wire::Record&&) {});
    if (!scan) return scan.status();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::ftruncate(fd, static_cast<off_t>(scan->validBytes)) != 0 ||
        ::lseek(fd, 0, SEEK_END) < 0) {
        const int error = errno;
        if (fd >= 0) ::close(fd);
        return unavailable("cannot continue the recording '" + path + "': " + std::strerror(error));
    }
    if (existing) *existing = scan->header;
    return std::unique_ptr<RecordingWriter>(new RecordingWriter(path, fd));
}

}  // namespace syncscope::engine
