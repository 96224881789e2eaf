// ShardState: what a parameter shard holds and does, without sockets (parameter_shard.h has them):
// its contiguous range of the model with its momentum (a ParameterStore of the range), the ranges of
// gradients that wait for the coordinator's decision, the versions it keeps for workers that were
// released on them and have not pulled yet, the versions the coordinator pinned (a grouped round's,
// kept until unpinned), and the pulls that wait for a version still on its way.
// Every shard applies the same updates in the coordinator's order, so version v is one model across
// the shards; a pull of v is answered with v, whenever it arrives.
#pragma once

#include <zmq.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "engine/core/status.h"
#include "engine/model/sgd_optimizer.h"
#include "engine/net/tensor_frame.h"
#include "engine/proto/syncscope.pb.h"
#include "engine/model/parameter_store.h"

namespace syncscope::engine {

/// What a shard did, printed when it ends and counted by the benchmark.
struct ShardStats {
    uint64_t slices = 0;          ///< gradient ranges received
    uint64_t updates = 0;         ///< updates applied
    uint64_t terms = 0;           ///< gradient ranges applied in them
    uint64_t forgotten = 0;       ///< ranges of dropped gradients let go
    uint64_t evicted = 0;         ///< ranges let go because their worker sent too many undecided ones
    uint64_t pullsExact = 0;      ///< pulls answered with the version asked for
    uint64_t pullsOther = 0;      ///< pulls answered with another version (it was no longer kept)
    uint64_t pullsWaited = 0;     ///< pulls that arrived before their version and waited for it
    size_t mostVersionsKept = 0;  ///< most versions kept at once for workers still to pull, pinned ones too
};

class ShardState {
public:
    using Clock = std::chrono::steady_clock;
    /// A worker may have this many gradient ranges waiting for a decision; beyond it its oldest goes.
    /// (kasync holds up to K <= N gradients of one fast worker; a worker with more is misbehaving.)
    static constexpr size_t kMaxPendingPerWorker = 64;
    /// A version kept for released workers, or a pull waiting for its version, lasts this long at
    /// most (a worker that died before it pulled; a version that never comes).
    static constexpr std::chrono::seconds kKeepFor{30};

    /// A worker's request for the range of `version`.
    struct Pull {
        std::string identity;  ///< the worker's routing id at the shard
        uint64_t version = 0;
        uint64_t requestId = 0;
        Clock::time_point since;
    };
    /// The answer to a pull: the range of `version`.
    struct Answer {
        std::string identity;
        uint64_t version = 0;
        uint64_t requestId = 0;
        SharedFloats values;
    };

    ShardState(const std::vector<float>& parameters, const std::vector<float>& momentum, uint64_t version,
               SgdSettings sgd);

    uint64_t version() const { return m_store.version(); }
    size_t size() const { return m_store.size(); }
    /// The range's last `count` values are buffers (RunSpec.buffer_count): set to the batch-weighted
    /// mean of an update's ranges, not stepped.
    void setBufferCount(size_t count) { m_store.setBufferCount(count); }
    const ShardStats& stats() const { return m_stats; }

    /// A worker's gradient range (`values`: float32 x size()) is kept until the coordinator applies
    /// or forgets it; returns what the coordinator is told of it.
    wire::SliceReceived addSlice(const wire::ShardPush& push, zmq::message_t values);
    /// The coordinator's next decision: forgets the ranges named, pins and unpins versions, then
    /// applies the update (if it is one); pulls that it lets through are appended to `answers`. An error means the coordinator and
    /// this shard disagree (a version out of order, a range it does not hold): the run cannot go on.
    Status apply(const wire::ShardUpdate& update, std::vector<Answer>* answers);
    /// A worker's pull: answered now, or kept until its version arrives (then apply() answers it).
    std::optional<Answer> pull(Pull pull);
    /// The coordinator put the range back as `version` (a rollback): kept and pinned versions go,
    /// and pulls that waited for a version up to it are answered with it.
    void restore(const std::vector<float>& parameters, const std::vector<float>& momentum, uint64_t version,
                 std::vector<Answer>* answers);
    /// Lets go of versions kept for longer than kKeepFor (pinned ones stay until unpinned) and answers pulls that waited that long
    /// with the version there is.
    void expire(Clock::time_point now, std::vector<Answer>* answers);
    /// The current version's range (for the coordinator's evaluation).
    SharedFloats current() { return m_store.snapshot(); }
    /// The current version's range and then its momentum, in one buffer (for a checkpoint).
    SharedFloats currentWithMomentum() const;

private:
    using SliceKey = std::tuple<uint32_t, uint64_t, uint64_t>;  ///< worker, session token, sequence
    struct Kept {
        SharedFloats values;
        uint32_t owed = 0;  ///< released workers that have not pulled it yet
        Clock::time_point since;
    };
    Answer answer(const Pull& pull, uint64_t version, SharedFloats values);
    void evictOldestOf(uint32_t worker);

    ParameterStore m_store;
    std::map<SliceKey, zmq::message_t> m_slices;
    std::map<uint32_t, std::deque<SliceKey>> m_slicesByWorker;  ///< in arrival order
    std::map<uint64_t, Kept> m_kept;                            ///< by version
    std::map<uint64_t, SharedFloats> m_pinned;                  ///< by version, until unpinned
    uint32_t m_pulledCurrent = 0;  ///< pulls answered with the current version, asked for it
    std::vector<Pull> m_waiting;   ///< for versions still to come
    std::vector<float> m_scratch;  ///< an update's sum of scaled ranges
    ShardStats m_stats;
};

}  // namespace syncscope::engine
