// Sealed links (issue 30): the encrypted data plane. Each connection agrees its keys in a two-frame
// handshake and then carries every frame sealed (frame_seal.h), so the socket itself needs no CURVE
// (which costs a tenth of raw ZeroMQ's speed here): it keeps PLAIN and the ZAP handler, which admits
// only holders of the workers' token and names their role. The keys hang on the X25519 secrets of
// both sides' long-term CURVE pairs (only the coordinator and the role's holders can derive them) and
// on a one-connection pair each side makes for the handshake (forward secrecy; a holder of the shared
// worker pair cannot open another worker's connection).
//
// Handshake frames begin with 8 zero bytes, a counter no sealed frame has (sealers start at 1):
//   [0 x8]["SSSEAL01"][kind][flags or cipher][salt 32][one-connection public key 32]
//   hello  (client -> server): the client's salt and key; flags bit 0: the client runs AES-256-GCM
//   answer (server -> client): the cipher, the server's salt and key, then the client's salt echoed
//   rekey  (server -> client): "I hold no keys for you" (a restarted coordinator): say hello again
// A client queues what it sends until the answer comes (a few messages at most: a registration);
// a hello repeated with the same salt gets the same answer, so retries never fork a connection. An
// envelope and its tensor are sealed as consecutive counters, so no frame moves between messages.
#pragma once

#include <zmq.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/status.h"
#include "engine/net/credentials.h"
#include "engine/net/frame_seal.h"

namespace syncscope::engine {

/// What became of an inbound message at the link's seal.
enum class SealVerdict {
    Opened,   ///< its frames are plaintext now: the envelope and tensor views (see openedPayload)
    Handled,  ///< a handshake frame, taken care of: nothing to hand on
    Refused,  ///< did not open (tampered, replayed, another key, no keys yet): dropped, `why` says
};

/// Sessions a server keeps before it forgets the least recently used (each about 1.5 KB).
inline constexpr size_t kMaxSealedSessions = 8192;
/// Messages a client queues while its handshake is pending; older ones are dropped (the senders
/// retry on their own timeouts, as for any lost message).
inline constexpr size_t kMaxQueuedBeforeHandshake = 8;

/// One side of sealed links: what sendMessage and receiveMessage (wire_codec.h) call on a socket
/// that seals. Not thread-safe: one per socket, used by that socket's thread.
class LinkSeal {
public:
    virtual ~LinkSeal() = default;
    /// Sends `envelope` (serialised) and `tensor` sealed to `identity` (server) or the server (client);
    /// a client queues them while its handshake is pending.
    virtual void send(zmq::socket_t& socket, const std::string* identity, const std::string& envelope,
                      zmq::message_t* tensor) = 0;
    /// Opens the payload frames of one inbound message in place (`userId`: the role ZAP named).
    /// Opened: each frame is replaced by its plaintext (a view into the same buffer).
    virtual SealVerdict receive(zmq::socket_t& socket, const std::string* identity, const std::string& userId,
                                std::vector<zmq::message_t>& payload, std::string* why) = 0;
    /// Frames that did not open (tampered, replayed, under another key), counted since the start.
    uint64_t unopened() const { return m_unopened; }
    /// A client: starts the handshake now (a socket that sends but seldom reads, such as a worker's
    /// link to a shard copy it only pushes to, must not wait for its first send to begin).
    virtual void start(zmq::socket_t&) {}
    /// Whether what is sent now goes out at once (a client: its handshake is done).
    virtual bool ready() const { return true; }
    /// A server: who may say hello from now on (User-Id -> public key); the sessions of a User-Id no
    /// longer there, or there under another key, are forgotten (a revoked worker is cut off).
    virtual void admitPeers(const std::map<std::string, std::string>&) {}
    /// A server: the routing ids whose hello was refused since the last call because their User-Id
    /// held no key here (at most 64). ZAP admitted them, so their keys may be a moment from being
    /// admitted here too (a worker named while the run goes on).
    virtual std::vector<std::string> takeUnadmittedHellos() { return {}; }
    /// A server: asks the peer at `identity` to say hello again (the rekey frame).
    virtual void askHelloAgain(zmq::socket_t&, const std::string&) {}

protected:
    uint64_t m_unopened = 0;
};

/// A worker's (or relay's) side: one connection to one server.
class ClientSeal final : public LinkSeal {
public:
    /// `own`: the role's pair; `serverPublic`: the coordinator's public key (Z85).
    ClientSeal(KeyPair own, std::string serverPublic);
    void send(zmq::socket_t& socket, const std::string* identity, const std::string& envelope,
              zmq::message_t* tensor) override;
    SealVerdict receive(zmq::socket_t& socket, const std::string* identity, const std::string& userId,
                        std::vector<zmq::message_t>& payload, std::string* why) override;
    bool established() const { return m_sealer != nullptr; }
    void start(zmq::socket_t& socket) override { sendHello(socket); }
    bool ready() const override { return established(); }

private:
    void restart();
    void sendHello(zmq::socket_t& socket);

    KeyPair m_own;
    std::string m_serverPublic;
    Salt m_salt{};
    std::unique_ptr<EphemeralKey> m_ephemeral;
    std::unique_ptr<FrameSealer> m_sealer;
    std::unique_ptr<FrameOpener> m_opener;
    struct Queued {
        std::string envelope;
        std::optional<std::string> tensor;
    };
    std::deque<Queued> m_queue;
};

/// A coordinator's (or relay's) side: one session per connected peer, by routing id.
class ServerSeals final : public LinkSeal {
public:
    /// `own`: the coordinator's pair; `peers`: each admitted role's public key, by its ZAP User-Id.
    ServerSeals(KeyPair own, std::map<std::string, std::string> peers, size_t maxSessions = kMaxSealedSessions);
    /// No session for `identity` (never said hello, or forgotten): the message is dropped.
    void send(zmq::socket_t& socket, const std::string* identity, const std::string& envelope,
              zmq::message_t* tensor) override;
    SealVerdict receive(zmq::socket_t& socket, const std::string* identity, const std::string& userId,
                        std::vector<zmq::message_t>& payload, std::string* why) override;
    size_t sessions() const { return m_sessions.size(); }
    void admitPeers(const std::map<std::string, std::string>& peers) override;
    std::vector<std::string> takeUnadmittedHellos() override;
    void askHelloAgain(zmq::socket_t& socket, const std::string& identity) override;

private:
    struct Session {
        std::string userId, peerKey;  ///< who said hello, under which key (its frames must come from them)
        Salt clientSalt{};
        std::string answer;  ///< the handshake answer, sent again for a repeated hello
        std::unique_ptr<FrameSealer> sealer;
        std::unique_ptr<FrameOpener> opener;
        uint64_t lastUsed = 0;
    };
    SealVerdict hello(zmq::socket_t& socket, const std::string& identity, const std::string& userId,
                      const zmq::message_t& frame, std::string* why);
    void forgetOldest();

    KeyPair m_own;
    std::map<std::string, std::string> m_peers;
    size_t m_maxSessions;
    std::map<std::string, Session> m_sessions;
    uint64_t m_tick = 0;
    std::vector<std::string> m_unadmittedHellos;  ///< takeUnadmittedHellos()
};

/// The frames of a handshake (exposed for tests and the Python package's cross-checks).
namespace handshake {
inline constexpr char kMagic[8] = {'S', 'S', 'S', 'E', 'A', 'L', '0', '1'};
enum class Kind : uint8_t { Hello = 1, Answer = 2, Rekey = 3 };
/// Whether `frame` is a handshake frame (its first 8 bytes are zero and the magic follows).
bool isHandshake(const zmq::message_t& frame);
}  // namespace handshake

}  // namespace syncscope::engine
