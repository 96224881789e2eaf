// ZapAuthenticator: the ZAP handler (ZeroMQ RFC 27) of one ZeroMQ context. Every connection to a
// CURVE (or PLAIN) endpoint of that context is admitted only when the client's public key (PLAIN:
// its token) belongs to a role the endpoint's domain allows; the role then travels with each of the
// client's messages as its User-Id, so a handler knows who asks. One per context, a thread of its own.
#pragma once

#include <zmq.hpp>

#include <atomic>
#include <cstdint>
#include <thread>

#include "engine/net/credentials.h"

namespace syncscope::engine {

/// The ZAP domains of a coordinator's endpoints, and which roles each admits.
inline constexpr const char* kDataDomain = "data";            // workers
inline constexpr const char* kControlDomain = "control";      // steer, view (view: snapshots only)
inline constexpr const char* kTelemetryDomain = "telemetry";  // steer, view
/// Whether `role` may connect to an endpoint of `domain`.
bool domainAdmits(const std::string& domain, Role role);

class ZapAuthenticator {
public:
    /// Binds the context's ZAP endpoint now (before any endpoint accepts) and answers on a thread.
    ZapAuthenticator(zmq::context_t& context, Credentials credentials);
    ~ZapAuthenticator();
    ZapAuthenticator(const ZapAuthenticator&) = delete;
    ZapAuthenticator& operator=(const ZapAuthenticator&) = delete;

    /// Connections refused so far (unknown key, or a role the domain does not admit).
    uint64_t refused() const { return m_refused.load(); }

private:
    void loop();
    void answer(std::vector<zmq::message_t>& request);

    Credentials m_credentials;
    zmq::socket_t m_socket;
    std::atomic<bool> m_quit{false};
    std::atomic<uint64_t> m_refused{0};
    std::thread m_thread;
};

}  // namespace syncscope::engine
