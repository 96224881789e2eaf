#include "engine/net/frame_seal.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>
#include <zmq.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "engine/core/check.h"

namespace syncscope::engine {

namespace {

using Key = std::array<uint8_t, 32>;

/// The nonce of a counter: 4 zero bytes, then the counter little-endian (12 bytes, as both AEADs take).
std::array<uint8_t, 12> nonceOf(uint64_t counter) {
    std::array<uint8_t, 12> nonce{};
    for (size_t i = 0; i < 8; ++i) nonce[4 + i] = static_cast<uint8_t>(counter >> (8 * i));
    return nonce;
}

void putCounter(uint8_t* out, uint64_t counter) {
    for (size_t i = 0; i < kCounterBytes; ++i) out[i] = static_cast<uint8_t>(counter >> (8 * i));
}

uint64_t readCounter(const uint8_t* in) {
    uint64_t counter = 0;
    for (size_t i = 0; i < kCounterBytes; ++i) counter |= uint64_t(in[i]) << (8 * i);
    return counter;
}

Result<Key> decodeKey(const std::string& z85, const char* what) {
    Key key{};
    if (z85.size() != 40 || !zmq_z85_decode(key.data(), z85.c_str()))
        return invalidArgument(fmt::format("the {} is not a CURVE key (40 characters of Z85); the credentials file "
                                           "may be damaged: make a new one with syncscope-engine keygen",
                                           what));
    return key;
}

struct PkeyDeleter {
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct PkeyContextDeleter {
    void operator()(EVP_PKEY_CTX* context) const { EVP_PKEY_CTX_free(context); }
};
struct KdfDeleter {
    void operator()(EVP_KDF* kdf) const { EVP_KDF_free(kdf); }
};
struct KdfContextDeleter {
    void operator()(EVP_KDF_CTX* context) const { EVP_KDF_CTX_free(context); }
};

/// The X25519 shared secret of a secret key and a peer's public key; empty when OpenSSL refuses
/// (a zero result: the peer's key is a low-order point).
std::optional<Key> sharedSecret(const Key& secret, const Key& peerPublic) {
    std::unique_ptr<EVP_PKEY, PkeyDeleter> own(
        EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, secret.data(), secret.size()));
    std::unique_ptr<EVP_PKEY, PkeyDeleter> peer(
        EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nullptr, peerPublic.data(), peerPublic.size()));
    if (!own || !peer) return std::nullopt;
    std::unique_ptr<EVP_PKEY_CTX, PkeyContextDeleter> context(EVP_PKEY_CTX_new(own.get(), nullptr));
    Key shared{};
    size_t length = shared.size();
    if (!context || EVP_PKEY_derive_init(context.get()) <= 0 || EVP_PKEY_derive_set_peer(context.get(), peer.get()) <= 0 ||
        EVP_PKEY_derive(context.get(), shared.data(), &length) <= 0 || length != shared.size())
        return std::nullopt;
    return shared;
}

/// HKDF-SHA256 (RFC 5869) of the shared secrets (long-term, then one-connection), salted with both sides' salts, for one direction.
Key directionKey(const std::vector<uint8_t>& shared, const Salt& clientSalt, const Salt& serverSalt, std::string_view direction,
                 const Key& clientPublic, const Key& serverPublic) {
    std::array<uint8_t, 2 * kSaltBytes> salt{};
    std::copy(clientSalt.begin(), clientSalt.end(), salt.begin());
    std::copy(serverSalt.begin(), serverSalt.end(), salt.begin() + kSaltBytes);
    // The info names the protocol, the direction and both public keys.
    std::string info = fmt::format("syncscope sealed frames v1 {}", direction);
    info.append(reinterpret_cast<const char*>(clientPublic.data()), clientPublic.size());
    info.append(reinterpret_cast<const char*>(serverPublic.data()), serverPublic.size());

    std::unique_ptr<EVP_KDF, KdfDeleter> kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr));
    SS_CHECK(kdf, "OpenSSL has no HKDF");
    std::unique_ptr<EVP_KDF_CTX, KdfContextDeleter> context(EVP_KDF_CTX_new(kdf.get()));
    SS_CHECK(context, "OpenSSL could not make an HKDF context");
    char digest[] = "SHA256";
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<uint8_t*>(shared.data()), shared.size()),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, salt.data(), salt.size()),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info.data(), info.size()),
        OSSL_PARAM_construct_end()};
    Key key{};
    SS_CHECK(EVP_KDF_derive(context.get(), key.data(), key.size(), params) > 0, "OpenSSL's HKDF failed");
    return key;
}

const EVP_CIPHER* evpCipher(Cipher cipher) {
    return cipher == Cipher::Aes256Gcm ? EVP_aes_256_gcm() : EVP_chacha20_poly1305();
}


}  // namespace

bool aesGcmAvailable() {
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_cpu_supports("aes") && __builtin_cpu_supports("pclmul");
#else
    return false;  // elsewhere ChaCha20-Poly1305, constant-time in software everywhere
#endif
}

Cipher preferredCipher() { return aesGcmAvailable() ? Cipher::Aes256Gcm : Cipher::ChaCha20Poly1305; }

Cipher agreedCipher(bool peerRunsAesGcm) {
    return peerRunsAesGcm && aesGcmAvailable() ? Cipher::Aes256Gcm : Cipher::ChaCha20Poly1305;
}

std::string_view cipherName(Cipher cipher) {
    return cipher == Cipher::Aes256Gcm ? "AES-256-GCM" : "ChaCha20-Poly1305";
}

Salt randomSalt() {
    Salt salt{};
    SS_CHECK(RAND_bytes(salt.data(), static_cast<int>(salt.size())) == 1, "OpenSSL's random generator failed");
    return salt;
}

EphemeralKey EphemeralKey::generate() {
    EphemeralKey pair;
    SS_CHECK(RAND_bytes(pair.secretKey.data(), static_cast<int>(pair.secretKey.size())) == 1,
             "OpenSSL's random generator failed");
    std::unique_ptr<EVP_PKEY, PkeyDeleter> key(
        EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, pair.secretKey.data(), pair.secretKey.size()));
    size_t length = pair.publicKey.size();
    SS_CHECK(key && EVP_PKEY_get_raw_public_key(key.get(), pair.publicKey.data(), &length) == 1 &&
                 length == pair.publicKey.size(),
             "OpenSSL could not make an X25519 key pair");
    return pair;
}

EphemeralKey::~EphemeralKey() { OPENSSL_cleanse(secretKey.data(), secretKey.size()); }

Result<SessionKeys> deriveSessionKeys(SessionSide side, const KeyPair& own, const std::string& peerPublicZ85,
                                      const Salt& clientSalt, const Salt& serverSalt,
                                      const EphemeralKey* ownEphemeral, const PublicKeyBytes* peerEphemeral) {
    auto ownPublic = decodeKey(own.publicKey, "own public key");
    if (!ownPublic) return ownPublic.status();
    auto ownSecret = decodeKey(own.secretKey, "own secret key");
    if (!ownSecret) return ownSecret.status();
    auto peerPublic = decodeKey(peerPublicZ85, "peer's public key");
    if (!peerPublic) return peerPublic.status();
    auto longTerm = sharedSecret(*ownSecret, *peerPublic);
    OPENSSL_cleanse(ownSecret->data(), ownSecret->size());
    if (!longTerm)
        return invalidArgument("the peer's public key is not a usable X25519 key (no shared secret comes of it); the "
                               "credentials file may be damaged: make a new one with syncscope-engine keygen");
    std::vector<uint8_t> shared(longTerm->begin(), longTerm->end());
    OPENSSL_cleanse(longTerm->data(), longTerm->size());
    SS_CHECK(!ownEphemeral == !peerEphemeral, "one-connection keys from one side only");
    if (ownEphemeral) {
        auto oneConnection = sharedSecret(ownEphemeral->secretKey, *peerEphemeral);
        if (!oneConnection)
            return invalidArgument("the peer's one-connection key is not a usable X25519 key (a forged handshake?)");
        shared.insert(shared.end(), oneConnection->begin(), oneConnection->end());
        OPENSSL_cleanse(oneConnection->data(), oneConnection->size());
    }
    const bool client = side == SessionSide::Client;
    const Key& clientPublic = client ? *ownPublic : *peerPublic;
    const Key& serverPublic = client ? *peerPublic : *ownPublic;
    const Key up = directionKey(shared, clientSalt, serverSalt, "client to server", clientPublic, serverPublic);
    const Key down = directionKey(shared, clientSalt, serverSalt, "server to client", clientPublic, serverPublic);
    OPENSSL_cleanse(shared.data(), shared.size());
    SessionKeys keys;
    keys.send = client ? up : down;
    keys.receive = client ? down : up;
    return keys;
}

void CipherContextFree::operator()(evp_cipher_ctx_st* context) const { EVP_CIPHER_CTX_free(context); }

namespace {

/// An EVP context keyed for one direction; each segment only sets its nonce.
CipherContext keyedContext(Cipher cipher, const Key& key, bool encrypt) {
    if (cipher == Cipher::Aes256Gcm)
        SS_CHECK(aesGcmAvailable(), "AES-256-GCM asked for on a CPU without AES-NI and PCLMULQDQ");
    CipherContext context(EVP_CIPHER_CTX_new());
    SS_CHECK(context, "OpenSSL could not make a cipher context");
    const int done = encrypt ? EVP_EncryptInit_ex(context.get(), evpCipher(cipher), nullptr, key.data(), nullptr)
                             : EVP_DecryptInit_ex(context.get(), evpCipher(cipher), nullptr, key.data(), nullptr);
    SS_CHECK(done == 1, "OpenSSL could not key the cipher");
    return context;
}

/// The nonce of one segment of a frame: its index, then the frame's counter (both little-endian).
std::array<uint8_t, 12> segmentNonce(uint32_t segment, uint64_t counter) {
    std::array<uint8_t, 12> nonce = nonceOf(counter);
    for (size_t i = 0; i < 4; ++i) nonce[i] = static_cast<uint8_t>(segment >> (8 * i));
    return nonce;
}

/// The associated data of every segment: the counter and the plaintext's length.
std::array<uint8_t, 16> associatedData(uint64_t counter, size_t plainBytes) {
    std::array<uint8_t, 16> data{};
    putCounter(data.data(), counter);
    putCounter(data.data() + 8, plainBytes);
    return data;
}

/// Threads for a frame of `segments`: one for a small frame, else up to `most` and sealThreads().
int threadsFor(size_t segments, int most) {
    return static_cast<int>(std::min<size_t>(segments, size_t(std::max(1, std::min(most, sealThreads())))));
}

/// Helper threads for a large frame's segments. They sleep on a condition variable between frames (no
/// spinning: a cluster on one small machine runs many processes, and spinning threads starved them,
/// 7x slower with OpenMP's default wait policy). One frame at a time: a second sealer that finds the
/// helpers busy does its segments alone. Every lane takes the next segment no lane has taken, and the
/// caller waits only for segments taken, not for helpers to wake: a helper that wakes late (tens of
/// microseconds on a busy machine; a 256 KiB segment takes about 65) leaves its share to the caller
/// instead of holding the frame, and finds the frame gone.
class SegmentHelpers {
public:
    static SegmentHelpers& instance() {
        static SegmentHelpers* helpers = new SegmentHelpers(sealThreads() - 1);  // never joined: lives with the process
        return *helpers;
    }
    /// Runs work(lane, s) for every segment s, on up to `lanes` lanes: the caller is lane 0, helper k
    /// lane k + 1.
    void run(int lanes, size_t segments, const std::function<void(int, size_t)>& work) {
        std::unique_lock busy(m_busy, std::try_to_lock);
        const int helpers = busy.owns_lock() ? std::min(lanes - 1, int(m_threads.size())) : 0;
        if (helpers == 0) {
            for (size_t s = 0; s < segments; ++s) work(0, s);
            return;
        }
        {
            std::lock_guard lock(m_mutex);
            m_work = &work;
            m_segments = segments;
            m_lanes = helpers + 1;
            m_next = 0;
            m_finished = 0;
            ++m_generation;
        }
        m_wake.notify_all();
        const size_t mine = takeSegments(0, work, segments);
        std::unique_lock lock(m_mutex);
        m_finished += mine;
        m_done.wait(lock, [&] { return m_finished == segments && m_inside == 0; });
        m_work = nullptr;  // a helper that wakes now finds no frame
    }

private:
    explicit SegmentHelpers(int count) {
        for (int k = 0; k < count; ++k) m_threads.emplace_back([this, k] { loop(k + 1); });
        for (std::thread& t : m_threads) t.detach();
    }
    /// Runs the segments no lane has taken yet, one at a time; returns how many it ran.
    size_t takeSegments(int lane, const std::function<void(int, size_t)>& work, size_t segments) {
        size_t ran = 0;
        for (size_t s; (s = m_next.fetch_add(1)) < segments; ++ran) work(lane, s);
        return ran;
    }
    void loop(int lane) {
        uint64_t seen = 0;
        for (;;) {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_generation != seen; });
            seen = m_generation;
            if (lane >= m_lanes || !m_work) continue;  // not needed for this frame, or it is done
            const auto* work = m_work;
            const size_t segments = m_segments;
            ++m_inside;  // the frame's caller waits for this lane before it returns
            lock.unlock();
            const size_t ran = takeSegments(lane, *work, segments);
            lock.lock();
            m_finished += ran;
            if (--m_inside == 0) m_done.notify_one();
        }
    }
    std::mutex m_busy, m_mutex;
    std::condition_variable m_wake, m_done;
    std::vector<std::thread> m_threads;
    // The frame in hand (under m_mutex but m_next): set by its caller, read by the helpers that wake in time.
    const std::function<void(int, size_t)>* m_work = nullptr;
    size_t m_segments = 0, m_finished = 0;
    std::atomic<size_t> m_next{0};  ///< the next segment no lane has taken
    int m_lanes = 1, m_inside = 0;
    uint64_t m_generation = 0;
};

/// One keyed context per lane, made on first use (before the helpers run).
void ensureContexts(std::vector<CipherContext>& contexts, int threads, Cipher cipher, const Key& key, bool encrypt) {
    while (static_cast<int>(contexts.size()) < threads) contexts.push_back(keyedContext(cipher, key, encrypt));
}

bool sealSegment(EVP_CIPHER_CTX* context, const std::array<uint8_t, 12>& nonce, const std::array<uint8_t, 16>& ad,
                 const uint8_t* plain, size_t size, uint8_t* out, uint8_t* tag) {
    int length = 0;
    return EVP_EncryptInit_ex(context, nullptr, nullptr, nullptr, nonce.data()) == 1 &&
           EVP_EncryptUpdate(context, nullptr, &length, ad.data(), static_cast<int>(ad.size())) == 1 &&
           EVP_EncryptUpdate(context, out, &length, plain, static_cast<int>(size)) == 1 &&
           length == static_cast<int>(size) && EVP_EncryptFinal_ex(context, out + size, &length) == 1 && length == 0 &&
           EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, static_cast<int>(kTagBytes), tag) == 1;
}

bool openSegment(EVP_CIPHER_CTX* context, const std::array<uint8_t, 12>& nonce, const std::array<uint8_t, 16>& ad,
                 uint8_t* text, size_t size, uint8_t* tag) {
    int length = 0;
    return EVP_DecryptInit_ex(context, nullptr, nullptr, nullptr, nonce.data()) == 1 &&
           EVP_DecryptUpdate(context, nullptr, &length, ad.data(), static_cast<int>(ad.size())) == 1 &&
           EVP_DecryptUpdate(context, text, &length, text, static_cast<int>(size)) == 1 &&
           length == static_cast<int>(size) &&
           EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, static_cast<int>(kTagBytes), tag) == 1 &&
           EVP_DecryptFinal_ex(context, text + size, &length) == 1;
}

}  // namespace

int sealThreads() {
    static const int threads = std::min(kSealThreads, std::max(1, static_cast<int>(std::thread::hardware_concurrency())));
    return threads;
}

std::optional<size_t> plainSizeOf(size_t frameBytes) {
    if (frameBytes < kSealOverhead) return std::nullopt;
    const size_t body = frameBytes - kCounterBytes;  // the plaintext and its tags
    const size_t segments = std::max<size_t>(1, (body + kSegmentBytes + kTagBytes - 1) / (kSegmentBytes + kTagBytes));
    if (body < segments * kTagBytes) return std::nullopt;
    const size_t plain = body - segments * kTagBytes;
    if (segmentsOf(plain) != segments) return std::nullopt;
    return plain;
}

FrameSealer::FrameSealer(Cipher cipher, const Key& key, int maxThreads)
    : m_key(key), m_cipher(cipher), m_maxThreads(maxThreads) {
    m_contexts.push_back(keyedContext(cipher, key, true));
}

uint64_t FrameSealer::seal(const uint8_t* plain, size_t size, uint8_t* out) {
    const uint64_t counter = ++m_counter;
    SS_CHECK(counter != 0, "a sealer's counter wrapped around (2^64 frames under one key)");
    putCounter(out, counter);
    const size_t segments = segmentsOf(size);
    SS_CHECK(segments <= UINT32_MAX, "a frame of more than 2^32 segments");
    const auto ad = associatedData(counter, size);
    uint8_t* text = out + kCounterBytes;
    uint8_t* tags = text + size;
    const int threads = threadsFor(segments, m_maxThreads);
    ensureContexts(m_contexts, threads, m_cipher, m_key, true);
    std::atomic<bool> ok{true};
    SegmentHelpers::instance().run(threads, segments, [&](int lane, size_t s) {
        const size_t begin = s * kSegmentBytes, length = std::min(kSegmentBytes, size - std::min(size, begin));
        if (!sealSegment(m_contexts[size_t(lane)].get(), segmentNonce(uint32_t(s), counter), ad, plain + begin, length,
                         text + begin, tags + s * kTagBytes))
            ok = false;
    });
    SS_CHECK(ok.load(), "OpenSSL could not seal a frame");
    return counter;
}

FrameOpener::FrameOpener(Cipher cipher, const Key& key, int maxThreads)
    : m_key(key), m_cipher(cipher), m_maxThreads(maxThreads) {
    m_contexts.push_back(keyedContext(cipher, key, false));
}

Result<uint64_t> FrameOpener::open(uint8_t* frame, size_t size) {
    const auto plain = plainSizeOf(size);
    if (!plain)
        return invalidArgument(fmt::format("a sealed frame of {} bytes: no plaintext seals to that size (shorter than "
                                           "its counter and tag, or cut short)",
                                           size));
    const uint64_t counter = readCounter(frame);
    if (counter <= m_last)
        return invalidArgument(fmt::format("a sealed frame with counter {} after {}: a replayed or reordered frame",
                                           counter, m_last));
    const size_t segments = segmentsOf(*plain);
    const auto ad = associatedData(counter, *plain);
    uint8_t* text = frame + kCounterBytes;
    uint8_t* tags = text + *plain;
    const int threads = threadsFor(segments, m_maxThreads);
    ensureContexts(m_contexts, threads, m_cipher, m_key, false);
    std::atomic<bool> ok{true};
    SegmentHelpers::instance().run(threads, segments, [&](int lane, size_t s) {
        const size_t begin = s * kSegmentBytes, length = std::min(kSegmentBytes, *plain - std::min(*plain, begin));
        if (!openSegment(m_contexts[size_t(lane)].get(), segmentNonce(uint32_t(s), counter), ad, text + begin, length,
                         tags + s * kTagBytes))
            ok = false;
    });
    if (!ok.load())
        return invalidArgument(fmt::format("a sealed frame with counter {} does not open: tampered with, or sealed "
                                           "under another connection's key",
                                           counter));
    m_last = counter;
    return counter;
}

}  // namespace syncscope::engine
