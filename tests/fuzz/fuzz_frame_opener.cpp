// Fuzzes the sealed-frame opener (engine/net/frame_seal.*) with whole inputs taken as a run of frames
// from an attacker on the wire: the first byte picks the cipher, then each frame is a 2-byte length
// and that many bytes. No input may crash the opener or open a frame it did not seal; the counter only
// rises. Then the input's bytes, sealed by the connection's own sealer, must open to themselves.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/core/check.h"
#include "engine/net/frame_seal.h"

using namespace syncscope::engine;

namespace {

std::array<uint8_t, 32> fixedKey(uint8_t seed) {
    std::array<uint8_t, 32> key{};
    for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(seed + 31 * i);
    return key;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const Cipher cipher = (data[0] & 1) && aesGcmAvailable() ? Cipher::Aes256Gcm : Cipher::ChaCha20Poly1305;
    FrameOpener opener(cipher, fixedKey(1));
    size_t at = 1;
    while (at + 2 <= size) {
        const size_t length = std::min<size_t>(size_t(data[at]) | size_t(data[at + 1]) << 8, size - at - 2);
        std::vector<uint8_t> frame(data + at + 2, data + at + 2 + length);
        at += 2 + length;
        const uint64_t before = opener.lastCounter();
        auto opened = opener.open(frame.data(), frame.size());
        // Nobody but the key's holder seals under it: a frame from the input opening is a forgery.
        SS_CHECK(!opened.isOk(), "a frame the fuzzer made up opened");
        SS_CHECK(opener.lastCounter() == before, "a refused frame moved the counter");
    }
    // The same bytes sealed by the connection's sealer open to themselves, once.
    FrameSealer sealer(cipher, fixedKey(2));
    FrameOpener receiver(cipher, fixedKey(2));
    std::vector<uint8_t> frame(sealedSize(size));
    sealer.seal(data, size, frame.data());
    std::vector<uint8_t> copy = frame;
    auto opened = receiver.open(frame.data(), frame.size());
    SS_CHECK(opened.isOk() && *opened == 1, "a sealed frame did not open");
    SS_CHECK(std::memcmp(frame.data() + kCounterBytes, data, size) == 0, "a frame opened to other bytes");
    SS_CHECK(!receiver.open(copy.data(), copy.size()).isOk(), "a replayed frame opened");
    return 0;
}
