// Joining a run as a server process (see upstream_registration.h).
#include "engine/relay/relay_process.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>

#include "engine/core/printable.h"

namespace syncscope::engine {

std::string thisHostName() {
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    return host;
}

std::string advertisedEndpoint(const std::string& advertise, const std::string& bindHost, const std::string& bound) {
    if (!advertise.empty()) return advertise;
    if (bindHost == "0.0.0.0")  // reachable from other hosts under this one's name
        return "tcp://" + thisHostName() + bound.substr(bound.rfind(':'));
    return bound;
}

Result<InboundMessage> registerUpstream(ClientEndpoint& coordinator, const std::string& connect, wire::Role role,
                                        const std::string& endpoint, wire::Envelope::BodyCase answer,
                                        double timeoutSeconds, const std::atomic<bool>* interrupted,
                                        std::optional<std::chrono::milliseconds> heartbeatEvery) {
    using Clock = std::chrono::steady_clock;
    coordinator.connect(connect);
    wire::Envelope hello;
    wire::Register* reg = hello.mutable_register_();
    reg->set_role(role);
    reg->set_endpoint(endpoint);
    reg->set_pid(static_cast<uint32_t>(getpid()));
    reg->set_hostname(thisHostName());
    coordinator.send(hello);
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(timeoutSeconds));
    const std::string what = role == wire::ROLE_SHARD ? "parameter shard" : "aggregator";
    auto lastSent = Clock::now();
    while (Clock::now() < deadline) {
        if (interrupted && interrupted->load()) return unavailable("interrupted");
        if (heartbeatEvery && Clock::now() - lastSent >= *heartbeatEvery) {
            wire::Envelope beat;
            beat.mutable_heartbeat();
            coordinator.send(beat);
            lastSent = Clock::now();
        }
        zmq::pollitem_t item{coordinator.socket().handle(), 0, ZMQ_POLLIN, 0};
        pollSockets(&item, 1, std::chrono::milliseconds(100));
        auto reply = coordinator.receive();
        if (!reply) continue;
        if (!*reply) return reply->status();
        const wire::Envelope& envelope = reply->value().envelope;
        if (envelope.has_error())
            return unavailable(fmt::format("the coordinator refused this {}: {}", what, envelope.error().message()));
        if (envelope.body_case() == answer) return std::move(reply->value());
    }
    return unavailable(fmt::format("no coordinator answered at {} within {:g} s; is `syncscope-engine serve` running "
                                   "there, and are these its credentials?",
                                   connect, timeoutSeconds));
}

Status CoordinatorWatch::check(const char* relay) const {
    const double silent = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_last).count();
    if (silent < m_options.coordinatorTimeoutSeconds) return Status::ok();
    return unavailable(fmt::format("the coordinator at {} sent nothing for {:.0f} s, not even a heartbeat reply: it is "
                                   "gone, and this {}'s part of the run with it; start the {} again with the restarted "
                                   "coordinator (serve --resume DIR), or raise --coordinator-timeout",
                                   m_options.connect, silent, relay, relay));
}

}  // namespace syncscope::engine
