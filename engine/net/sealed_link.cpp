// Sealed links (see sealed_link.h): the handshake, and sealing and opening whole messages.
#include "engine/net/sealed_link.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <utility>

#include <fmt/format.h>

namespace syncscope::engine {
namespace {

constexpr size_t kMagicAt = kCounterBytes;
constexpr size_t kKindAt = kMagicAt + sizeof handshake::kMagic;
constexpr size_t kFlagsAt = kKindAt + 1;
constexpr size_t kSaltAt = kFlagsAt + 1;
constexpr size_t kKeyAt = kSaltAt + kSaltBytes;
constexpr size_t kHelloBytes = kKeyAt + sizeof(PublicKeyBytes);
constexpr size_t kEchoAt = kHelloBytes;  // an answer echoes the client's salt after its own fields
constexpr size_t kAnswerBytes = kEchoAt + kSaltBytes;
constexpr uint8_t kRunsAesGcm = 1;

std::string handshakeFrame(handshake::Kind kind, uint8_t flags, const Salt& salt, const PublicKeyBytes& key,
                           const Salt* echo = nullptr) {
    std::string frame(echo ? kAnswerBytes : kHelloBytes, '\0');
    std::memcpy(frame.data() + kMagicAt, handshake::kMagic, sizeof handshake::kMagic);
    frame[kKindAt] = static_cast<char>(kind);
    frame[kFlagsAt] = static_cast<char>(flags);
    std::memcpy(frame.data() + kSaltAt, salt.data(), salt.size());
    std::memcpy(frame.data() + kKeyAt, key.data(), key.size());
    if (echo) std::memcpy(frame.data() + kEchoAt, echo->data(), echo->size());
    return frame;
}

std::string rekeyFrame() { return handshakeFrame(handshake::Kind::Rekey, 0, Salt{}, PublicKeyBytes{}); }

handshake::Kind kindOf(const zmq::message_t& frame) {
    return static_cast<handshake::Kind>(static_cast<const uint8_t*>(frame.data())[kKindAt]);
}

template <size_t N>
std::array<uint8_t, N> bytesAt(const zmq::message_t& frame, size_t at) {
    std::array<uint8_t, N> out{};
    std::memcpy(out.data(), static_cast<const uint8_t*>(frame.data()) + at, N);
    return out;
}

/// Buffers for sealed tensor frames, used again once ZeroMQ lets go of them (on its I/O thread, hence
/// the lock): a fresh megabyte per frame costs page faults on every touch, as much as sealing it.
class SealBufferPool {
public:
    static SealBufferPool& instance() {
        static SealBufferPool* pool = new SealBufferPool;  // never destroyed: frames may outlive main's end
        return *pool;
    }
    zmq::message_t frame(size_t size) {
        if (size < kPooledFrom) return zmq::message_t(size);
        Buffer* buffer = nullptr;
        {
            std::lock_guard lock(m_mutex);
            auto fits = std::find_if(m_free.begin(), m_free.end(), [&](Buffer* b) { return b->capacity >= size; });
            if (fits != m_free.end()) {
                buffer = *fits;
                m_free.erase(fits);
            }
        }
        if (!buffer) buffer = new Buffer{std::make_unique<uint8_t[]>(size), size};
        return zmq::message_t(buffer->bytes.get(), size, &SealBufferPool::release, buffer);
    }

private:
    struct Buffer {
        std::unique_ptr<uint8_t[]> bytes;
        size_t capacity;
    };
    static constexpr size_t kPooledFrom = 64 * 1024;
    static constexpr size_t kKept = 16;
    static void release(void*, void* hint) {
        auto* buffer = static_cast<Buffer*>(hint);
        SealBufferPool& pool = instance();
        std::lock_guard lock(pool.m_mutex);
        if (pool.m_free.size() < kKept) pool.m_free.push_back(buffer);
        else delete buffer;
    }
    std::mutex m_mutex;
    std::vector<Buffer*> m_free;
};

zmq::message_t sealed(FrameSealer& sealer, const void* plain, size_t size) {
    zmq::message_t out = SealBufferPool::instance().frame(sealedSize(size));
    sealer.seal(static_cast<const uint8_t*>(plain), size, static_cast<uint8_t*>(out.data()));
    return out;
}

void sendSealed(zmq::socket_t& socket, const std::string* identity, FrameSealer& sealer, const std::string& envelope,
                const void* tensor, size_t tensorBytes, bool hasTensor) {
    if (identity) socket.send(zmq::buffer(*identity), zmq::send_flags::sndmore);
    zmq::message_t head = sealed(sealer, envelope.data(), envelope.size());
    socket.send(head, hasTensor ? zmq::send_flags::sndmore : zmq::send_flags::none);
    if (!hasTensor) return;
    zmq::message_t body = sealed(sealer, tensor, tensorBytes);
    socket.send(body, zmq::send_flags::none);
}

void sendFrame(zmq::socket_t& socket, const std::string* identity, const std::string& frame) {
    if (identity) socket.send(zmq::buffer(*identity), zmq::send_flags::sndmore);
    socket.send(zmq::buffer(frame), zmq::send_flags::none);
}

/// Opens every payload frame in place; each becomes a view of its plaintext. A tensor frame must carry
/// the counter right after its envelope's.
Status openPayload(FrameOpener& opener, std::vector<zmq::message_t>& payload) {
    uint64_t previous = 0;
    for (size_t i = 0; i < payload.size(); ++i) {
        zmq::message_t& frame = payload[i];
        auto counter = opener.open(static_cast<uint8_t*>(frame.data()), frame.size());
        if (!counter) return counter.status();
        if (i > 0 && *counter != previous + 1)
            return invalidArgument(fmt::format("a tensor frame with counter {} after its envelope's {}: frames moved "
                                               "between messages",
                                               *counter, previous));
        previous = *counter;
        auto* keeper = new zmq::message_t(std::move(frame));
        frame = zmq::message_t(static_cast<uint8_t*>(keeper->data()) + kCounterBytes, *plainSizeOf(keeper->size()),
                               [](void*, void* hint) { delete static_cast<zmq::message_t*>(hint); }, keeper);
    }
    return Status::ok();
}

}  // namespace

bool handshake::isHandshake(const zmq::message_t& frame) {
    if (frame.size() < kHelloBytes) return false;
    const auto* bytes = static_cast<const uint8_t*>(frame.data());
    return std::all_of(bytes, bytes + kCounterBytes, [](uint8_t b) { return b == 0; }) &&
           std::memcmp(bytes + kMagicAt, kMagic, sizeof kMagic) == 0;
}

ClientSeal::ClientSeal(KeyPair own, std::string serverPublic)
    : m_own(std::move(own)), m_serverPublic(std::move(serverPublic)) {
    restart();
}

void ClientSeal::restart() {
    m_salt = randomSalt();
    m_ephemeral = std::make_unique<EphemeralKey>(EphemeralKey::generate());
    m_sealer.reset();
    m_opener.reset();
}

void ClientSeal::sendHello(zmq::socket_t& socket) {
    sendFrame(socket, nullptr,
              handshakeFrame(handshake::Kind::Hello, aesGcmAvailable() ? kRunsAesGcm : 0, m_salt, m_ephemeral->publicKey));
}

void ClientSeal::send(zmq::socket_t& socket, const std::string*, const std::string& envelope, zmq::message_t* tensor) {
    if (m_sealer) {
        sendSealed(socket, nullptr, *m_sealer, envelope, tensor ? tensor->data() : nullptr, tensor ? tensor->size() : 0,
                   tensor != nullptr);
        return;
    }
    Queued queued{envelope, std::nullopt};
    if (tensor) queued.tensor.emplace(static_cast<const char*>(tensor->data()), tensor->size());
    m_queue.push_back(std::move(queued));
    while (m_queue.size() > kMaxQueuedBeforeHandshake) m_queue.pop_front();
    sendHello(socket);  // the same salt every time: a repeat gets the same answer
}

SealVerdict ClientSeal::receive(zmq::socket_t& socket, const std::string*, const std::string&,
                                std::vector<zmq::message_t>& payload, std::string* why) {
    if (handshake::isHandshake(payload[0])) {
        const zmq::message_t& frame = payload[0];
        switch (kindOf(frame)) {
        case handshake::Kind::Rekey:
            if (m_sealer) restart();  // the server lost our keys (restarted): agree new ones
            sendHello(socket);
            return SealVerdict::Handled;
        case handshake::Kind::Answer: {
            if (frame.size() != kAnswerBytes || bytesAt<kSaltBytes>(frame, kEchoAt) != m_salt)
                return SealVerdict::Handled;  // an answer to an earlier hello of ours: stale
            if (m_sealer) return SealVerdict::Handled;  // a repeated answer to a repeated hello
            const auto code = static_cast<const uint8_t*>(frame.data())[kFlagsAt];
            if (code != uint8_t(Cipher::Aes256Gcm) && code != uint8_t(Cipher::ChaCha20Poly1305)) {
                *why = fmt::format("the coordinator's handshake names cipher {}, which this worker does not know: "
                                   "run the same SyncScope release on every node",
                                   code);
                return SealVerdict::Refused;
            }
            const auto cipher = static_cast<Cipher>(code);
            if (cipher == Cipher::Aes256Gcm && !aesGcmAvailable()) {
                *why = "the coordinator chose AES-256-GCM, which this CPU has no instructions for";
                return SealVerdict::Refused;
            }
            const PublicKeyBytes serverKey = bytesAt<sizeof(PublicKeyBytes)>(frame, kKeyAt);
            auto keys = deriveSessionKeys(SessionSide::Client, m_own, m_serverPublic, m_salt,
                                          bytesAt<kSaltBytes>(frame, kSaltAt), m_ephemeral.get(), &serverKey);
            if (!keys) {
                *why = keys.status().message();
                return SealVerdict::Refused;
            }
            m_sealer = std::make_unique<FrameSealer>(cipher, keys->send);
            m_opener = std::make_unique<FrameOpener>(cipher, keys->receive);
            for (Queued& queued : m_queue) {
                sendSealed(socket, nullptr, *m_sealer, queued.envelope, queued.tensor ? queued.tensor->data() : nullptr,
                           queued.tensor ? queued.tensor->size() : 0, queued.tensor.has_value());
            }
            m_queue.clear();
            return SealVerdict::Handled;
        }
        case handshake::Kind::Hello:
            break;
        }
        *why = "a handshake frame of a kind a server does not send";
        return SealVerdict::Refused;
    }
    if (!m_opener) {
        *why = "a sealed frame before the handshake finished";
        return SealVerdict::Refused;
    }
    if (Status s = openPayload(*m_opener, payload); !s) {
        ++m_unopened;
        *why = s.message();
        return SealVerdict::Refused;
    }
    return SealVerdict::Opened;
}

ServerSeals::ServerSeals(KeyPair own, std::map<std::string, std::string> peers, size_t maxSessions)
    : m_own(std::move(own)), m_peers(std::move(peers)), m_maxSessions(std::max<size_t>(1, maxSessions)) {}

void ServerSeals::send(zmq::socket_t& socket, const std::string* identity, const std::string& envelope,
                       zmq::message_t* tensor) {
    auto it = identity ? m_sessions.find(*identity) : m_sessions.end();
    if (it == m_sessions.end()) return;  // no session (never said hello, or forgotten): dropped
    it->second.lastUsed = ++m_tick;
    sendSealed(socket, identity, *it->second.sealer, envelope, tensor ? tensor->data() : nullptr,
               tensor ? tensor->size() : 0, tensor != nullptr);
}

void ServerSeals::admitPeers(const std::map<std::string, std::string>& peers) {
    m_peers = peers;
    for (auto it = m_sessions.begin(); it != m_sessions.end();) {
        auto peer = m_peers.find(it->second.userId);
        it = peer == m_peers.end() || peer->second != it->second.peerKey ? m_sessions.erase(it) : std::next(it);
    }
}

void ServerSeals::forgetOldest() {
    auto oldest = std::min_element(m_sessions.begin(), m_sessions.end(), [](const auto& a, const auto& b) {
        return a.second.lastUsed < b.second.lastUsed;
    });
    if (oldest != m_sessions.end()) m_sessions.erase(oldest);
}

SealVerdict ServerSeals::hello(zmq::socket_t& socket, const std::string& identity, const std::string& userId,
                               const zmq::message_t& frame, std::string* why) {
    auto peer = m_peers.find(userId);
    if (peer == m_peers.end()) {
        if (m_unadmittedHellos.size() < 64) m_unadmittedHellos.push_back(identity);
        *why = fmt::format("a handshake from a peer whose role ('{}') holds no key here", userId);
        return SealVerdict::Refused;
    }
    if (frame.size() != kHelloBytes) {
        *why = fmt::format("a hello of {} bytes (expected {})", frame.size(), kHelloBytes);
        return SealVerdict::Refused;
    }
    const Salt clientSalt = bytesAt<kSaltBytes>(frame, kSaltAt);
    if (auto it = m_sessions.find(identity);
        it != m_sessions.end() && it->second.clientSalt == clientSalt && it->second.userId == userId) {
        sendFrame(socket, &identity, it->second.answer);  // a repeated hello: the same answer
        return SealVerdict::Handled;
    }
    const Cipher cipher = agreedCipher(static_cast<const uint8_t*>(frame.data())[kFlagsAt] & kRunsAesGcm);
    const Salt serverSalt = randomSalt();
    const EphemeralKey ephemeral = EphemeralKey::generate();
    const PublicKeyBytes clientKey = bytesAt<sizeof(PublicKeyBytes)>(frame, kKeyAt);
    auto keys = deriveSessionKeys(SessionSide::Server, m_own, peer->second, clientSalt, serverSalt, &ephemeral, &clientKey);
    if (!keys) {
        *why = keys.status().message();
        return SealVerdict::Refused;
    }
    if (m_sessions.size() >= m_maxSessions && !m_sessions.count(identity)) forgetOldest();
    Session& session = m_sessions[identity];
    session.userId = userId;
    session.peerKey = peer->second;
    session.clientSalt = clientSalt;
    session.answer = handshakeFrame(handshake::Kind::Answer, uint8_t(cipher), serverSalt, ephemeral.publicKey, &clientSalt);
    session.sealer = std::make_unique<FrameSealer>(cipher, keys->send);
    session.opener = std::make_unique<FrameOpener>(cipher, keys->receive);
    session.lastUsed = ++m_tick;
    sendFrame(socket, &identity, session.answer);
    return SealVerdict::Handled;
}

SealVerdict ServerSeals::receive(zmq::socket_t& socket, const std::string* identity, const std::string& userId,
                                 std::vector<zmq::message_t>& payload, std::string* why) {
    static const std::string kNoIdentity;
    const std::string& id = identity ? *identity : kNoIdentity;
    if (handshake::isHandshake(payload[0])) {
        if (kindOf(payload[0]) == handshake::Kind::Hello && payload.size() == 1)
            return hello(socket, id, userId, payload[0], why);
        *why = "a handshake frame of a kind a client does not send";
        return SealVerdict::Refused;
    }
    auto it = m_sessions.find(id);
    if (it != m_sessions.end() && it->second.userId != userId) {
        *why = fmt::format("a sealed message from '{}' under the session of '{}'", userId, it->second.userId);
        return SealVerdict::Refused;
    }
    if (it == m_sessions.end()) {
        sendFrame(socket, identity, rekeyFrame());  // e.g. this coordinator restarted: the peer agrees new keys
        *why = "a sealed message from a peer with no keys here (it is asked to say hello again)";
        return SealVerdict::Refused;
    }
    if (Status s = openPayload(*it->second.opener, payload); !s) {
        ++m_unopened;
        *why = s.message();
        return SealVerdict::Refused;
    }
    it->second.lastUsed = ++m_tick;
    return SealVerdict::Opened;
}

std::vector<std::string> ServerSeals::takeUnadmittedHellos() { return std::exchange(m_unadmittedHellos, {}); }

void ServerSeals::askHelloAgain(zmq::socket_t& socket, const std::string& identity) {
    sendFrame(socket, &identity, rekeyFrame());
}

}  // namespace syncscope::engine
