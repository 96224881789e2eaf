// ZapAuthenticator (see zap_authenticator.h).
#include "engine/net/zap_authenticator.h"

#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

namespace syncscope::engine {

bool domainAdmits(const std::string& domain, Role role) {
    if (domain == kDataDomain) return role == Role::Worker;
    if (domain == kControlDomain || domain == kTelemetryDomain) return role == Role::Steer || role == Role::View;
    return false;
}

namespace {

/// What tells one version of the file from the next: `save` renames a new file over it (a new inode).
FileVersion versionOf(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return {};
    return {uint64_t(info.st_ino), int64_t(info.st_mtim.tv_sec), int64_t(info.st_mtim.tv_nsec)};
}

}  // namespace

std::map<std::string, std::string> sealPeersOf(const Credentials& credentials, const std::string& domain) {
    std::map<std::string, std::string> peers;
    for (const auto& [role, pair] : credentials.clients)
        if (domainAdmits(domain, role)) peers[roleName(role)] = pair.publicKey;
    if (domainAdmits(domain, Role::Worker))
        for (const auto& [name, worker] : credentials.namedWorkers) peers[namedWorkerUser(name)] = worker.publicKey;
    return peers;
}

ZapAuthenticator::ZapAuthenticator(zmq::context_t& context, Credentials credentials, std::string watchPath)
    : m_credentials(std::move(credentials)),
      m_watchPath(std::move(watchPath)),
      m_watched(m_watchPath.empty() ? FileVersion{} : versionOf(m_watchPath)),
      m_socket(context, zmq::socket_type::rep) {
    m_socket.set(zmq::sockopt::linger, 0);
    m_socket.bind("inproc://zeromq.zap.01");  // bound before any endpoint of the context accepts
    m_thread = std::thread([this] { loop(); });
}

ZapAuthenticator::~ZapAuthenticator() {
    m_quit.store(true);
    m_thread.join();
}

std::set<std::string> ZapAuthenticator::revoked() const {
    std::lock_guard lock(m_mutex);
    return m_revoked;
}

std::map<std::string, std::string> ZapAuthenticator::peers(const std::string& domain) const {
    std::lock_guard lock(m_mutex);
    return sealPeersOf(m_credentials, domain);
}

void ZapAuthenticator::reloadIfChanged(bool now) {
    if (m_watchPath.empty() || (!now && std::chrono::steady_clock::now() - m_lastLook < std::chrono::seconds(1))) return;
    m_lastLook = std::chrono::steady_clock::now();
    const FileVersion version = versionOf(m_watchPath);
    if (version == m_watched) return;
    auto fresh = Credentials::load(m_watchPath);
    if (!fresh || fresh->serverPublic != m_credentials.serverPublic) {  // kept as it was: nobody is locked out
        std::fprintf(stderr, "the credentials file changed but was not taken (the keys in use stay): %s\n",
                     fresh ? "it holds another coordinator's key" : fresh.status().message().c_str());
        m_watched = version;
        return;
    }
    m_watched = version;
    std::lock_guard lock(m_mutex);
    bool admission = false;  // who is admitted changed: a worker revoked or a new one named
    for (const auto& [name, worker] : m_credentials.namedWorkers) {
        auto kept = fresh->namedWorkers.find(name);
        if (kept != fresh->namedWorkers.end() && kept->second.publicKey == worker.publicKey) continue;
        admission |= m_revoked.insert(namedWorkerUser(name)).second;
        std::fprintf(stderr, "credentials: the worker keys named '%s' were revoked; their connections are cut off\n",
                     name.c_str());
    }
    for (const auto& [name, worker] : fresh->namedWorkers)
        if (!m_credentials.namedWorkers.count(name)) {
            m_revoked.erase(namedWorkerUser(name));  // issued again: new keys, admitted
            admission = true;
            std::fprintf(stderr, "credentials: worker keys named '%s' are admitted\n", name.c_str());
        }
    m_credentials = std::move(*fresh);
    if (admission) m_generation.fetch_add(1, std::memory_order_release);
}

void ZapAuthenticator::loop() {
    while (!m_quit.load()) {
        reloadIfChanged();
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
    const auto lookUp = [&]() -> std::optional<std::string> {
        std::lock_guard lock(m_mutex);
        if (mechanism == "CURVE" && request.size() >= 7 && request[6].size() == 32) {
            char key[41];
            zmq_z85_encode(key, static_cast<const uint8_t*>(request[6].data()), 32);
            return m_credentials.userOfKey(key);
        }
        if (mechanism == "PLAIN" && request.size() >= 8 && text(6) == roleName(Role::Worker))
            return m_credentials.userOfToken(text(7));
        return std::nullopt;
    };
    std::optional<std::string> user = lookUp();
    if (!user && !m_watchPath.empty()) {  // keys named a moment ago (keygen --name): the file is read now
        reloadIfChanged(true);
        user = lookUp();
    }
    const std::optional<Role> role = user ? roleOfUser(*user) : std::nullopt;
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
                                 admitted ? *user : "", ""};
    for (size_t i = 0; i < std::size(reply); ++i)
        (void)m_socket.send(zmq::buffer(reply[i]), i + 1 < std::size(reply) ? zmq::send_flags::sndmore : zmq::send_flags::none);
}

}  // namespace syncscope::engine
