// WorkerRegistry: what the coordinator knows of each worker: identity on the data socket,
// liveness, clock, counters, timing and its straggler settings.
#pragma once

#include <chrono>
#include <cstdint>
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/policy/compute_time_model.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

using Clock = std::chrono::steady_clock;

struct WorkerRecord {
    uint32_t id = 0;
    std::string identity;  ///< routing id of its data socket, or of the aggregator it is behind
    std::string route;     ///< behind an aggregator: its routing id there; empty: connected directly
    bool movable = false;  ///< it follows Params.move_to (a native worker)
    bool moving = false;   ///< told to move to its group's aggregator, not registered there yet
    wire::WorkerState state = wire::WORKER_STARTING;
    wire::WorkerState stateBeforeLoss = wire::WORKER_STARTING;  ///< restored if a lost worker comes back
    Clock::time_point lastSeen;
    bool waiting = false;  ///< has asked for parameters and not been sent them yet
    Clock::time_point waitingSince;
    uint64_t clock = 0;    ///< gradients pushed (SSP's clock)
    uint64_t pushed = 0, applied = 0, dropped = 0;
    uint32_t batchSize = 0;
    uint32_t assignedBatch = 0;  ///< the batch sent with its last parameters: its next push's batch
    uint32_t handOffBatch = 0;   ///< elastic: its next release computes this share of a late worker's batch (0: none)
    Clock::time_point releasedAt;  ///< when it was last sent parameters
    uint64_t sessionToken = 0;   ///< from its Welcome: its heartbeats must carry it
    bool mustRejoin = false;     ///< a parameter shard was replaced: it registers again for the new ranges
    bool leaving = false;        ///< its last heartbeat said it heard the run is over and ends
    uint32_t shardSize = 0;      ///< training images in its shard (a batch never exceeds it)
    uint32_t group = 0;        ///< in grouped mode; 0 otherwise
    ComputeTimeModel compute;  ///< its compute time per iteration by batch size (slowdown included)
    ComputeTimeModel cpu{ComputeTimeModel::kSizesKeptForCpu};  ///< its process's CPU time per iteration (Push.cpu_ms)
    double cpuLimit = 0.0;     ///< the CPU limit its process reported (Push.cpu_limit; 0: none)
    double computeSpeed = 0;   ///< compute.samplesPerSecond(): the median of its recent pushes
    wire::Slowdown slowdown;
    std::vector<uint64_t> stalenessHistogram;  ///< bucket i: tau = i; the last bucket: tau >= i
    double stalenessSum = 0.0;
    uint64_t samplesSinceTick = 0, iterationsSinceTick = 0;
    double samplesPerSecond = 0.0, iterationsPerSecond = 0.0;  ///< smoothed per tick
    double computeMs = 0.0, commMs = 0.0, waitMs = 0.0;        ///< of its last iteration
    double typicalCommMs = 0.0;  ///< the median communication time of its last kSpeedWindow pushes
    std::vector<double> recentComm;  ///< ring of the last kSpeedWindow
    size_t nextComm = 0;
    std::string pid;
    std::string user;  ///< who its data connection authenticated as (ZAP User-Id; "worker:NAME" if named)

    bool active() const { return state != wire::WORKER_LOST && state != wire::WORKER_DONE; }
    /// Takes part in barriers and bounds: active and past start-up (it has pulled parameters).
    bool participating() const { return active() && state != wire::WORKER_STARTING; }
    void recordStaleness(uint64_t tau);
    void recordCompute(uint32_t batch, double ms);  ///< one push's batch and compute time
    /// One push's CPU time over the iteration it ends, and the CPU limit its process reported.
    void recordCpu(uint32_t batch, double cpuMs, double limit);
    /// The shortest an iteration at `batch` can take on average under its CPU limit: its CPU time on
    /// the fitted line over the limit (0: no limit, or no CPU times yet). A worker under a quota runs a
    /// small batch at full speed on quota it saved while waiting and is throttled in a later
    /// iteration, so its compute times alone overstate what it keeps up.
    double quotaBoundMs(double batch) const {
        return cpuLimit > 0 && cpu.measured() ? cpu.milliseconds(batch) / cpuLimit : 0.0;
    }
    /// Its compute speed (samples/s), or what its CPU limit sustains at its batch where that is less:
    /// under a quota a small batch's compute runs at full speed on saved quota (elastic's throttled
    /// worker measured 5,200-6,300 samples/s, the fastest of four, while it trained at about 470).
    double sustainedSpeed() const {
        const double bound = quotaBoundMs(batchSize);
        return bound > 0 ? std::min(computeSpeed, 1000.0 * batchSize / bound) : computeSpeed;
    }
    /// Its typical iteration at `batch`: compute on its fitted line plus its typical communication,
    /// or its quota bound where that is longer.
    double iterationMs(double batch) const {
        return std::max(compute.milliseconds(batch) + typicalCommMs, quotaBoundMs(batch));
    }
    /// The largest batch whose iterationMs() is at most `ms` (both of its terms are lines in the
    /// batch); may be negative or huge: the caller clamps it.
    double batchWithin(double ms) const;
    void recordComm(double ms);      ///< communication time of one iteration
    /// The batch its release now computes (a hand-off share once, else batchSize); notes it as
    /// assignedBatch and the time as releasedAt. Whoever sends parameters calls it.
    uint32_t takeReleaseBatch(Clock::time_point now);
    static constexpr size_t kSpeedWindow = ComputeTimeModel::kWindow;
};

class WorkerRegistry {
public:
    static constexpr size_t kStalenessBuckets = 32;

    WorkerRecord& add(const std::string& identity, const std::string& route, uint32_t batchSize);
    /// A worker of a checkpoint, back under its id and routing identity (lost until it registers).
    WorkerRecord& restore(uint32_t id, const std::string& identity);
    uint32_t nextId() const { return m_nextId; }
    void setNextId(uint32_t next) { m_nextId = std::max(m_nextId, next); }
    WorkerRecord* find(uint32_t id);
    /// By the routing id it talks from (`route`: behind the aggregator `identity`).
    WorkerRecord* findByIdentity(const std::string& identity, const std::string& route = {});
    /// By its own routing id, connected directly or behind an aggregator (where it is the route).
    WorkerRecord* findByRoutingId(const std::string& routingId);
    /// The worker now talks from another socket (it moved to another aggregator).
    void reroute(WorkerRecord& worker, const std::string& identity, const std::string& route);
    std::vector<uint32_t> participantIds() const;
    /// The smallest clock among participating workers (0 when none).
    uint64_t minParticipantClock() const;
    /// Everyone back in group 0 (a mode without groups).
    void clearGroups();
    std::map<uint32_t, WorkerRecord>& all() { return m_workers; }
    const std::map<uint32_t, WorkerRecord>& all() const { return m_workers; }

private:
    std::map<uint32_t, WorkerRecord> m_workers;
    std::map<std::pair<std::string, std::string>, uint32_t> m_byIdentity;  ///< (identity, route) -> id
    uint32_t m_nextId = 0;
};

}  // namespace syncscope::engine
