// Credentials (see credentials.h): a small text file, "name value" per line.
#include "engine/net/credentials.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <utility>

namespace syncscope::engine {
namespace {

constexpr size_t kZ85KeyLength = 40;
constexpr Role kRoles[] = {Role::Worker, Role::Steer, Role::View};

bool validZ85Key(const std::string& key) {
    if (key.size() != kZ85KeyLength) return false;
    uint8_t binary[32];
    return zmq_z85_decode(binary, key.c_str()) != nullptr;
}

std::string randomToken() {
    std::random_device random;
    std::string token;
    for (int i = 0; i < 4; ++i) token += fmt::format("{:08x}", random());
    return token;
}

}  // namespace

std::string roleName(Role role) {
    switch (role) {
        case Role::Worker: return "worker";
        case Role::Steer: return "steer";
        case Role::View: return "view";
    }
    return "?";
}

Result<Role> parseRole(const std::string& name) {
    for (Role r : kRoles)
        if (roleName(r) == name) return r;
    return invalidArgument("unknown role '" + name + "': use worker, steer or view");
}

std::string namedWorkerUser(const std::string& name) { return roleName(Role::Worker) + ":" + name; }

std::optional<Role> roleOfUser(const std::string& user) {
    const auto role = parseRole(user.substr(0, user.find(':')));
    if (!role || (user.find(':') != std::string::npos && *role != Role::Worker)) return std::nullopt;
    return *role;
}

bool validWorkerName(const std::string& name) {
    if (name.empty() || name.size() > 64) return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') return false;
    return true;
}

KeyPair KeyPair::generate() {
    char publicKey[41], secretKey[41];
    SS_CHECK(zmq_curve_keypair(publicKey, secretKey) == 0, "libzmq was built without CURVE (libsodium)");
    return {publicKey, secretKey};
}

Credentials Credentials::generate() {
    Credentials c;
    const KeyPair server = KeyPair::generate();
    c.serverPublic = server.publicKey;
    c.serverSecret = server.secretKey;
    for (Role r : kRoles) c.clients[r] = KeyPair::generate();
    c.workerToken = randomToken();
    return c;
}

Credentials Credentials::forRole(Role role) const {
    Credentials c;
    c.serverPublic = serverPublic;
    if (auto it = clients.find(role); it != clients.end()) c.clients[role] = it->second;
    if (role == Role::Worker) c.workerToken = workerToken;
    return c;
}

std::optional<Role> Credentials::clientRole() const {
    for (Role r : {Role::Steer, Role::View, Role::Worker})
        if (clients.count(r)) return r;
    return std::nullopt;
}

std::optional<Role> Credentials::roleOf(const std::string& publicKey) const {
    for (const auto& [role, pair] : clients)
        if (pair.publicKey == publicKey) return role;
    return std::nullopt;
}

std::optional<std::string> Credentials::userOfKey(const std::string& publicKey) const {
    if (auto role = roleOf(publicKey)) return roleName(*role);
    for (const auto& [name, worker] : namedWorkers)
        if (worker.publicKey == publicKey) return namedWorkerUser(name);
    return std::nullopt;
}

std::optional<std::string> Credentials::userOfToken(const std::string& token) const {
    if (token.empty()) return std::nullopt;
    if (token == workerToken) return roleName(Role::Worker);
    for (const auto& [name, worker] : namedWorkers)
        if (worker.token == token) return namedWorkerUser(name);
    return std::nullopt;
}

Result<Credentials> Credentials::issueNamedWorker(const std::string& name) {
    if (!validWorkerName(name))
        return invalidArgument(fmt::format("'{}' cannot name a worker: use 1 to 64 letters, digits, '.', '_' or '-'", name));
    if (namedWorkers.count(name))
        return invalidArgument(fmt::format("a worker named '{}' has keys already; revoke them first "
                                         "(`syncscope-engine revoke --name {}`) or choose another name", name, name));
    Credentials own;
    own.serverPublic = serverPublic;
    own.clients[Role::Worker] = KeyPair::generate();
    own.workerToken = randomToken();
    namedWorkers[name] = {own.clients[Role::Worker].publicKey, own.workerToken};
    return own;
}

Status Credentials::save(const std::string& path) const {
    std::ostringstream text;
    text << "# SyncScope credentials. Keep this file private (mode 0600): it admits whoever holds it.\n";
    text << "server-public " << serverPublic << "\n";
    if (!serverSecret.empty()) text << "server-secret " << serverSecret << "\n";
    for (const auto& [role, pair] : clients)
        text << roleName(role) << "-public " << pair.publicKey << "\n" << roleName(role) << "-secret " << pair.secretKey << "\n";
    if (!workerToken.empty()) text << "worker-token " << workerToken << "\n";
    for (const auto& [name, worker] : namedWorkers)
        text << "named-worker " << name << " " << worker.publicKey << " " << worker.token << "\n";
    const std::string temporary = path + ".tmp" + std::to_string(getpid());
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return unavailable(fmt::format("cannot write credentials '{}': {}", path, std::strerror(errno)));
    const std::string bytes = text.str();
    const bool written = ::write(fd, bytes.data(), bytes.size()) == ssize_t(bytes.size()) && ::fsync(fd) == 0;
    ::close(fd);
    if (!written || ::rename(temporary.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        return unavailable(fmt::format("cannot write credentials '{}': {}", path, std::strerror(error)));
    }
    return Status::ok();
}

Result<Credentials> Credentials::load(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        return notFound(fmt::format("cannot read credentials '{}': {}", path, std::strerror(errno)));
    if (info.st_mode & (S_IRWXG | S_IRWXO))
        return invalidArgument(fmt::format("credentials '{}' may be read by others (mode {:o}); make it private with "
                                           "`chmod 600 {}`",
                                           path, info.st_mode & 0777, path));
    std::ifstream in(path);
    if (!in) return notFound(fmt::format("cannot read credentials '{}'", path));
    Credentials c;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string name, value;
        fields >> name >> value;
        auto bad = [&](const std::string& why) {
            return invalidArgument(fmt::format("credentials '{}' line {}: {} (make a new file with "
                                               "`syncscope-engine keygen`)", path, number, why));
        };
        if (name == "worker-token") {
            c.workerToken = value;
            continue;
        }
        if (name == "named-worker") {  // named-worker NAME PUBLIC TOKEN
            std::string key, token;
            fields >> key >> token;
            if (!validWorkerName(value) || !validZ85Key(key) || token.empty())
                return bad("a named worker is 'named-worker NAME PUBLIC-KEY TOKEN'");
            c.namedWorkers[value] = {key, token};
            continue;
        }
        if (!validZ85Key(value)) return bad("'" + name + "' is not a 40-character Z85 key");
        if (name == "server-public") c.serverPublic = value;
        else if (name == "server-secret") c.serverSecret = value;
        else {
            const auto dash = name.rfind('-');
            auto role = parseRole(name.substr(0, dash));
            const std::string part = dash == std::string::npos ? "" : name.substr(dash + 1);
            if (!role || (part != "public" && part != "secret")) return bad("unknown entry '" + name + "'");
            (part == "public" ? c.clients[*role].publicKey : c.clients[*role].secretKey) = value;
        }
    }
    if (c.serverPublic.empty()) return invalidArgument(fmt::format("credentials '{}' hold no server-public key", path));
    for (const auto& [role, pair] : c.clients)
        if (pair.publicKey.empty() || pair.secretKey.empty())
            return invalidArgument(fmt::format("credentials '{}' hold half of the {} key pair", path, roleName(role)));
    return c;
}

Result<Credentials> Credentials::loadOrCreate(const std::string& path, bool* created) {
    if (created) *created = false;
    if (::access(path.c_str(), F_OK) == 0) {
        auto loaded = load(path);
        if (loaded && loaded->serverSecret.empty())
            return invalidArgument(fmt::format("credentials '{}' are a client's (no server-secret); a coordinator needs "
                                               "the file it created, or a new path", path));
        return loaded;
    }
    Credentials fresh = generate();
    if (const auto slash = path.rfind('/'); slash != std::string::npos && slash > 0) {
        const std::string folder = path.substr(0, slash);  // made private, like the file
        for (size_t next = 1; next != std::string::npos;) {
            next = folder.find('/', next + 1);
            const std::string step = folder.substr(0, next);
            if (::mkdir(step.c_str(), 0700) != 0 && errno != EEXIST)
                return unavailable(fmt::format("cannot make the folder '{}' for credentials: {}", step, std::strerror(errno)));
        }
    }
    if (Status s = fresh.save(path); !s) return s;
    if (created) *created = true;
    return fresh;
}

std::string defaultCredentialsPath() {
    const char* config = std::getenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    const std::string base = config && *config ? config : std::string(home && *home ? home : ".") + "/.config";
    return base + "/syncscope/credentials";
}

Result<std::string> privateCredentialsPath() {
    std::string folder;
    if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime && *runtime && ::access(runtime, W_OK) == 0) {
        folder = std::string(runtime) + "/syncscope";
        if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
            return unavailable(fmt::format("cannot make '{}': {}", folder, std::strerror(errno)));
    } else {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/syncscope-XXXXXX";
        if (!::mkdtemp(pattern.data())) return unavailable(fmt::format("cannot make a private folder: {}", std::strerror(errno)));
        folder = pattern;
    }
    struct stat info {};
    if (::stat(folder.c_str(), &info) != 0 || info.st_uid != ::getuid() || (info.st_mode & 0077))
        return invalidArgument(fmt::format("'{}' is not a private folder of this user (chmod 700 it)", folder));
    return fmt::format("{}/local-{}-{}.credentials", folder, ::getpid(), randomToken().substr(0, 8));
}

Result<PrivateCredentials> PrivateCredentials::create() {
    auto path = privateCredentialsPath();
    if (!path) return path.status();
    Credentials credentials = Credentials::generate();
    if (Status s = credentials.save(*path); !s) return s;
    return PrivateCredentials(std::move(*path), std::move(credentials));
}

PrivateCredentials::PrivateCredentials(PrivateCredentials&& other) noexcept
    : m_path(std::exchange(other.m_path, {})), m_credentials(std::move(other.m_credentials)) {}

PrivateCredentials::~PrivateCredentials() {
    if (m_path.empty()) return;
    ::unlink(m_path.c_str());
    const std::string folder = m_path.substr(0, m_path.rfind('/'));
    if (folder.find("/syncscope-") != std::string::npos) ::rmdir(folder.c_str());  // a temp folder of its own
}

bool isLoopbackHost(const std::string& host) {
    return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

}  // namespace syncscope::engine
