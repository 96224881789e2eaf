// The cluster bench_coordinator drives around a real Coordinator, in one process: simulated workers
// (threads speaking the worker protocol with no compute: the same gradient goes back the moment the
// parameters are in, directly, through a group aggregator, or by range to parameter shards) and
// in-process relays (group aggregators or parameter shards as `aggregate` and `shard` run them), each
// on a thread of its own that owns its sockets.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "engine/net/credentials.h"
#include "engine/net/endpoint.h"
#include "engine/net/tensor_frame.h"
#include "engine/relay/aggregator.h"
#include "engine/relay/shard_state.h"

namespace syncscope::bench {

/// The mlp's parameter count: every simulated gradient and parameter frame is this many floats.
constexpr size_t kMlpFloats = 235146;

/// What the simulated workers did, counted as they go; round trips only while `timing`.
struct WorkerCounters {
    std::atomic<uint64_t> gradients{0}, maxVersion{0}, parameterBytes{0};
    std::atomic<uint32_t> started{0}, moves{0};
    std::atomic<bool> timing{false};
    /// Frames over the (constant) gradient that ZeroMQ still holds: counted here, not on a worker's
    /// stack, because a frame can outlive its worker's thread (the context outlives them all).
    std::atomic<int> framesInFlight{0};
    std::mutex roundTripsMutex;
    std::vector<double> roundTripsMs;  ///< a push sent (or the first pull) to the whole parameters in
};

/// Register -> Welcome -> pull, then: parameters in (from the coordinator, or pulled from the shards
/// its Welcome names), the same gradient straight back out, until stopped. It follows a move to its
/// group's aggregator as the native worker does.
void simulatedWorker(zmq::context_t& context, const std::string& address, const engine::EndpointSecurity& security,
                     const engine::SharedFloats& gradient, WorkerCounters& counters);

/// What the relays did over their run, added up.
struct RelayTotals {
    engine::AggregatorStats aggregators;
    engine::ShardStats shards;
};

/// Group aggregators or parameter shards in this process, each created, started, run and destroyed
/// on a thread of its own named "aggregator" or "shard". They start one after another, so each one's
/// ZeroMQ threads are told apart from its neighbours' and they register in order (aggregator k
/// serves group k mod A; shard k holds the k-th range).
class RelayThreads {
public:
    enum class Kind { Aggregator, Shard };
    RelayThreads(Kind kind, unsigned count, const std::string& coordinatorData,
                 const std::optional<engine::Credentials>& credentials);
    ~RelayThreads() { join(); }
    RelayThreads(const RelayThreads&) = delete;
    RelayThreads& operator=(const RelayThreads&) = delete;

    const std::vector<std::string>& endpoints() const { return m_endpoints; }
    const std::vector<pid_t>& runThreads() const { return m_runThreads; }
    const std::vector<pid_t>& ioThreads() const { return m_ioThreads; }
    /// Waits for every relay to end (the coordinator stops them when its run ends); their stats added up.
    RelayTotals join();

private:
    struct Slot {
        std::thread thread;
        RelayTotals stats;  ///< written by the thread as it ends, read after join
    };
    std::vector<std::unique_ptr<Slot>> m_slots;
    std::vector<std::string> m_endpoints;
    std::vector<pid_t> m_runThreads, m_ioThreads;
};

}  // namespace syncscope::bench
