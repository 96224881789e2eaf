// HeartbeatSender: a worker's liveness signal. A thread of its own, with its own DEALER socket
// (created and closed on that thread), sends a heartbeat every 250 ms and watches the replies;
// when none comes for `timeout`, the coordinator is considered gone.
#pragma once

#include <zmq.hpp>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

namespace syncscope::engine {

class HeartbeatSender {
public:
    HeartbeatSender(zmq::context_t& context, std::string endpoint, uint32_t workerId,
                    std::chrono::milliseconds timeout);
    ~HeartbeatSender();

    bool coordinatorLost() const { return m_lost.load(std::memory_order_acquire); }

private:
    void loop();

    zmq::context_t& m_context;
    std::string m_endpoint;
    uint32_t m_workerId;
    std::chrono::milliseconds m_timeout;
    std::atomic<bool> m_lost{false}, m_quit{false};
    std::thread m_thread;
};

}  // namespace syncscope::engine
