// Sealed frames (issue 30): a standard AEAD over each frame of one connection, the building block of
// an encrypted data plane at close to memory speed (ZeroMQ's CURVE seals each message with
// crypto_box through copies of its own, and reaches a tenth of raw ZeroMQ here: docs/security.md).
// This file holds the ciphers, the key schedule and the frame format; nothing in it touches a socket.
// The library is OpenSSL's libcrypto (EVP): its AES-256-GCM and ChaCha20-Poly1305 run 2.3-2.9x and 3.1x
// libsodium 1.0.18's here (bench_transport prints both on the host it runs on), and Python's
// `cryptography` package offers the same primitives to the PyTorch workers.
//
// Keys. Each side's long-term X25519 pair is its CURVE pair from the credentials file (a worker's role
// pair, the coordinator's own pair). Their X25519 shared secret, known only to the holders of the two
// secrets, goes through HKDF-SHA256 with a random salt from each side, once per direction: no two
// connections share a key, and frames of an old connection open under no new one.
//
// Frames. [8-byte little-endian counter][ciphertext][one 16-byte tag per segment]. The plaintext is
// cut into segments of kSegmentBytes (the last shorter; at least one), each sealed on its own with the
// nonce [segment index, 4 bytes LE][counter, 8 bytes LE], so a large frame is sealed and opened on
// several cores at once, and the plaintext stays whole and in place. A sealer's counter starts at 1
// and rises by one per frame, and an opener refuses a counter that is not above the last one it
// opened: a replayed or reordered frame is refused, and a nonce is never used twice under one key.
// Every segment authenticates the counter and the plaintext's length (associated data: both, 8 bytes
// LE each), so a frame cut short or with segments moved does not open.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/status.h"
#include "engine/net/credentials.h"

struct evp_cipher_ctx_st;  // OpenSSL's EVP_CIPHER_CTX, kept out of the header

namespace syncscope::engine {

/// The AEADs a connection may use (RFC 5116 and RFC 8439). The numbers travel on the wire.
enum class Cipher : uint8_t {
    ChaCha20Poly1305 = 1,  ///< fast and constant-time in software, on any CPU
    Aes256Gcm = 2,         ///< the fastest where the CPU has AES and carry-less multiply instructions
};

/// Whether this CPU has the instructions that make AES-256-GCM fast and constant-time (x86-64: AES-NI
/// and PCLMULQDQ). Without them AES-256-GCM is not used.
bool aesGcmAvailable();
/// The fastest cipher this CPU runs: AES-256-GCM where it can, else ChaCha20-Poly1305.
Cipher preferredCipher();
/// The cipher two sides agree on: AES-256-GCM where both run it, else ChaCha20-Poly1305.
Cipher agreedCipher(bool peerRunsAesGcm);
/// "AES-256-GCM", "ChaCha20-Poly1305".
std::string_view cipherName(Cipher cipher);

/// A side's random contribution to a connection's keys.
inline constexpr size_t kSaltBytes = 32;
using Salt = std::array<uint8_t, kSaltBytes>;
Salt randomSalt();

/// A sealed frame's counter and tags, and the segments its plaintext is sealed in.
inline constexpr size_t kCounterBytes = 8;
inline constexpr size_t kTagBytes = 16;
inline constexpr size_t kSegmentBytes = size_t(256) << 10;
/// Threads a large frame is sealed or opened on at most (fewer where the CPU has fewer cores).
inline constexpr int kSealThreads = 4;
/// The threads a large frame gets on this machine: kSealThreads or the cores, the fewer.
int sealThreads();
/// Bytes a sealed frame has beyond a plaintext of at most one segment.
inline constexpr size_t kSealOverhead = kCounterBytes + kTagBytes;
/// The segments of a plaintext of `plainBytes` (at least one).
inline size_t segmentsOf(size_t plainBytes) {
    return plainBytes == 0 ? 1 : (plainBytes + kSegmentBytes - 1) / kSegmentBytes;
}
/// The size of the sealed frame of `plainBytes` bytes.
inline size_t sealedSize(size_t plainBytes) { return kCounterBytes + plainBytes + kTagBytes * segmentsOf(plainBytes); }
/// The plaintext's size in a sealed frame of `frameBytes`; an empty optional when no plaintext seals
/// to that size.
std::optional<size_t> plainSizeOf(size_t frameBytes);

/// One connection's keys, one per direction.
struct SessionKeys {
    std::array<uint8_t, 32> send{}, receive{};
};

/// Which end of the connection derives (the one that connected, or the one that bound).
enum class SessionSide { Client, Server };

/// A raw X25519 public key (32 bytes), as the handshake carries it.
using PublicKeyBytes = std::array<uint8_t, 32>;

/// A pair made for one connection and forgotten with it (its secret cleansed): with it in the keys,
/// someone who later learns both long-term secrets still cannot open a recorded connection (forward
/// secrecy), and a holder of the (shared) worker pair cannot open another worker's connection.
struct EphemeralKey {
    PublicKeyBytes publicKey{};
    std::array<uint8_t, 32> secretKey{};
    static EphemeralKey generate();
    ~EphemeralKey();
};

/// A connection's keys from this side's CURVE pair (Z85, as in the credentials file), the peer's
/// public key and both salts (the client's first), and, when given, this side's one-connection pair
/// and the peer's one-connection public key (both ends give them or neither). Both ends derive the
/// same two keys, crossed. An error for a key that is not Z85 of 32 bytes, or a public key whose
/// shared secret is zero (a low-order point).
Result<SessionKeys> deriveSessionKeys(SessionSide side, const KeyPair& own, const std::string& peerPublicZ85,
                                      const Salt& clientSalt, const Salt& serverSalt,
                                      const EphemeralKey* ownEphemeral = nullptr,
                                      const PublicKeyBytes* peerEphemeral = nullptr);

/// An OpenSSL cipher context keyed for one direction (freed, and its key schedule cleansed, with it).
struct CipherContextFree {
    void operator()(evp_cipher_ctx_st* context) const;
};
using CipherContext = std::unique_ptr<evp_cipher_ctx_st, CipherContextFree>;

/// Seals one direction's frames under one key. Not thread-safe: one sender per direction.
class FrameSealer {
public:
    /// `maxThreads`: the threads a large frame's segments are sealed on, at most (sealThreads() caps it).
    FrameSealer(Cipher cipher, const std::array<uint8_t, 32>& key, int maxThreads = kSealThreads);

    /// Seals `size` bytes of `plain` into `out`, which has room for sealedSize(size) bytes; `plain` may
    /// be `out + kCounterBytes` (sealed in place). Returns the counter it used.
    uint64_t seal(const uint8_t* plain, size_t size, uint8_t* out);
    /// The counter the next frame gets.
    uint64_t nextCounter() const { return m_counter + 1; }

private:
    std::array<uint8_t, 32> m_key;
    Cipher m_cipher;
    std::vector<CipherContext> m_contexts;  ///< one per thread, keyed on first use
    int m_maxThreads;
    uint64_t m_counter = 0;
};

/// Opens one direction's frames under one key, refusing forgeries and replays.
class FrameOpener {
public:
    FrameOpener(Cipher cipher, const std::array<uint8_t, 32>& key, int maxThreads = kSealThreads);

    /// Opens a sealed frame in place: on success the plaintext is the `*plainSizeOf(size)` bytes at
    /// `frame + kCounterBytes`, and its counter is returned. An error (the last counter unchanged, the
    /// frame's bytes no longer to be read) for a frame too short, a counter not above the last one
    /// opened (a replay), or a tag that does not match (tampered, or sealed under another key).
    Result<uint64_t> open(uint8_t* frame, size_t size);
    /// The last counter opened (0: none yet).
    uint64_t lastCounter() const { return m_last; }

private:
    std::array<uint8_t, 32> m_key;
    Cipher m_cipher;
    std::vector<CipherContext> m_contexts;  ///< one per thread, keyed on first use
    int m_maxThreads;
    uint64_t m_last = 0;
};

}  // namespace syncscope::engine
