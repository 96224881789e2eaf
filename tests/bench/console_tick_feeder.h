// TickFeeder: a stand-in coordinator for the console benchmark. A thread of its own owns a real
// ZeroMQ PUB socket (ticks framed as the coordinator frames them: topic "tick", then a wire::Tick)
// and a ROUTER that answers the console's snapshot request; it publishes a synthetic run of N workers.
#pragma once

#include <zmq.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "engine/proto/syncscope.pb.h"

namespace syncscope::bench {

struct FeederSettings {
    int workers = 64;
    int ticks = 3000;      // at 10 Hz of run time: 3000 ticks = 5 minutes
    double speedup = 10.0; // 1: real time (10 ticks a wall second)
    int eventEvery = 50;   // ticks between events (a slider moved, a learning rate set)
};

class TickFeeder {
public:
    explicit TickFeeder(const FeederSettings& settings);
    ~TickFeeder();
    TickFeeder(const TickFeeder&) = delete;
    TickFeeder& operator=(const TickFeeder&) = delete;

    std::string telemetryEndpoint() const { return m_telemetryEndpoint; }
    std::string controlEndpoint() const { return m_controlEndpoint; }

    /// Until begin(), the feeder publishes a time-0 "waiting" tick every 50 ms (the console's
    /// attach waits for a first tick), and answers snapshot requests. begin() starts the run.
    void begin() { m_go.store(true); }
    bool finished() const { return m_finished.load(); }
    int sent() const { return m_sent.load(); }
    /// Wall seconds from the first to the last published run tick.
    double publishSeconds() const { return m_publishSeconds.load(); }
    int snapshotsServed() const { return m_snapshots.load(); }

    /// Tick `index` (1-based) of the synthetic run: plausible, changing values for every worker.
    static wire::Tick makeTick(int index, int workers, uint64_t startUnixMs, int eventEvery = 50);

private:
    void run(std::promise<void>& bound);
    void serveControl(zmq::socket_t& control);

    FeederSettings m_settings;
    zmq::context_t m_context{1};
    std::string m_telemetryEndpoint, m_controlEndpoint;
    uint64_t m_startUnixMs = 0;
    std::atomic<bool> m_go{false}, m_stop{false}, m_finished{false};
    std::atomic<int> m_sent{0}, m_snapshots{0};
    std::atomic<double> m_publishSeconds{0.0};
    std::thread m_thread;  // creates, uses and closes both sockets
};

}  // namespace syncscope::bench
