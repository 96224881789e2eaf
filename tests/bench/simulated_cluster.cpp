// The simulated workers and in-process relays of bench_coordinator (see simulated_cluster.h).
#include "tests/bench/simulated_cluster.h"

#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <future>

#include "engine/core/check.h"
#include "engine/net/protocol.h"
#include "engine/net/wire_codec.h"
#include "engine/relay/parameter_shard.h"
#include "engine/worker/shard_client.h"
#include "tests/bench/coordinator_probes.h"

namespace syncscope::bench {
namespace {

using namespace engine;
using Clock = std::chrono::steady_clock;

// The next message on a worker's socket; a coordinator silent for 30 s is a failed benchmark.
InboundMessage awaitReply(zmq::socket_t& socket, size_t floats, LinkSeal* seal) {
    const ReceiveLimits limits{kMaxEnvelopeBytes, floats * sizeof(float)};
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (Clock::now() < deadline) {
        zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
        zmq::poll(&item, 1, std::chrono::milliseconds(100));
        if (auto message = receiveMessage(socket, false, limits, nullptr, seal)) {
            SS_CHECK(message->isOk(), message->status().message().c_str());
            SS_CHECK(!message->value().envelope.has_error(), message->value().envelope.error().message().c_str());
            return std::move(message->value());
        }
    }
    SS_CHECK(false, "a reply within 30 s");
    return {};
}

zmq::socket_t dial(zmq::context_t& context, const std::string& address, const EndpointSecurity& security) {
    zmq::socket_t socket(context, zmq::socket_type::dealer);
    socket.set(zmq::sockopt::linger, 0);
    applySecurity(socket, security, false);
    socket.connect(address);
    return socket;
}

// Register -> Welcome -> pull. Movable, as the native worker: in grouped mode the coordinator moves
// it to its group's aggregator, where it registers again with its session's id and token.
wire::Welcome join(zmq::socket_t& socket, wire::Envelope hello, size_t floats, LinkSeal* seal) {
    wire::Register* reg = hello.mutable_register_();
    reg->set_pid(static_cast<uint32_t>(getpid()));
    reg->set_hostname("bench");
    reg->set_backend("simulated");
    reg->set_movable(true);
    reg->set_parameter_shards(true);
    sendMessage(socket, nullptr, hello, nullptr, seal);
    const InboundMessage welcome = awaitReply(socket, floats, seal);
    SS_CHECK(welcome.envelope.has_welcome(), "a Welcome in reply to Register");
    SS_CHECK(welcome.envelope.welcome().spec().parameter_count() == floats, "an mlp-sized model");
    wire::Envelope pull;
    pull.mutable_push()->set_worker_id(welcome.envelope.welcome().worker_id());
    sendMessage(socket, nullptr, pull, nullptr, seal);
    return welcome.envelope.welcome();
}

void noteVersion(WorkerCounters& counters, uint64_t version) {
    uint64_t seen = counters.maxVersion.load();
    while (version > seen && !counters.maxVersion.compare_exchange_weak(seen, version)) {}
}

}  // namespace

void simulatedWorker(zmq::context_t& context, const std::string& address, const EndpointSecurity& security,
                     const SharedFloats& gradient, WorkerCounters& counters) {
    pthread_setname_np(pthread_self(), "sim-worker");
    zmq::socket_t socket = dial(context, address, security);
    std::unique_ptr<LinkSeal> seal = security.makeSeal(false);  // the encrypted data plane: sealed frames
    const wire::Welcome welcome = join(socket, wire::Envelope{}, gradient->size(), seal.get());
    const uint32_t id = welcome.worker_id();
    std::unique_ptr<ShardClient> shards;
    if (!welcome.parameter_shards().empty())
        shards = std::make_unique<ShardClient>(context, welcome.parameter_shards(), security, id, welcome.session_token());
    std::vector<double> roundTrips;
    auto sent = Clock::now();
    for (bool started = false;;) {
        InboundMessage reply = awaitReply(socket, gradient->size(), seal.get());
        SS_CHECK(reply.envelope.has_params(), "only Params replies (simulated workers send no heartbeats)");
        const wire::Params& params = reply.envelope.params();
        if (!params.move_to().empty()) {
            socket = dial(context, params.move_to(), security);
            seal = security.makeSeal(false);
            wire::Envelope again;
            again.mutable_register_()->set_worker_id(id);
            again.mutable_register_()->set_session_token(welcome.session_token());
            SS_CHECK(join(socket, again, gradient->size(), seal.get()).worker_id() == id, "the same session after a move");
            ++counters.moves;
            continue;
        }
        if (params.stop()) break;
        PulledVersions base{params.version(), params.version()};
        if (params.from_shards()) {
            SS_CHECK(shards, "parameter shards in the Welcome of a sharded run");
            auto pulled = shards->pull(
                params.version(), [](const wire::ShardRange&, const float*) {}, std::chrono::seconds(30),
                [] { return true; });
            SS_CHECK(pulled.isOk(), pulled.status().message().c_str());
            base = *pulled;
            counters.parameterBytes += gradient->size() * sizeof(float);
        } else {
            SS_CHECK(reply.tensor && reply.tensor->size() == gradient->size() * sizeof(float), "whole parameters");
            counters.parameterBytes += reply.tensor->size();
        }
        if (started && counters.timing) roundTrips.push_back(std::chrono::duration<double, std::milli>(Clock::now() - sent).count());
        if (!started) ++counters.started;
        started = true;
        noteVersion(counters, base.newest);
        wire::Envelope envelope;
        wire::Push* push = envelope.mutable_push();
        push->set_worker_id(id);
        push->set_has_gradient(true);
        push->set_base_version(base.oldest);
        push->set_batch_size(params.batch_size());
        push->set_loss(1.0f);
        sent = Clock::now();
        if (shards) {
            const uint64_t sequence = counters.gradients.fetch_add(1) + 1;  // unique in this process
            shards->push(gradient->data(), sequence, base.oldest, counters.framesInFlight);  // never waited on
            push->set_sequence(sequence);
            push->set_newest_base_version(base.newest);
            sendMessage(socket, nullptr, envelope, nullptr, seal.get());
            continue;
        }
        zmq::message_t frame = sharedFloatsFrame(gradient);
        sendMessage(socket, nullptr, envelope, &frame, seal.get());
        ++counters.gradients;
    }
    std::lock_guard lock(counters.roundTripsMutex);
    counters.roundTripsMs.insert(counters.roundTripsMs.end(), roundTrips.begin(), roundTrips.end());
}

namespace {

template <typename Relay>
void serveRelay(const char* name, RelayOptions options, std::promise<std::pair<std::string, pid_t>>& started,
                RelayTotals& totals) {
    pthread_setname_np(pthread_self(), name);
    Relay relay(std::move(options));
    if (const Status s = relay.start(); !s) {
        std::fprintf(stderr, "bench_coordinator: a %s did not start: %s\n", name, s.message().c_str());
        std::exit(2);
    }
    started.set_value({relay.endpoint(), gettid()});
    if (const Status s = relay.run(); !s) std::fprintf(stderr, "bench_coordinator: a %s ended early: %s\n", name, s.message().c_str());
    if constexpr (std::is_same_v<Relay, Aggregator>)
        totals.aggregators = relay.stats();
    else
        totals.shards = relay.stats();
}

}  // namespace

RelayThreads::RelayThreads(Kind kind, unsigned count, const std::string& coordinatorData,
                           const std::optional<Credentials>& credentials) {
    for (unsigned k = 0; k < count; ++k) {
        const std::vector<pid_t> before = processThreads();
        auto slot = std::make_unique<Slot>();
        std::promise<std::pair<std::string, pid_t>> started;
        RelayOptions options;
        options.connect = coordinatorData;
        options.credentials = credentials;
        slot->thread = kind == Kind::Aggregator
                           ? std::thread(serveRelay<Aggregator>, "aggregator", std::move(options), std::ref(started),
                                         std::ref(slot->stats))
                           : std::thread(serveRelay<ParameterShard>, "shard", std::move(options), std::ref(started),
                                         std::ref(slot->stats));
        const auto [endpoint, tid] = started.get_future().get();
        m_endpoints.push_back(endpoint);
        m_runThreads.push_back(tid);
        for (pid_t t : threadsStartedBetween(before, processThreads()))
            if (t != tid) {
                prefixThreadName(t, kind == Kind::Aggregator ? "a-" : "s-");
                m_ioThreads.push_back(t);
            }
        m_slots.push_back(std::move(slot));
    }
}

RelayTotals RelayThreads::join() {
    RelayTotals total;
    for (auto& slot : m_slots) {
        if (slot->thread.joinable()) slot->thread.join();
        const AggregatorStats& a = slot->stats.aggregators;
        total.aggregators.relayed += a.relayed;
        total.aggregators.summed += a.summed;
        total.aggregators.sums += a.sums;
        total.aggregators.partialSums += a.partialSums;
        total.aggregators.fanouts += a.fanouts;
        total.aggregators.fannedOut += a.fannedOut;
        const ShardStats& s = slot->stats.shards;
        total.shards.slices += s.slices;
        total.shards.updates = std::max(total.shards.updates, s.updates);  // every shard applies every update
        total.shards.pullsExact += s.pullsExact;
        total.shards.pullsOther += s.pullsOther;
        total.shards.pullsWaited += s.pullsWaited;
        total.shards.mostVersionsKept = std::max(total.shards.mostVersionsKept, s.mostVersionsKept);
    }
    return total;
}

}  // namespace syncscope::bench
