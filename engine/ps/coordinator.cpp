// Coordinator: construction, the loop, and what policies may do (PolicyContext).
#include "engine/ps/coordinator.h"

#include <fmt/format.h>

#include <cstdio>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/model/idx_reader.h"
#include "engine/model/model_zoo.h"
#include "engine/net/protocol.h"
#include "engine/ps/mode_catalog.h"

namespace syncscope::engine {
namespace {

const Credentials* credentialsOf(const CoordinatorState& state) {
    return state.options.credentials ? &*state.options.credentials : nullptr;
}

EndpointOptions dataOptions(const CoordinatorState& state) {
    return {"workers (data)", {kMaxEnvelopeBytes, state.store.size() * sizeof(float)}, 1000,
            EndpointSecurity::server(credentialsOf(state), kDataDomain, state.options.plainDataPlane)};
}

EndpointOptions controlOptions(const CoordinatorState& state) {
    // A console that stops reading its replies loses them rather than growing our queue.
    return {"consoles (control)", {kMaxControlBytes, 0}, 64, EndpointSecurity::server(credentialsOf(state), kControlDomain)};
}

EndpointOptions telemetryOptions(const CoordinatorState& state) {
    // A slow subscriber loses ticks; training never waits for it.
    return {"telemetry", {0, 0}, 64, EndpointSecurity::server(credentialsOf(state), kTelemetryDomain)};
}

}  // namespace

Result<std::unique_ptr<Coordinator>> Coordinator::create(const CoordinatorOptions& options) {
    if (options.expectedWorkers == 0) return invalidArgument("a run needs at least 1 worker, not 0");
    if (options.spec.batch_size() == 0) return invalidArgument("the batch size must be at least 1, not 0");
    if (!(options.spec.learning_rate() > 0))
        return invalidArgument(fmt::format("the learning rate must be greater than 0, not {}", options.spec.learning_rate()));
    if (Status s = validateModeSettings(options.mode); !s) return s;
    if (!options.credentials && !isLoopbackHost(options.bindHost))
        return invalidArgument("without authentication a coordinator listens on loopback only, not on " +
                               options.bindHost + "; give it credentials to listen on other addresses");
    CpuBackend backend(1);
    auto model = createModel(backend, options.spec.model(), 1, options.spec.seed());
    if (!model) return model.status();
    auto test = loadFashionMnistSplit(options.spec.data_dir(), "t10k");
    if (!test) return test.status();
    auto trainLabels = readIdxLabels(options.spec.data_dir() + "/train-labels-idx1-ubyte.gz");
    if (!trainLabels) return trainLabels.status();
    auto coordinator = std::unique_ptr<Coordinator>(new Coordinator(
        options, model.value()->downloadParameters(), std::move(*test), static_cast<int>(trainLabels->size())));
    auto policy = createSyncPolicy(options.mode, *coordinator);
    if (!policy) return policy.status();
    coordinator->m_state.policy = std::move(*policy);
    if (Status s = coordinator->m_recorder.open(options.recordPath, coordinator->m_state.header()); !s) return s;
    return coordinator;
}

Coordinator::Coordinator(const CoordinatorOptions& options, std::vector<float> initial, ImageDataset test,
                         int trainCount)
    : m_state(options, std::move(initial), trainCount),
      m_zap(options.credentials ? std::make_unique<ZapAuthenticator>(m_context, *options.credentials) : nullptr),
      m_data(m_context, dataOptions(m_state)),
      m_control(m_context, controlOptions(m_state)),
      m_telemetryEndpoint(m_context, telemetryOptions(m_state)),
      m_dataPlane(m_state, m_data, m_events, *this, [this] { m_controlHandler.startTraining(); }),
      m_controlHandler(m_state, m_control, m_events, m_dataPlane, m_telemetry, *this),
      m_evaluator(options.spec.model(), std::move(test)),
      m_lastEvalSubmit(Clock::now()) {}

Coordinator::~Coordinator() = default;

Status Coordinator::bind() {
    const CoordinatorOptions& o = m_state.options;
    if (Status s = m_data.bind(o.bindHost, o.dataPort); !s) return s;
    if (Status s = m_control.bind(o.bindHost, o.controlPort); !s) return s;
    if (Status s = m_telemetryEndpoint.bind(o.bindHost, o.telemetryPort); !s) return s;
    if (!o.credentials)
        std::fprintf(stderr, "WARNING: authentication is off (--insecure): any local user can steer this run, "
                             "join it as a worker, or read its telemetry\n");
    m_endpoints = {m_data.address(), m_control.address(), m_telemetryEndpoint.address()};
    return Status::ok();
}

EvaluationResult Coordinator::run() {
    for (;;) {
        const auto untilTick = std::chrono::duration_cast<std::chrono::milliseconds>(m_telemetry.untilDue());
        zmq::pollitem_t items[] = {{m_data.socket().handle(), 0, ZMQ_POLLIN, 0},
                                   {m_control.socket().handle(), 0, ZMQ_POLLIN, 0}};
        pollSockets(items, 2, std::max(std::chrono::milliseconds(0), untilTick));
        m_dataPlane.poll();
        m_controlHandler.poll();
        if (m_state.options.interrupted && m_state.options.interrupted->load())
            m_controlHandler.beginStop("interrupted by a signal");
        collectEvaluation();
        if (m_telemetry.due()) onTick();
        if (finished()) break;
    }
    const EvaluationResult final = m_evaluator.evaluateNow(m_state.store.snapshot(), m_state.store.version());
    m_state.lastEvaluation = final;
    m_events.raise(wire::EVENT_EVALUATION, fmt::format("final test accuracy {:.2f}%", 100.0 * final.accuracy));
    m_telemetry.tick(refusedSoFar());
    return final;
}

void Coordinator::onTick() {
    m_dataPlane.checkHeartbeats();
    if (const std::string reason = m_state.stopReason(); !reason.empty()) m_controlHandler.beginStop(reason);
    if (m_state.state == wire::RUN_RUNNING) m_state.policy->onTick();
    if (auto failure = m_recorder.takeFailure()) m_events.raise(wire::EVENT_ERROR, *failure);
    m_telemetry.tick(refusedSoFar());
}

uint64_t Coordinator::refusedSoFar() const {
    return m_data.refused() + m_control.refused() + (m_zap ? m_zap->refused() : 0);
}

bool Coordinator::finished() const {
    if (m_state.state != wire::RUN_STOPPED) return false;
    const auto& all = m_state.workers.all();
    const bool allGone = std::none_of(all.begin(), all.end(), [](const auto& kv) { return kv.second.active(); });
    return allGone || Clock::now() >= m_controlHandler.stopDeadline();
}

void Coordinator::collectEvaluation() {
    if (auto result = m_evaluator.takeResult()) m_state.lastEvaluation = result;
    const auto interval = std::chrono::duration<double>(m_state.options.evalIntervalSeconds);
    if (m_state.state == wire::RUN_RUNNING && Clock::now() - m_lastEvalSubmit >= interval &&
        m_evaluator.submit(m_state.store.snapshot(), m_state.store.version()))
        m_lastEvalSubmit = Clock::now();
}

void Coordinator::applyUpdate(const float* gradient, const std::vector<wire::Contribution>& contributions,
                              float lrScale) {
    const float lr = m_state.scheduledLearningRate() * lrScale;
    m_state.store.apply(gradient, lr);
    wire::Record record;
    wire::Update* update = record.mutable_update();
    update->set_time_s(m_state.elapsedSeconds());
    update->set_version(m_state.store.version());
    update->set_mode(m_state.mode.mode());
    update->set_learning_rate(lr);
    for (const auto& c : contributions) {
        *update->add_contributions() = c;
        if (WorkerRecord* w = m_state.workers.find(c.worker_id())) {
            ++w->applied;
            w->recordStaleness(c.staleness());
        }
    }
    m_state.totals.applied += contributions.size();
    m_telemetry.noteUpdate();
    m_recorder.record(record);
}

void Coordinator::dropGradient(uint32_t worker, uint64_t baseVersion, const std::string& reason) {
    if (WorkerRecord* w = m_state.workers.find(worker)) ++w->dropped;
    ++m_state.totals.dropped;
    wire::Record record;
    wire::Drop* drop = record.mutable_drop();
    drop->set_time_s(m_state.elapsedSeconds());
    drop->set_worker_id(worker);
    drop->set_base_version(baseVersion);
    drop->set_version(m_state.store.version());
    drop->set_reason(reason);
    m_recorder.record(record);
}

void Coordinator::release(uint32_t id) { releaseAt(id, m_state.store.snapshot(), m_state.store.version()); }

bool Coordinator::releaseAt(uint32_t id, SharedFloats parameters, uint64_t version) {
    WorkerRecord* w = m_state.workers.find(id);
    if (!w) return false;
    const double heldMs = std::chrono::duration<double, std::milli>(Clock::now() - w->waitingSince).count();
    if (!m_dataPlane.sendParameters(*w, std::move(parameters), version)) return false;
    wire::Record record;
    wire::Release* r = record.mutable_release();
    r->set_time_s(m_state.elapsedSeconds());
    r->set_worker_id(id);
    r->set_version(version);
    r->set_clock(w->clock);
    r->set_min_clock(m_state.workers.minParticipantClock());
    r->set_held_ms(heldMs);  // with compute_ms: a trace export's wait and compute spans
    r->set_compute_ms(w->computeMs);
    m_recorder.record(record);
    return true;
}

void Coordinator::announce(wire::EventKind kind, const std::string& detail, const wire::AutoDecision* decision) {
    m_events.raise(kind, detail, 0, decision);
}

}  // namespace syncscope::engine
