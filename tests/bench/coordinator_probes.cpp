// Probes of bench_coordinator (see coordinator_probes.h).
#include "tests/bench/coordinator_probes.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "engine/core/check.h"
#include "engine/net/protocol.h"
#include "engine/net/wire_codec.h"

namespace syncscope::bench {

using Clock = std::chrono::steady_clock;

std::vector<pid_t> processThreads() {
    std::vector<pid_t> ids;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task"))
        ids.push_back(static_cast<pid_t>(std::stol(entry.path().filename().string())));
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<pid_t> threadsStartedBetween(const std::vector<pid_t>& before, const std::vector<pid_t>& after) {
    std::vector<pid_t> started;
    std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(started));
    return started;
}

ThreadTimes threadTimes(pid_t tid) {
    std::ifstream schedstat("/proc/self/task/" + std::to_string(tid) + "/schedstat");
    double runNs = 0, waitNs = 0;
    schedstat >> runNs >> waitNs;
    return {runNs * 1e-9, waitNs * 1e-9};
}

double runningSeconds(const std::vector<pid_t>& threads) {
    double sum = 0;
    for (pid_t tid : threads) sum += threadTimes(tid).running;
    return sum;
}

double processCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::string threadName(pid_t tid) {
    std::ifstream comm("/proc/self/task/" + std::to_string(tid) + "/comm");
    std::string name;
    std::getline(comm, name);
    return name;
}

void prefixThreadName(pid_t tid, const std::string& prefix) {
    std::ofstream comm("/proc/self/task/" + std::to_string(tid) + "/comm");
    comm << (prefix + threadName(tid)).substr(0, 15);
}

TickCounter::TickCounter(zmq::context_t& context, std::string address, engine::EndpointSecurity security)
    : m_thread([this, &context, address, security] { receive(context, address, security); }) {}

TickCounter::~TickCounter() {
    m_stop = true;
    m_thread.join();
}

void TickCounter::startCounting() {
    m_ticks = m_bytes = m_largest = 0;
    m_counting = true;
}

// The socket lives and dies on this thread; a tick is [topic][Tick].
void TickCounter::receive(zmq::context_t& context, const std::string& address,
                          const engine::EndpointSecurity& security) {
    zmq::socket_t socket(context, zmq::socket_type::sub);
    socket.set(zmq::sockopt::linger, 0);
    engine::applySecurity(socket, security, false);
    socket.set(zmq::sockopt::subscribe, engine::kTickTopic);
    socket.connect(address);
    while (!m_stop) {
        zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
        zmq::poll(&item, 1, std::chrono::milliseconds(50));
        zmq::message_t topic, tick;
        while (socket.recv(topic, zmq::recv_flags::dontwait)) {
            SS_CHECK(topic.more(), "a tick after its topic");
            (void)socket.recv(tick);
            if (!m_counting) continue;
            ++m_ticks;
            m_bytes += tick.size();
            m_largest = std::max<uint64_t>(m_largest, tick.size());
        }
    }
}

SnapshotSize takeSnapshot(zmq::context_t& context, const std::string& controlAddress,
                          const engine::EndpointSecurity& security) {
    zmq::socket_t control(context, zmq::socket_type::dealer);
    control.set(zmq::sockopt::linger, 0);
    engine::applySecurity(control, security, false);
    control.connect(controlAddress);
    wire::Envelope request;
    request.mutable_control()->set_snapshot(true);
    const auto start = Clock::now();
    engine::sendMessage(control, nullptr, request);
    const engine::ReceiveLimits limits{size_t{256} << 20, 0};  // as much as a console accepts
    const auto deadline = start + std::chrono::seconds(30);
    while (Clock::now() < deadline) {
        zmq::pollitem_t item{control.handle(), 0, ZMQ_POLLIN, 0};
        zmq::poll(&item, 1, std::chrono::milliseconds(100));
        auto message = engine::receiveMessage(control, false, limits);
        if (!message) continue;
        SS_CHECK(message->isOk(), message->status().message().c_str());
        const auto& envelope = message->value().envelope;
        SS_CHECK(envelope.has_control_reply() && envelope.control_reply().ok(), "a snapshot in reply");
        const auto& snapshot = envelope.control_reply().snapshot();
        return {static_cast<double>(envelope.ByteSizeLong()), static_cast<double>(snapshot.ticks_size()),
                static_cast<double>(snapshot.events_size()),
                std::chrono::duration<double, std::milli>(Clock::now() - start).count()};
    }
    SS_CHECK(false, "the coordinator did not answer a snapshot request within 30 s");
    return {};
}

}  // namespace syncscope::bench
