// HeartbeatSender: a worker's liveness signal. A thread of its own, with its own DEALER socket
// (created and closed on that thread), sends a heartbeat every 250 ms and watches the replies;
// when none comes for `timeout`, the coordinator is considered gone.
#pragma once

#include <zmq.hpp>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "engine/net/endpoint.h"

namespace syncscope::engine {

class HeartbeatSender {
public:
    using Clock = std::chrono::steady_clock;
    /// `security` and `routingId` as the worker's data socket has them (its own routing id with
    /// a suffix); `sessionToken` from the worker's Welcome.
    HeartbeatSender(zmq::context_t& context, std::string endpoint, EndpointSecurity security, std::string routingId,
                    uint32_t workerId, uint64_t sessionToken, std::chrono::milliseconds timeout);
    ~HeartbeatSender();

    bool coordinatorLost() const { return m_lost.load(std::memory_order_acquire); }
    /// Whether the coordinator said the run's parameter shards changed (a lost one replaced): the
    /// worker registers again for the new ranges.
    bool rejoinAsked() const { return m_rejoin.load(std::memory_order_acquire); }
    /// Whether the coordinator's acknowledgements have said, continuously for `span` up to a
    /// recent one, that it waits for this worker's next message: if the worker waits for an
    /// answer meanwhile, a message between them was lost (a dropped connection).
    bool coordinatorAwaitingFor(Clock::duration span) const;
    /// Whether the coordinator's acknowledgements said the run is over (this worker's stop may have
    /// gone down with a dropped connection), and the model's last version they named.
    bool runOver() const { return m_runOver.load(std::memory_order_acquire); }
    uint64_t finalVersion() const { return m_finalVersion.load(std::memory_order_acquire); }
    /// The worker heard the run is over: the last heartbeat, sent as this sender stops, says so
    /// (as it does once the acknowledgements said the run is over).
    void leave() { m_leaving.store(true, std::memory_order_release); }

private:
    void loop();

    zmq::context_t& m_context;
    std::string m_endpoint;
    EndpointSecurity m_security;
    std::string m_routingId;
    uint32_t m_workerId;
    uint64_t m_sessionToken;
    std::chrono::milliseconds m_timeout;
    std::atomic<bool> m_lost{false}, m_quit{false}, m_rejoin{false}, m_runOver{false}, m_leaving{false};
    std::atomic<uint64_t> m_finalVersion{0};
    /// When the last acknowledgement saying "awaiting" and the last saying "not awaiting" came
    /// (steady clock ticks; 0: none yet).
    std::atomic<Clock::rep> m_lastAwaiting{0}, m_lastNotAwaiting{0};
    std::thread m_thread;
};

}  // namespace syncscope::engine
