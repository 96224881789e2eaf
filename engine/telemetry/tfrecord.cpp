// TFRecord framing (see tfrecord.h).
#include "engine/telemetry/tfrecord.h"

#include <isa-l/crc.h>

namespace syncscope::engine {
namespace {

constexpr uint32_t kMaskDelta = 0xa282ead8u;

void appendLittleEndian(std::string& out, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

}  // namespace

uint32_t crc32c(std::string_view bytes) {
    // ISA-L's crc32_iscsi takes and returns the register without the final inversion.
    // It takes a non-const pointer but only reads.
    auto* data = reinterpret_cast<unsigned char*>(const_cast<char*>(bytes.data()));
    return ~crc32_iscsi(data, static_cast<int>(bytes.size()), 0xFFFFFFFFu);
}

uint32_t maskedCrc32c(std::string_view bytes) {
    const uint32_t crc = crc32c(bytes);
    return ((crc >> 15) | (crc << 17)) + kMaskDelta;
}

std::string encodeTfRecord(std::string_view payload) {
    std::string out;
    out.reserve(payload.size() + 16);
    appendLittleEndian(out, payload.size(), 8);
    appendLittleEndian(out, maskedCrc32c(out), 4);
    out.append(payload);
    appendLittleEndian(out, maskedCrc32c(payload), 4);
    return out;
}

}  // namespace syncscope::engine
