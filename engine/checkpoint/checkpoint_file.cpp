// Checkpoint files (see checkpoint_file.h).
#include "engine/checkpoint/checkpoint_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>

#include "engine/core/storage_errors.h"
#include "engine/core/version.h"
#include "engine/net/protocol.h"
#include "engine/telemetry/file_versions.h"
#include "engine/telemetry/recording_format.h"

namespace syncscope::engine {
namespace {

/// Its digit is the format (kCheckpointFormat), changed with any incompatible change of the layout.
constexpr std::string_view kCheckpointMagic{"SSCKPT1\n", 8};
constexpr std::string_view kCheckpointKind{"SSCKPT"};
constexpr unsigned kCheckpointFormat = 1;

uint32_t crcOf(uint32_t crc, const void* data, size_t bytes) {
    return static_cast<uint32_t>(crc32(crc, static_cast<const Bytef*>(data), static_cast<uInt>(bytes)));
}

Status ioError(const std::string& what, const std::string& path) {
    const int error = errno;
    return unavailable(fmt::format("cannot {} the checkpoint '{}': {}; {}", what, path, std::strerror(error),
                                   storageFix(error)));
}

bool writeAll(int fd, const void* data, size_t bytes) {
    const char* p = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::write(fd, p, bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        bytes -= size_t(n);
    }
    return true;
}

}  // namespace

Status writeCheckpointFile(const std::string& path, const CheckpointData& data) {
    const std::string state = data.state.SerializeAsString();
    const auto header = encodeFrameHeader(state);
    const std::string temporary = path + ".partial";
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return ioError("create", temporary);
    uint32_t crc = 0;
    bool ok = true;
    const auto put = [&](const void* bytes, size_t size) {
        ok = ok && writeAll(fd, bytes, size);
        crc = crcOf(crc, bytes, size);
    };
    put(kCheckpointMagic.data(), kCheckpointMagic.size());
    put(header.data(), header.size());
    put(state.data(), state.size());
    put(data.parameters.data(), data.parameters.size() * sizeof(float));
    put(data.momentum.data(), data.momentum.size() * sizeof(float));
    uint8_t tail[4];
    for (int i = 0; i < 4; ++i) tail[i] = uint8_t(crc >> (8 * i));
    ok = ok && writeAll(fd, tail, sizeof tail) && ::fsync(fd) == 0;
    const int error = errno;
    ::close(fd);
    if (!ok) {
        ::unlink(temporary.c_str());
        errno = error;
        return ioError("write", path);
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0) return ioError("rename into place", path);
    const std::string folder = path.substr(0, path.rfind('/') == std::string::npos ? 0 : path.rfind('/'));
    if (const int dir = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
        ::fsync(dir);  // the rename itself reaches the disk
        ::close(dir);
    }
    return Status::ok();
}

Result<CheckpointData> readCheckpointFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return notFound(fmt::format("cannot read the checkpoint '{}': {}", path, std::strerror(errno)));
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    const auto bad = [&](const std::string& why) { return dataLoss(fmt::format("checkpoint '{}' {}", path, why)); };
    if (Status s = checkFileFormat(bytes, kCheckpointKind, kCheckpointFormat, path, "checkpoint"); !s) return s;
    if (bytes.size() < kCheckpointMagic.size() + kFrameHeaderBytes + 4 ||
        std::string_view(bytes).substr(0, kCheckpointMagic.size()) != kCheckpointMagic)
        return bad("is not a SyncScope checkpoint (no magic)");
    const size_t body = bytes.size() - 4;
    uint32_t stored = 0;
    for (int i = 0; i < 4; ++i) stored |= uint32_t(uint8_t(bytes[body + i])) << (8 * i);
    if (crcOf(0, bytes.data(), body) != stored) return bad("is torn or corrupt (checksum mismatch)");
    const FrameHeader frame = decodeFrameHeader(bytes.data() + kCheckpointMagic.size());
    const size_t stateAt = kCheckpointMagic.size() + kFrameHeaderBytes;
    if (frame.length > body - stateAt) return bad("has a state frame longer than the file");
    CheckpointData data;
    if (!data.state.ParseFromArray(bytes.data() + stateAt, static_cast<int>(frame.length)))
        return bad("has an unreadable state");
    if (const wire::RecordingHeader& header = data.state.header(); header.protocol_major() > kProtocolMajor)
        return invalidArgument(fmt::format("checkpoint '{}' was written by {}, and this SyncScope {} reads protocol {} "
                                           "only: resume it with that release or a later one",
                                           path, writerOf(header), kSyncScopeVersion, kProtocolMajor));
    const uint64_t count = data.state.parameter_count();
    const size_t tensorsAt = stateAt + frame.length;
    if (count == 0 || count > kMaxParameters || body - tensorsAt != 2 * count * sizeof(float))
        return bad(fmt::format("holds {} bytes of tensors for {} parameters", body - tensorsAt, count));
    data.parameters.resize(count);
    data.momentum.resize(count);
    std::memcpy(data.parameters.data(), bytes.data() + tensorsAt, count * sizeof(float));
    std::memcpy(data.momentum.data(), bytes.data() + tensorsAt + count * sizeof(float), count * sizeof(float));
    return data;
}

}  // namespace syncscope::engine
