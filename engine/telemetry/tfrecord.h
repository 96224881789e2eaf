// TFRecord framing, as TensorBoard's event files use it: [uint64 LE length][uint32 LE masked
// CRC-32C of the length][payload][uint32 LE masked CRC-32C of the payload]. CRC-32C (Castagnoli)
// comes from Intel's ISA-L (Debian: libisal-dev); the mask is TensorFlow's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace syncscope::engine {

/// CRC-32C of `bytes` (the iSCSI / Castagnoli polynomial; "123456789" gives 0xE3069283).
uint32_t crc32c(std::string_view bytes);

/// TensorFlow's masked CRC: ((crc >> 15) | (crc << 17)) + 0xa282ead8, of CRC-32C(bytes).
uint32_t maskedCrc32c(std::string_view bytes);

/// One TFRecord: the framing above around `payload`.
std::string encodeTfRecord(std::string_view payload);

}  // namespace syncscope::engine
