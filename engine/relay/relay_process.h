// What the server processes between workers and the coordinator (relays: a group aggregator, a
// parameter shard) share: their options, where their workers reach them, and how they join a run
// (register upstream with their role and wait for the coordinator's answer).
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

#include "engine/core/status.h"
#include "engine/net/credentials.h"
#include "engine/net/endpoint.h"

namespace syncscope::engine {

/// Messages a relay handles from one side (its workers, or upstream) before it looks at the other.
inline constexpr int kRelayMessagesPerTurn = 256;

struct RelayOptions {
    std::string connect;               ///< the coordinator's data endpoint
    std::string bindHost = "127.0.0.1";
    int port = 0;                      ///< 0: any free port
    std::string advertise;             ///< the endpoint workers dial; empty: the bound address
    /// The coordinator's credentials file (its key serves the workers, the worker role's pair
    /// connects upstream); none: no authentication (loopback only).
    std::optional<Credentials> credentials;
    /// The file `credentials` came from, read again when it changes: a revoked worker is cut off
    /// here too (where the relay runs beside the coordinator's file, or a copy kept up to date).
    std::string credentialsPath;
    bool plainDataPlane = false;
    double registerTimeoutSeconds = 30;
    /// Silence from the coordinator (it answers every heartbeat) for this long: it is gone, and the
    /// relay ends with an error instead of waiting for ever (a resumed run starts its relays again).
    double coordinatorTimeoutSeconds = 10;
    const std::atomic<bool>* interrupted = nullptr;

    const Credentials* credentialsOrNull() const { return credentials ? &*credentials : nullptr; }
};

/// A relay's watch on its coordinator: every message from it counts as heard (it answers each
/// heartbeat, sent every kHeartbeatEvery); silence for the timeout means it is gone.
class CoordinatorWatch {
public:
    explicit CoordinatorWatch(const RelayOptions& options) : m_options(options) {}
    void heard() { m_last = std::chrono::steady_clock::now(); }
    /// An error naming the coordinator and what to do once it has been silent too long; ok before.
    Status check(const char* relay) const;

private:
    const RelayOptions& m_options;
    std::chrono::steady_clock::time_point m_last = std::chrono::steady_clock::now();
};

/// This machine's name, as other hosts reach it.
std::string thisHostName();

/// The endpoint its workers dial: `advertise` when given, else the `bound` address, under this
/// host's name when bound to every interface (0.0.0.0).
std::string advertisedEndpoint(const std::string& advertise, const std::string& bindHost, const std::string& bound);


/// Registers at the coordinator (connected at `connect`) as `role`, with `endpoint` for its workers,
/// and waits up to timeoutSeconds for the answer with `answer` set (a refusal or silence is an
/// error saying what to check). With `heartbeatEvery`, it heartbeats while it waits (a standby
/// parameter shard: the coordinator passes over one that went silent).
Result<InboundMessage> registerUpstream(ClientEndpoint& coordinator, const std::string& connect, wire::Role role,
                                        const std::string& endpoint, wire::Envelope::BodyCase answer,
                                        double timeoutSeconds, const std::atomic<bool>* interrupted,
                                        std::optional<std::chrono::milliseconds> heartbeatEvery = std::nullopt);

}  // namespace syncscope::engine
