// ZapAuthenticator: the ZAP handler (ZeroMQ RFC 27) of one ZeroMQ context. Every connection to a
// CURVE (or PLAIN) endpoint of that context is admitted only when the client's public key (PLAIN:
// its token) belongs to a role the endpoint's domain allows; the role (a named worker's
// "worker:NAME") then travels with each of the client's messages as its User-Id, so a handler knows
// who asks. One per context, a thread of its own.
//
// Given the credentials file's path, it reads the file again when it changes (`keygen --name`,
// `revoke --name`): a new named worker is admitted at once, a revoked one refused, and the users
// revoked since the start are published (revoked(), generation()) for the endpoints to cut off the
// connections they admitted before: ZeroMQ asks ZAP only when a connection opens.
#pragma once

#include <zmq.hpp>

#include <atomic>
#include <cstdint>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "engine/net/credentials.h"

namespace syncscope::engine {

/// The ZAP domains of a coordinator's endpoints, and which roles each admits.
inline constexpr const char* kDataDomain = "data";            // workers
inline constexpr const char* kControlDomain = "control";      // steer, view (view: snapshots only)
inline constexpr const char* kTelemetryDomain = "telemetry";  // steer, view
/// Whether `role` may connect to an endpoint of `domain`.
bool domainAdmits(const std::string& domain, Role role);
/// The sealed data plane's peers of `domain` in `credentials`: each admitted User-Id's public key.
std::map<std::string, std::string> sealPeersOf(const Credentials& credentials, const std::string& domain);

/// A file's identity and change time, to notice it was replaced.
struct FileVersion {
    uint64_t inode = 0;
    int64_t seconds = 0, nanoseconds = 0;
    bool operator==(const FileVersion&) const = default;
};

class ZapAuthenticator {
public:
    /// Binds the context's ZAP endpoint now (before any endpoint accepts) and answers on a thread.
    /// `watchPath`: the file `credentials` came from, read again each second it has changed.
    ZapAuthenticator(zmq::context_t& context, Credentials credentials, std::string watchPath = {});
    ~ZapAuthenticator();
    ZapAuthenticator(const ZapAuthenticator&) = delete;
    ZapAuthenticator& operator=(const ZapAuthenticator&) = delete;

    /// Connections refused so far (unknown key, or a role the domain does not admit).
    uint64_t refused() const { return m_refused.load(); }
    /// Rises each time who is admitted changes (a named worker revoked or added); an endpoint
    /// compares it with what it followed last.
    uint64_t generation() const { return m_generation.load(std::memory_order_acquire); }
    /// The User-Ids ("worker:NAME") admitted at some point and revoked since.
    std::set<std::string> revoked() const;
    /// The sealed data plane's peers of `domain`: each admitted User-Id's public key, as now.
    std::map<std::string, std::string> peers(const std::string& domain) const;

private:
    void loop();
    void answer(std::vector<zmq::message_t>& request);
    void reloadIfChanged(bool now = false);  ///< `now`: not only once a second

    mutable std::mutex m_mutex;  // m_credentials and m_revoked: the ZAP thread writes, endpoints read
    Credentials m_credentials;
    std::set<std::string> m_revoked;
    std::string m_watchPath;
    FileVersion m_watched;
    std::chrono::steady_clock::time_point m_lastLook{};
    std::atomic<uint64_t> m_generation{0};
    zmq::socket_t m_socket;
    std::atomic<bool> m_quit{false};
    std::atomic<uint64_t> m_refused{0};
    std::thread m_thread;
};

}  // namespace syncscope::engine
