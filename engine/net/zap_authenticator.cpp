// ZapAuthenticator (see zap_authenticator.h).
#include "engine/net/zap_authenticator.h"

#include <cstdio>
#include <string>
#include <vector>

namespace syncscope::engine {

bool domainAdmits(const std::string& domain, Role role) {
    if (domain == kDataDomain) return role == Role::Worker;
    if (domain == kControlDomain || domain == kTelemetryDomain) return role == Role::Steer || role == Role::View;
    return false;
}

ZapAuthenticator::ZapAuthenticator(zmq::context_t& context, Credentials credentials)
    : m_credentials(std::move(credentials)), m_socket(context, zmq::socket_type::rep) {
    m_socket.set(zmq::sockopt::linger, 0);
    m_socket.bind("inproc://zeromq.zap.01");  // bound before any endpoint of the context accepts
    m_thread = std::thread([this] { loop(); });
}

ZapAuthenticator::~ZapAuthenticator() {
    m_quit.store(true);
    m_thread.join();
}

void ZapAuthenticator::loop() {
    while (!m_quit.load()) {
        zmq::pollitem_t item{m_socket.handle(), 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&item, 1, 100) <= 0) continue;
        std::vector<zmq::message_t> request;
        bool more = true;
        while (more) {
            zmq::message_t frame;
            if (!m_socket.recv(frame, zmq::recv_flags::none)) break;
            more = frame.more();
            if (request.size() < 8) request.push_back(std::move(frame));
        }
        answer(request);
    }
}

void ZapAuthenticator::answer(std::vector<zmq::message_t>& request) {
    // Request: version, request id, domain, address, routing id, mechanism, credentials...
    const auto text = [&](size_t i) { return i < request.size() ? request[i].to_string() : std::string(); };
    const std::string domain = text(2), address = text(3), mechanism = text(5);
    std::optional<Role> role;
    if (mechanism == "CURVE" && request.size() >= 7 && request[6].size() == 32) {
        char key[41];
        zmq_z85_encode(key, static_cast<const uint8_t*>(request[6].data()), 32);
        role = m_credentials.roleOf(key);
    } else if (mechanism == "PLAIN" && request.size() >= 8 && !m_credentials.workerToken.empty() &&
               text(6) == roleName(Role::Worker) && text(7) == m_credentials.workerToken) {
        role = Role::Worker;
    }
    const bool admitted = role && domainAdmits(domain, *role);
    if (!admitted) {
        // Logged the first times and then at each power of ten: a client retrying with a wrong key
        // must not flood the log.
        const uint64_t n = ++m_refused;
        uint64_t power = 1;
        while (power * 10 <= n) power *= 10;
        if (n <= 5 || n == power)
            std::fprintf(stderr, "refused a %s connection to %s from %s (%llu so far): %s\n", mechanism.c_str(),
                         domain.c_str(), address.c_str(), static_cast<unsigned long long>(n),
                         role ? ("the " + roleName(*role) + " role may not connect there").c_str()
                              : "unknown credentials");
    }
    const std::string reply[] = {"1.0", text(1), admitted ? "200" : "400", admitted ? "OK" : "not admitted",
                                 admitted ? roleName(*role) : "", ""};
    for (size_t i = 0; i < std::size(reply); ++i)
        (void)m_socket.send(zmq::buffer(reply[i]), i + 1 < std::size(reply) ? zmq::send_flags::sndmore : zmq::send_flags::none);
}

}  // namespace syncscope::engine
