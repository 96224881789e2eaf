// Credentials: who may talk to a coordinator. One file holds the coordinator's CURVE key pair (its
// secret only in the coordinator's own copy) and a key pair per role: worker (the data plane),
// steer (every control command) and view (telemetry and snapshots only), plus the workers' token
// for an authenticated-but-unencrypted data plane. Files are written 0600 and refused when group
// or others may read them, with the command that fixes it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "engine/core/status.h"

namespace syncscope::engine {

enum class Role { Worker, Steer, View };

std::string roleName(Role role);  ///< "worker", "steer", "view"
Result<Role> parseRole(const std::string& name);

/// A CURVE key pair in Z85 text (40 characters each).
struct KeyPair {
    std::string publicKey, secretKey;
    static KeyPair generate();
};

/// A worker admitted under a name of its own (`keygen --role worker --name NAME`): the coordinator
/// keeps its public key and token, so that `revoke --name NAME` cuts that one worker off.
struct NamedWorker {
    std::string publicKey, token;
};

/// The ZAP User-Id of a named worker ("worker:NAME"); the shared worker pair's is "worker".
std::string namedWorkerUser(const std::string& name);
/// The role of a ZAP User-Id ("worker", "worker:NAME", "steer", "view").
std::optional<Role> roleOfUser(const std::string& user);
/// Whether `name` may name a worker: 1 to 64 of [A-Za-z0-9._-].
bool validWorkerName(const std::string& name);

struct Credentials {
    std::string serverPublic;
    std::string serverSecret;            ///< empty in a client's file
    std::map<Role, KeyPair> clients;     ///< a client's file: its role's pair only
    std::string workerToken;             ///< the data plane's PLAIN password (workers' files and the coordinator's)
    std::map<std::string, NamedWorker> namedWorkers;  ///< the coordinator's file: each named worker's, by name

    /// A coordinator's new credentials: its pair, every role's pair, a worker token.
    static Credentials generate();
    /// What a client of `role` needs: the coordinator's public key and that role's pair.
    Credentials forRole(Role role) const;
    /// The role a client file is for: steer before view, worker when it holds only that.
    std::optional<Role> clientRole() const;
    /// The role of a client's public key (the ZAP handler's question).
    std::optional<Role> roleOf(const std::string& publicKey) const;
    /// Who a CURVE public key is: a role's name or a named worker's User-Id; empty when unknown.
    std::optional<std::string> userOfKey(const std::string& publicKey) const;
    /// Who a worker's PLAIN token is: "worker" or a named worker's User-Id; empty when unknown.
    std::optional<std::string> userOfToken(const std::string& token) const;
    /// A new named worker: its pair and token are added here (the coordinator's file, to be saved)
    /// and its own file (the coordinator's public key, its pair, its token) is returned.
    Result<Credentials> issueNamedWorker(const std::string& name);

    /// Writes `path` with mode 0600 (atomically: a temporary file renamed over it).
    Status save(const std::string& path) const;
    /// Reads `path`; refuses a file group or others may read, and malformed keys.
    static Result<Credentials> load(const std::string& path);
    /// The coordinator's file: loaded when it exists, else generated and saved.
    static Result<Credentials> loadOrCreate(const std::string& path, bool* created = nullptr);
};

/// Where `serve` keeps its credentials unless told otherwise, and where `work` and consoles look:
/// $XDG_CONFIG_HOME/syncscope/credentials (~/.config/syncscope/credentials).
std::string defaultCredentialsPath();

/// A new private credentials path for a local cluster: $XDG_RUNTIME_DIR/syncscope/ (or a fresh
/// 0700 folder under the temp directory), unique to this process.
Result<std::string> privateCredentialsPath();

/// The data plane of a cluster on one machine: authenticated, not encrypted. Loopback traffic never
/// leaves the machine, and CURVE costs the mlp round trip about 30x here (bench_transport).
inline constexpr const char* kLocalDataPlane = "authenticated";

/// A local cluster's own credentials: a new file at privateCredentialsPath(), removed (with its
/// folder when that is its own) when this object goes.
class PrivateCredentials {
public:
    static Result<PrivateCredentials> create();
    PrivateCredentials(PrivateCredentials&& other) noexcept;
    PrivateCredentials& operator=(PrivateCredentials&&) = delete;
    ~PrivateCredentials();
    const std::string& path() const { return m_path; }
    const Credentials& credentials() const { return m_credentials; }
    /// Leaves the file in place (its cluster outlives this process); returns its path.
    std::string keep() { return std::exchange(m_path, {}); }

private:
    PrivateCredentials(std::string path, Credentials credentials)
        : m_path(std::move(path)), m_credentials(std::move(credentials)) {}
    std::string m_path;
    Credentials m_credentials;
};

/// Whether `host` is a loopback address ("127.x.y.z", "localhost", "::1"): where --insecure may bind.
bool isLoopbackHost(const std::string& host);

}  // namespace syncscope::engine
