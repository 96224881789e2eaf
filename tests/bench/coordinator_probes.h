// What bench_coordinator reads beside throughput: CPU seconds of a set of this process's threads
// (the coordinator's, told apart from the simulated workers'), the size of every telemetry tick a
// subscriber receives, and the size of the snapshot a console gets when it attaches.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "engine/net/endpoint.h"

namespace syncscope::bench {

/// Ids of this process's threads now (/proc/self/task).
std::vector<pid_t> processThreads();
/// Threads in `after` that are not in `before`.
std::vector<pid_t> threadsStartedBetween(const std::vector<pid_t>& before, const std::vector<pid_t>& after);
/// Seconds a thread has run on a CPU, and waited, runnable, for one (/proc schedstat); 0 once it is gone.
struct ThreadTimes {
    double running = 0, waiting = 0;
};
ThreadTimes threadTimes(pid_t tid);
/// Running seconds of all `threads` together.
double runningSeconds(const std::vector<pid_t>& threads);
/// CPU seconds of the whole process (every thread, live or ended).
double processCpuSeconds();
/// The thread's name (/proc/self/task/TID/comm), e.g. "ZMQbg/IO/0".
std::string threadName(pid_t tid);
/// Renames a thread to `prefix` + its name (15 characters kept), so that top and perf tell apart the
/// ZeroMQ threads of two contexts ("c-ZMQbg/IO/0", "w-ZMQbg/IO/0").
void prefixThreadName(pid_t tid, const std::string& prefix);

/// Subscribes to a coordinator's ticks on a thread of its own and counts those received while counting.
class TickCounter {
public:
    TickCounter(zmq::context_t& context, std::string address, engine::EndpointSecurity security);
    ~TickCounter();
    TickCounter(const TickCounter&) = delete;
    TickCounter& operator=(const TickCounter&) = delete;

    void startCounting();
    void stopCounting() { m_counting = false; }
    uint64_t ticks() const { return m_ticks; }
    /// Bytes of the serialized wire::Tick frames counted (the topic frame left out).
    uint64_t bytes() const { return m_bytes; }
    uint64_t largest() const { return m_largest; }

private:
    void receive(zmq::context_t& context, const std::string& address, const engine::EndpointSecurity& security);

    std::atomic<bool> m_stop{false}, m_counting{false};
    std::atomic<uint64_t> m_ticks{0}, m_bytes{0}, m_largest{0};
    std::thread m_thread;
};

/// One snapshot as a console attaching now would get it.
struct SnapshotSize {
    double bytes = 0;  ///< the serialized reply envelope
    double ticks = 0, events = 0;
    double roundTripMs = 0;  ///< request sent to reply decoded
};
/// Asks the coordinator's control endpoint for a snapshot, from a new console identity.
SnapshotSize takeSnapshot(zmq::context_t& context, const std::string& controlAddress,
                          const engine::EndpointSecurity& security);

}  // namespace syncscope::bench
