// The on-disk format of a run recording, in one place for the writer, the reader and the tests:
// the 8-byte magic "SSREC01\n", then frames of [uint32 LE payload length][uint32 LE CRC-32 of the
// payload][payload]. The first payload is a wire::RecordingHeader, every later one a wire::Record.
#pragma once

#include <zlib.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace syncscope::engine {

/// Opens every recording; its two digits are the format (kRecordingFormat), changed with any
/// incompatible change of framing.
inline constexpr std::string_view kRecordingMagic{"SSREC01\n", 8};
inline constexpr std::string_view kRecordingKind{"SSREC"};
inline constexpr unsigned kRecordingFormat = 1;

/// The format a file of `kind` ("SSREC", "SSCKPT") names in its first bytes `start` ("SSREC01\n":
/// 1): the digits between the kind and the newline. Nothing when `start` is no file of that kind.
inline std::optional<unsigned> formatNamed(std::string_view start, std::string_view kind) {
    if (start.substr(0, kind.size()) != kind) return std::nullopt;
    const size_t end = start.find('\n', kind.size());
    if (end == std::string_view::npos || end == kind.size() || end > kind.size() + 4) return std::nullopt;
    unsigned format = 0;
    for (const char c : start.substr(kind.size(), end - kind.size())) {
        if (c < '0' || c > '9') return std::nullopt;
        format = format * 10 + static_cast<unsigned>(c - '0');
    }
    return format;
}

/// Length and checksum that precede each payload.
inline constexpr size_t kFrameHeaderBytes = 8;

/// A larger length can only be garbage: no header or record comes near it.
inline constexpr uint32_t kMaxFramePayloadBytes = 64u << 20;

/// The zlib CRC-32 of a frame's payload.
inline uint32_t frameChecksum(std::string_view payload) {
    return static_cast<uint32_t>(
        crc32(0L, reinterpret_cast<const Bytef*>(payload.data()), static_cast<uInt>(payload.size())));
}

/// The frame header for `payload`: its length and its checksum, both little-endian.
inline std::array<char, kFrameHeaderBytes> encodeFrameHeader(std::string_view payload) {
    std::array<char, kFrameHeaderBytes> out{};
    const uint32_t fields[2] = {static_cast<uint32_t>(payload.size()), frameChecksum(payload)};
    for (size_t i = 0; i < kFrameHeaderBytes; ++i) out[i] = static_cast<char>((fields[i / 4] >> (8 * (i % 4))) & 0xFF);
    return out;
}

struct FrameHeader {
    uint32_t length = 0;
    uint32_t checksum = 0;
};

/// Reads the length and checksum back from kFrameHeaderBytes bytes.
inline FrameHeader decodeFrameHeader(const char* bytes) {
    uint32_t fields[2] = {0, 0};
    for (size_t i = 0; i < kFrameHeaderBytes; ++i)
        fields[i / 4] |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << (8 * (i % 4));
    return {fields[0], fields[1]};
}

}  // namespace syncscope::engine
