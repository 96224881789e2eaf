// Recording reader (see recording_reader.h): a frame at a time through stdio, every length and
// checksum checked before a payload is trusted.
#include "engine/telemetry/recording_reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

#include "engine/telemetry/file_versions.h"
#include "engine/telemetry/recording_format.h"

namespace syncscope::engine {
namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

enum class FrameEnd { Whole, EndOfFile, Partial, BadLength, BadChecksum };

struct Frame {
    FrameEnd end = FrameEnd::Whole;
    std::string payload;
    uint64_t bytes = 0;  ///< read from the file for this frame, header included
};

Status readError(const std::string& path, int error) {
    return unavailable("cannot read the recording '" + path + "': " + std::strerror(error) +
                       "; check that it is a readable file");
}

// Reads up to `size` bytes; fewer arrive only at the end of the file.
Result<size_t> readUpTo(std::FILE* file, const std::string& path, char* out, size_t size) {
    const size_t n = std::fread(out, 1, size, file);
    if (n < size && std::ferror(file)) return readError(path, errno);
    return n;
}

// Reads up to `size` bytes into `out`, growing it as they arrive: a frame's length field is not
// trusted with an allocation, since a 20-byte file can claim a 64 MiB frame.
Result<size_t> readGrowing(std::FILE* file, const std::string& path, std::string& out, size_t size) {
    constexpr size_t kChunk = size_t(64) << 10;
    out.clear();
    while (out.size() < size) {
        const size_t done = out.size();
        out.resize(std::min(size, done + kChunk));
        auto got = readUpTo(file, path, out.data() + done, out.size() - done);
        if (!got) return got.status();
        const bool endOfFile = done + *got < out.size();
        out.resize(done + *got);
        if (endOfFile) break;
    }
    return out.size();
}

Result<Frame> readFrame(std::FILE* file, const std::string& path) {
    Frame frame;
    char header[kFrameHeaderBytes];
    auto got = readUpTo(file, path, header, sizeof header);
    if (!got) return got.status();
    frame.bytes = *got;
    if (*got < sizeof header) {
        frame.end = *got == 0 ? FrameEnd::EndOfFile : FrameEnd::Partial;
        return frame;
    }
    const FrameHeader fields = decodeFrameHeader(header);
    if (fields.length > kMaxFramePayloadBytes) {
        frame.end = FrameEnd::BadLength;
        return frame;
    }
    got = readGrowing(file, path, frame.payload, fields.length);
    if (!got) return got.status();
    frame.bytes += *got;
    if (*got < fields.length) frame.end = FrameEnd::Partial;
    else if (frameChecksum(frame.payload) != fields.checksum) frame.end = FrameEnd::BadChecksum;
    return frame;
}

Status notARecording(const std::string& path, const std::string& why) {
    return dataLoss("'" + path + "' is not a SyncScope recording (" + why +
                    "); open a file a coordinator recorded");
}

// Checks the magic and decodes the header frame; `offset` ends up just past it.
Result<wire::RecordingHeader> readHeader(std::FILE* file, const std::string& path, uint64_t& offset) {
    char magic[kRecordingMagic.size()];
    auto got = readUpTo(file, path, magic, sizeof magic);
    if (!got) return got.status();
    if (*got == 0) return notARecording(path, "the file is empty");
    if (Status s = checkFileFormat(std::string_view(magic, *got), kRecordingKind, kRecordingFormat, path, "recording");
        !s)
        return s;
    if (*got < sizeof magic || kRecordingMagic != std::string_view(magic, sizeof magic))
        return notARecording(path, "it does not start with the SSREC01 signature");
    auto frame = readFrame(file, path);
    if (!frame) return frame.status();
    wire::RecordingHeader header;
    if (frame->end != FrameEnd::Whole || !header.ParseFromString(frame->payload))
        return notARecording(path, "its header is cut short or corrupt");
    offset = sizeof magic + frame->bytes;
    return header;
}

std::string corruptWarning(const std::string& path, uint64_t offset, size_t index, const std::string& why) {
    return "'" + path + "' is corrupt at byte offset " + std::to_string(offset) + " (record " + std::to_string(index) +
           ", counting from 0): " + why + "; kept the " + std::to_string(index) +
           " records before it and ignored the rest of the file";
}

std::string truncatedWarning(const std::string& path, uint64_t discarded, size_t kept) {
    return "'" + path + "' ends in a partial record, as a crashed run leaves it: discarded the last " +
           std::to_string(discarded) + " bytes and kept the " + std::to_string(kept) + " whole records before them";
}

// The file's size for progress (0 when it cannot be told, as for a pipe).
uint64_t fileSize(std::FILE* file) {
    struct stat info {};
    return fstat(fileno(file), &info) == 0 && S_ISREG(info.st_mode) ? static_cast<uint64_t>(info.st_size) : 0;
}

}  // namespace

Result<RecordingScan> forEachRecord(const std::string& path, const std::function<void(wire::Record&&)>& onRecord) {
    return forEachRecord(path, RecordVisitor{{}, onRecord, {}});
}

Result<RecordingScan> forEachRecord(const std::string& path, const RecordVisitor& visitor) {
    File file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file && errno == ENOENT)
        return notFound("the recording '" + path + "' does not exist; check the path");
    if (!file) return readError(path, errno);
    RecordingScan scan;
    uint64_t offset = 0;
    auto header = readHeader(file.get(), path, offset);
    if (!header) return header.status();
    scan.header = std::move(*header);
    if (visitor.onHeader) visitor.onHeader(scan.header);
    const uint64_t fileBytes = fileSize(file.get());
    for (;;) {
        scan.validBytes = offset;
        auto frame = readFrame(file.get(), path);
        if (!frame) return frame.status();
        wire::Record record;
        switch (frame->end) {
        case FrameEnd::EndOfFile:
            return scan;
        case FrameEnd::Partial:
            scan.truncatedTail = true;
            scan.warning = truncatedWarning(path, frame->bytes, scan.recordCount);
            return scan;
        case FrameEnd::BadLength:
            scan.warning = corruptWarning(path, offset, scan.recordCount,
                                          "its length is beyond the limit of " +
                                              std::to_string(kMaxFramePayloadBytes) + " bytes");
            return scan;
        case FrameEnd::BadChecksum:
            scan.warning = corruptWarning(path, offset, scan.recordCount, "its checksum does not match");
            return scan;
        case FrameEnd::Whole:
            if (!record.ParseFromString(frame->payload)) {
                scan.warning = corruptWarning(path, offset, scan.recordCount, "it is not a syncscope.wire.Record");
                return scan;
            }
            if (visitor.onRecord) visitor.onRecord(std::move(record));
            ++scan.recordCount;
            offset += frame->bytes;
            if (visitor.onProgress && !visitor.onProgress(offset, fileBytes))
                return cancelled("reading '" + path + "' was cancelled after " + std::to_string(scan.recordCount) +
                                 " records");
            break;
        }
    }
}

Result<Recording> readRecording(const std::string& path,
                                const std::function<bool(uint64_t bytesRead, uint64_t fileBytes)>& onProgress) {
    Recording recording;
    auto keep = [&](wire::Record&& record) { recording.records.push_back(std::move(record)); };
    auto scan = forEachRecord(path, RecordVisitor{{}, keep, onProgress});
    if (!scan) return scan.status();
    recording.header = std::move(scan->header);
    recording.truncatedTail = scan->truncatedTail;
    recording.warning = std::move(scan->warning);
    return recording;
}

}  // namespace syncscope::engine
