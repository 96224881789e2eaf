// Worker: registration, the pull -> compute -> push loop, straggler injection and timing.
#include "engine/worker/worker.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <numeric>
#include <random>
#include <thread>
#include <utility>
#include <zmq.hpp>

#include <fmt/format.h>

#include "engine/core/cpu_limit.h"
#include "engine/core/rng.h"
#include "engine/model/batch_feeder.h"
#include "engine/model/model_zoo.h"
#include "engine/net/protocol.h"
#include "engine/net/tensor_frame.h"
#include "engine/net/wire_codec.h"
#include "engine/plan/mode_catalog.h"
#include "engine/worker/heartbeat_sender.h"
#include "engine/worker/shard_client.h"

namespace syncscope::engine {
namespace {

using Clock = std::chrono::steady_clock;
/// How long both sides may wait for each other before a worker counts a message as lost.
constexpr auto kLostMessageAfter = std::chrono::seconds(3);
using Millis = std::chrono::duration<double, std::milli>;
constexpr uint32_t kMaxBatchSize = 1 << 16;      // far beyond any batch a worker can hold
/// How long a worker tries to register with the aggregator it was moved to before it goes back.
constexpr double kMoveTimeoutSeconds = 5;
/// How long a pull from the parameter shards may take before the worker gives up on them.
constexpr auto kShardPullTimeout = std::chrono::seconds(30);
/// Why a session ends when the coordinator replaced a lost parameter shard (the worker rejoins).
constexpr const char* kShardReplaced = "a parameter shard of the run was replaced; registering again for the new ranges";

void sleepMs(double ms) {
    if (ms > 0) std::this_thread::sleep_for(Millis(ms));
}

// A coordinator is a peer like any other: what it sends is checked before the worker relies on it
// (a shard count of 0 would divide by zero; a delay of 1e12 ms would sleep for decades).
Status validateWelcome(const wire::Welcome& welcome) {
    const wire::RunSpec& s = welcome.spec();
    const auto bad = [](const std::string& what) {
        return invalidArgument("the coordinator sent a run spec with " + what +
                               "; is it a SyncScope coordinator of this release?");
    };
    if (s.shard_count() == 0 || welcome.shard_index() >= s.shard_count())
        return bad(fmt::format("shard {} of {}", welcome.shard_index(), s.shard_count()));
    if (s.batch_size() == 0 || s.batch_size() > kMaxBatchSize) return bad(fmt::format("batch size {}", s.batch_size()));
    if (s.parameter_count() == 0 || s.parameter_count() > kMaxParameters)
        return bad(fmt::format("{} parameters", s.parameter_count()));
    if (s.model().size() > 64 || s.data_dir().size() > 4096) return bad("an over-long model name or data folder");
    return Status::ok();
}

Status validateParams(const wire::Params& params) {
    if (Status s = validateSlowdown(params.slowdown()); !s)
        return invalidArgument("the coordinator sent a nonsensical slowdown: " + s.message());
    if (params.batch_size() > kMaxBatchSize)
        return invalidArgument(fmt::format("the coordinator asked for a batch of {}", params.batch_size()));
    return Status::ok();
}

class WorkerSession {
public:
    /// `coordinatorLost`: set when the session ended because the coordinator went away (or
    /// restarted); `messageLost`: because a message between them was lost, or the coordinator asked it
    /// to register again (a parameter shard replaced): it rejoins either way.
    WorkerSession(const WorkerOptions& options, std::string routingId, bool* coordinatorLost, bool* messageLost)
        : m_options(options), m_routingId(std::move(routingId)), m_lost(coordinatorLost), m_messageLost(messageLost) {}
    /// The sockets close first (linger 0: frames still queued are dropped unread), so no frame over
    /// the model's gradient buffer is read after the model is gone.
    ~WorkerSession() {
        m_shards.reset();
        m_socket.close();
    }
    WorkerSession(const WorkerSession&) = delete;
    WorkerSession& operator=(const WorkerSession&) = delete;
    Status run();
    /// Whether the session ended because the run is over though its stop never came (it went down
    /// with a dropped connection): the coordinator said so another way. The worker ends cleanly.
    bool runOver() const { return m_runOver; }

private:
    /// Ends the session as the run's end was heard `how`; `version`: the model's last, if known.
    Status endRun(const std::string& how, std::optional<uint64_t> version);
    Result<InboundMessage> awaitReply(double timeoutSeconds, const HeartbeatSender* heartbeat);
    Status setUp(const wire::Welcome& welcome);
    /// Loads the parameters the coordinator sent, or pulls them from the parameter shards; returns
    /// the versions they are of.
    Result<PulledVersions> loadParameters(const wire::Params& params, const InboundMessage& reply,
                                          const HeartbeatSender& heartbeat);
    double computeGradient(const wire::Params& params, float* loss);
    void push(const PulledVersions& base, float loss, double computeMs);
    void openSocket(const std::string& endpoint);
    /// Registers as `hello` says on the data socket and waits for the Welcome.
    Result<InboundMessage> registerWith(wire::Envelope& hello, double timeoutSeconds);
    /// Registers again, keeping its id and session, at `endpoint`; `unreachable`: the aggregator
    /// it could not reach (the coordinator stops sending workers there).
    Status reregisterAt(const std::string& endpoint, const std::string& unreachable, double timeoutSeconds);
    /// Its group's aggregator is elsewhere now: the data socket goes there, and the worker pulls.
    Status moveTo(const std::string& endpoint);

    EndpointSecurity security() const {
        return EndpointSecurity::client(m_options.credentials ? &*m_options.credentials : nullptr, Role::Worker,
                                        dataPlaneProtection(m_options.plainDataPlane));
    }

    const WorkerOptions& m_options;
    std::string m_routingId;  ///< chosen once per process: a reconnect is the same worker
    bool* m_lost;
    bool* m_messageLost;
    bool m_runOver = false;
    /// Frames over the gradient buffer ZeroMQ still reads. Declared before the context, so it outlives
    /// the context's end, which lets go of the last of them.
    std::atomic<int> m_gradientInFlight{0};
    zmq::context_t m_context{1};
    zmq::socket_t m_socket{m_context, zmq::socket_type::dealer};
    std::unique_ptr<LinkSeal> m_seal;  ///< the data socket's sealed link (the encrypted data plane), else empty
    uint32_t m_id = 0;
    uint64_t m_sessionToken = 0;
    wire::RunSpec m_spec;
    std::unique_ptr<Backend> m_backend;
    ImageDataset m_train;
    std::vector<int32_t> m_shard;
    size_t m_cursor = 0;
    std::unique_ptr<Model> m_model;
    std::unique_ptr<BatchFeeder> m_feeder;
    std::unique_ptr<Rng> m_rng;
    std::vector<float> m_hostParams, m_hostGradient;
    std::unique_ptr<ShardClient> m_shards;   ///< a sharded run's: where the model lives
    uint64_t m_sequence = 0;                 ///< of its last gradient pushed (sharded runs)
    uint32_t m_batch = 0;
    double m_commMs = 0, m_waitMs = 0;
    Clock::time_point m_pushedAt;
    double m_cpuMsAtPush = -1;  ///< the process's CPU time at its previous push (-1: none yet)
    CpuLimitWatch m_cpuLimit;
};

Result<InboundMessage> WorkerSession::awaitReply(double timeoutSeconds, const HeartbeatSender* heartbeat) {
    const ReceiveLimits limits{kMaxEnvelopeBytes, size_t(std::max<uint64_t>(m_spec.parameter_count(), 1)) * 4};
    const auto timeout = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeoutSeconds));
    auto deadline = Clock::now() + timeout;
    bool toldWaiting = false;
    for (;;) {
        zmq::pollitem_t item{m_socket.handle(), 0, ZMQ_POLLIN, 0};
        pollSockets(&item, 1, std::chrono::milliseconds(100));
        if (auto message = receiveMessage(m_socket, false, limits, nullptr, m_seal.get())) {
            if (!*message && message->status().code() == StatusCode::DataLoss) {  // did not open: dropped
                std::fprintf(stderr, "worker: a message from the coordinator was %s\n", message->status().message().c_str());
                continue;
            }
            if (!*message) return message->status();
            // Registering, a HeartbeatAck is the coordinator's word that it lives and holds this
            // registration until its parameter shards are all there: the timeout counts silence.
            if (!heartbeat && message->value().envelope.has_heartbeat_ack()) {
                deadline = Clock::now() + timeout;
                if (!std::exchange(toldWaiting, true))
                    std::fprintf(stderr, "worker: the coordinator takes this worker once its parameter shards are all "
                                         "there; waiting\n");
                continue;
            }
            if (message->value().envelope.has_error()) {
                const wire::Error& error = message->value().envelope.error();
                // A coordinator that restarted (resumed from a checkpoint) does not know this
                // session: that is a lost coordinator, which a retrying worker rejoins.
                if (error.code() == wire::Error::RUN_OVER) return endRun("it registered again after the end", {});
                if (error.code() == wire::Error::NOT_REGISTERED) *m_lost = true;
                if (error.code() == wire::Error::LAYOUT_CHANGED) {  // a lost shard replaced: always rejoin
                    *m_messageLost = true;
                    return unavailable("the coordinator asks this worker to register again: " + error.message());
                }
                return unavailable("the coordinator refused this worker: " + error.message());
            }
            return std::move(*message);
        }
        if (heartbeat && heartbeat->runOver())
            return endRun("its stop was lost; the heartbeat acknowledgements said so", heartbeat->finalVersion());
        // The coordinator waits for this worker while this worker waits for it: the push or its
        // answer went down with a dropped connection. Registering again starts both afresh.
        if (heartbeat && Clock::now() - m_pushedAt > kLostMessageAfter &&
            heartbeat->coordinatorAwaitingFor(kLostMessageAfter)) {
            *m_messageLost = true;
            return unavailable(fmt::format("a message between this worker and the coordinator was lost (no answer "
                                           "for {:g} s while the coordinator waited for this worker); registering again",
                                           std::chrono::duration<double>(kLostMessageAfter).count()));
        }
        if (heartbeat && heartbeat->rejoinAsked()) {
            *m_messageLost = true;
            return unavailable(kShardReplaced);
        }
        if (heartbeat && heartbeat->coordinatorLost()) {
            *m_lost = true;
            return unavailable(fmt::format("the coordinator at {} stopped answering (no heartbeat reply for {:g} s); "
                                           "exiting (a worker that retries waits for it and rejoins)",
                                           m_options.connect, m_options.coordinatorTimeoutSeconds));
        }
        if (!heartbeat && Clock::now() > deadline) {
            *m_lost = true;
            return unavailable("no coordinator answered at " + m_options.connect + " within " +
                               fmt::format("{:g}", timeoutSeconds) +
                               " s; is a coordinator (`syncscope-engine serve`) running at that address, and are "
                               "these the worker credentials it made?");
        }
    }
}

Status WorkerSession::endRun(const std::string& how, std::optional<uint64_t> version) {
    m_runOver = true;
    const std::string who = m_id || m_sessionToken ? fmt::format("worker {}", m_id) : std::string("worker");
    if (version)
        std::fprintf(stderr, "%s: the run is over (model version %llu; %s)\n", who.c_str(),
                     static_cast<unsigned long long>(*version), how.c_str());
    else
        std::fprintf(stderr, "%s: the run is over (%s)\n", who.c_str(), how.c_str());
    return unavailable("the run is over");
}

Status WorkerSession::setUp(const wire::Welcome& welcome) {
    if (Status s = validateWelcome(welcome); !s) return s;
    m_id = welcome.worker_id();
    m_spec = welcome.spec();
    std::string notice;
    auto backend = createBackend(m_options.backend, m_options.threads, &notice);
    if (!backend) return backend.status();
    m_backend = std::move(*backend);
    auto train = loadFashionMnistSplit(m_options.dataDir.empty() ? m_spec.data_dir() : m_options.dataDir, "train");
    if (!train) return train.status();
    m_train = std::move(*train);
    for (int i = 0; i < m_train.count; ++i)
        if (static_cast<uint32_t>(i) % m_spec.shard_count() == welcome.shard_index()) m_shard.push_back(i);
    m_rng = std::make_unique<Rng>(m_spec.seed() * 7919 + m_id);
    m_rng->shuffle(m_shard);
    m_batch = m_spec.batch_size();
    // Buffers for the largest batch the elastic mode may ask for; other modes use the run's batch.
    const int capacity = static_cast<int>(m_batch * kElasticBatchRange);
    auto model = createModel(*m_backend, m_spec.model(), capacity, m_spec.seed());
    if (!model) return model.status();
    m_model = std::move(*model);
    if (m_model->parameterCount() != m_spec.parameter_count())
        return invalidArgument("this worker's model has " + std::to_string(m_model->parameterCount()) +
                               " parameters but the run's has " + std::to_string(m_spec.parameter_count()) +
                               "; run the same SyncScope release everywhere");
    m_feeder = std::make_unique<BatchFeeder>(*m_backend, m_train, capacity);
    if (!welcome.parameter_shards().empty()) {
        if (Status s = ShardClient::validate(welcome.parameter_shards(), m_spec.parameter_count()); !s) return s;
        m_shards = std::make_unique<ShardClient>(m_context, welcome.parameter_shards(), security(), m_id,
                                                 welcome.session_token());
    }
    std::fprintf(stderr, "worker %u: %s backend%s, shard %u of %u (%zu images), model %s\n", m_id,
                 m_backend->name().c_str(), notice.empty() ? "" : " (no GPU)", welcome.shard_index(),
                 m_spec.shard_count(), m_shard.size(), m_spec.model().c_str());
    return Status::ok();
}

Result<PulledVersions> WorkerSession::loadParameters(const wire::Params& params, const InboundMessage& reply,
                                                    const HeartbeatSender& heartbeat) {
    while (m_gradientInFlight.load(std::memory_order_acquire) > 0) std::this_thread::yield();
    if (!params.from_shards()) {
        if (!reply.tensor || reply.tensor->size() != m_model->parameterCount() * sizeof(float))
            return invalidArgument("the coordinator sent parameters of the wrong size");
        m_backend->copyToDevice(m_model->parameters(), reply.tensor->data(), reply.tensor->size());
        return PulledVersions{params.version(), params.version()};
    }
    if (!m_shards) return invalidArgument("the coordinator sent no parameter shards to pull from");
    float* device = m_model->parameters();
    return m_shards->pull(
        params.version(),
        [&](const wire::ShardRange& range, const float* values) {
            m_backend->copyToDevice(device + range.begin(), values, (range.end() - range.begin()) * sizeof(float));
        },
        kShardPullTimeout, [&heartbeat] { return !heartbeat.coordinatorLost() && !heartbeat.rejoinAsked(); });
}

double WorkerSession::computeGradient(const wire::Params& params, float* loss) {
    const auto start = Clock::now();
    if (params.batch_size() > 0)  // the coordinator sizes batches in the elastic mode
        m_batch = std::min<uint32_t>(params.batch_size(), static_cast<uint32_t>(m_model->maxBatch()));
    const int n = static_cast<int>(std::min<size_t>(m_batch, m_shard.size()));
    if (m_cursor + n > m_shard.size()) {  // next pass over the shard, in a new order
        m_rng->shuffle(m_shard);
        m_cursor = 0;
    }
    m_feeder->stage(m_shard, m_cursor, n);
    m_cursor += n;
    *loss = m_model->computeGradients(m_feeder->images(), m_feeder->labels(), n);
    m_backend->synchronize();
    const double computeMs = Millis(Clock::now() - start).count();
    // Injected straggling: a slower machine, a fixed delay, an occasional hiccup.
    const wire::Slowdown& s = params.slowdown();
    double extra = (std::max(1.0, s.factor()) - 1.0) * computeMs + s.fixed_delay_ms();
    if (s.transient_probability() > 0 && m_rng->uniform() < s.transient_probability())
        extra += (std::max(1.0, s.transient_factor()) - 1.0) * computeMs;
    sleepMs(extra);
    return computeMs + extra;
}

void WorkerSession::push(const PulledVersions& base, float loss, double computeMs) {
    wire::Envelope envelope;
    wire::Push* p = envelope.mutable_push();
    p->set_worker_id(m_id);
    p->set_has_gradient(true);
    p->set_base_version(base.oldest);
    p->set_batch_size(static_cast<uint32_t>(std::min<size_t>(m_batch, m_shard.size())));
    p->set_loss(loss);
    p->set_compute_ms(computeMs);
    p->set_comm_ms(m_commMs);
    p->set_wait_ms(m_waitMs);
    const double cpuMs = processCpuMs();
    if (m_cpuMsAtPush >= 0) p->set_cpu_ms(cpuMs - m_cpuMsAtPush);
    m_cpuMsAtPush = cpuMs;
    p->set_cpu_limit(m_cpuLimit.cores());
    const float* gradient = m_model->gradients();
    if (!m_backend->sharesHostMemory()) {  // device memory: stage on the host first
        m_hostGradient.resize(m_model->parameterCount());
        m_backend->copyToHost(m_hostGradient.data(), gradient, m_hostGradient.size() * sizeof(float));
        gradient = m_hostGradient.data();
    }
    m_pushedAt = Clock::now();
    if (m_shards) {  // the ranges to the shards first; the coordinator waits for their word anyway
        m_shards->push(gradient, ++m_sequence, base.oldest, m_gradientInFlight);
        p->set_sequence(m_sequence);
        p->set_newest_base_version(base.newest);
        sendMessage(m_socket, nullptr, envelope, nullptr, m_seal.get());
        return;
    }
    zmq::message_t frame = borrowedFloatsFrame(gradient, m_model->parameterCount(), m_gradientInFlight);
    sendMessage(m_socket, nullptr, envelope, &frame, m_seal.get());
}

void WorkerSession::openSocket(const std::string& endpoint) {
    m_socket = zmq::socket_t(m_context, zmq::socket_type::dealer);
    m_socket.set(zmq::sockopt::linger, 0);
    m_socket.set(zmq::sockopt::routing_id, m_routingId);
    applySecurity(m_socket, security(), false);
    m_seal = security().makeSeal(false);
    m_socket.connect(endpoint);
}

Result<InboundMessage> WorkerSession::registerWith(wire::Envelope& hello, double timeoutSeconds) {
    hello.mutable_register_()->set_pid(static_cast<uint32_t>(getpid()));
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    hello.mutable_register_()->set_hostname(host);
    hello.mutable_register_()->set_backend(m_options.backend == BackendKind::Cpu ? "cpu" : "auto");
    hello.mutable_register_()->set_movable(true);
    hello.mutable_register_()->set_parameter_shards(true);
    sendMessage(m_socket, nullptr, hello, nullptr, m_seal.get());
    auto welcome = awaitReply(timeoutSeconds, nullptr);
    if (!welcome) return welcome.status();
    if (!welcome->envelope.has_welcome()) return unavailable("the coordinator answered registration with no welcome");
    return welcome;
}

Status WorkerSession::reregisterAt(const std::string& endpoint, const std::string& unreachable, double timeoutSeconds) {
    openSocket(endpoint);
    wire::Envelope hello;
    hello.mutable_register_()->set_worker_id(m_id);
    hello.mutable_register_()->set_session_token(m_sessionToken);
    hello.mutable_register_()->set_unreachable(unreachable);
    auto welcome = registerWith(hello, timeoutSeconds);
    if (!welcome) return welcome.status();
    if (welcome->envelope.welcome().worker_id() != m_id)
        return unavailable("the coordinator answered a move with another worker's session");
    wire::Envelope pull;
    pull.mutable_push()->set_worker_id(m_id);
    m_pushedAt = Clock::now();
    sendMessage(m_socket, nullptr, pull, nullptr, m_seal.get());
    return Status::ok();
}

Status WorkerSession::moveTo(const std::string& endpoint) {
    const Status moved = reregisterAt(endpoint, {}, kMoveTimeoutSeconds);
    if (moved) return moved;
    // The aggregator does not answer there (gone, or an address this node cannot reach): back to
    // where this worker started, saying so.
    *m_lost = false;
    std::fprintf(stderr, "worker %u: could not move to the aggregator at %s (%s); registering again at %s\n", m_id,
                 endpoint.c_str(), moved.message().c_str(), m_options.connect.c_str());
    return reregisterAt(m_options.connect, endpoint, m_options.registerTimeoutSeconds);
}

Status WorkerSession::run() {
    openSocket(m_options.connect);
    wire::Envelope hello;
    auto welcome = registerWith(hello, m_options.registerTimeoutSeconds);
    if (!welcome) return welcome.status();
    // Heartbeats start before the data loads, so a slow start never looks like a dead worker.
    const wire::Welcome& w = welcome->envelope.welcome();
    m_sessionToken = w.session_token();
    HeartbeatSender heartbeat(m_context, m_options.connect, security(), m_routingId + "/heartbeat", w.worker_id(),
                              w.session_token(),
                              std::chrono::milliseconds(static_cast<int>(m_options.coordinatorTimeoutSeconds * 1000)));
    if (Status s = setUp(welcome->envelope.welcome()); !s) return s;
    wire::Envelope pull;
    pull.mutable_push()->set_worker_id(m_id);
    m_pushedAt = Clock::now();
    sendMessage(m_socket, nullptr, pull, nullptr, m_seal.get());
    for (;;) {
        auto reply = awaitReply(0, &heartbeat);
        if (!reply) return reply.status();
        if (!reply->envelope.has_params()) continue;  // a late heartbeat ack or the like
        const wire::Params& params = reply->envelope.params();
        if (!params.move_to().empty()) {
            if (Status s = moveTo(params.move_to()); !s) return s;
            continue;
        }
        if (params.stop()) {
            std::fprintf(stderr, "worker %u: the run is over (model version %llu)\n", m_id,
                         static_cast<unsigned long long>(params.version()));
            heartbeat.leave();
            return Status::ok();
        }
        if (Status s = validateParams(params); !s) return s;
        auto base = loadParameters(params, *reply, heartbeat);
        if (!base && heartbeat.rejoinAsked()) {  // a shard it pulled from was lost and replaced
            *m_messageLost = true;
            return unavailable(kShardReplaced);
        }
        if (!base) return base.status();
        const double roundTripMs = Millis(Clock::now() - m_pushedAt).count();
        m_waitMs = params.held_ms();
        m_commMs = std::max(0.0, roundTripMs - m_waitMs);
        float loss = 0;
        const double computeMs = computeGradient(params, &loss);
        sleepMs(params.slowdown().network_delay_ms());
        push(*base, loss, computeMs);
    }
}

}  // namespace

Status runWorker(const WorkerOptions& options) {
    std::random_device random;
    const std::string routingId = fmt::format("worker-{}-{:08x}{:08x}", getpid(), random(), random());
    for (;;) {
        bool lost = false, messageLost = false;
        WorkerSession session(options, routingId, &lost, &messageLost);
        Status status = session.run();
        if (session.runOver()) return Status::ok();
        if (status || !(messageLost || (lost && options.retry))) return status;
        std::fprintf(stderr, "worker: %s; retrying in 1 s\n", status.message().c_str());
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
}

}  // namespace syncscope::engine
