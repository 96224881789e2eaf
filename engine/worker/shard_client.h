// ShardClient: a worker's side of a run whose model lives on parameter shards (parameter_shard.h):
// one DEALER socket per shard, each created and used on the worker's thread. It pushes each range of
// a gradient to its shard, zero-copy from the worker's buffer, and pulls each range of a version
// into the worker's parameters; the shards' answers arrive in any order.
#pragma once

#include <zmq.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <vector>

#include "engine/core/status.h"
#include "engine/net/endpoint.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

/// The oldest and newest version among the ranges of one pull (equal unless a shard no longer kept
/// the version asked for).
struct PulledVersions {
    uint64_t oldest = 0, newest = 0;
};

class ShardClient {
public:
    using Ranges = google::protobuf::RepeatedPtrField<wire::ShardRange>;

    /// Whether a coordinator's ranges cover a model of `parameterCount` once, in order, each with an
    /// endpoint to dial (a coordinator is checked like any peer).
    static Status validate(const Ranges& ranges, uint64_t parameterCount);

    ShardClient(zmq::context_t& context, const Ranges& ranges, const EndpointSecurity& security, uint32_t workerId,
                uint64_t sessionToken);

    size_t count() const { return m_shards.size(); }
    /// Sends each range of `gradient` (the whole model's, host memory) to its shard (each copy) as gradient
    /// `sequence` computed on `baseVersion`; `inFlight` counts the frames ZeroMQ still reads.
    void push(const float* gradient, uint64_t sequence, uint64_t baseVersion, std::atomic<int>& inFlight);
    /// Pulls `version` from every range's first copy; `take(range, values)` gets each as it arrives. Gives
    /// up after `timeout`, or when `keepWaiting` says so (the coordinator is gone), saying which
    /// shard did not answer.
    Result<PulledVersions> pull(uint64_t version,
                                const std::function<void(const wire::ShardRange&, const float*)>& take,
                                std::chrono::milliseconds timeout, const std::function<bool()>& keepWaiting);

private:
    struct Shard {
        wire::ShardRange range;
        zmq::socket_t socket;
        std::unique_ptr<LinkSeal> seal;  ///< the encrypted data plane's sealed link, else empty
    };
    /// How long a push waits for a shard link's handshake before queueing (sent when it completes).
    static constexpr std::chrono::seconds kHandshakeWait{10};
    void awaitHandshake(Shard& shard);

    std::vector<Shard> m_shards;     ///< every copy of every range (Welcome.parameter_shards)
    std::vector<size_t> m_pullFrom;  ///< the first copy of each range, in m_shards
    uint32_t m_workerId;
    uint64_t m_sessionToken;
    uint64_t m_nextRequest = 1;
};

}  // namespace syncscope::engine
