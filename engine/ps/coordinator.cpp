// Coordinator: construction, socket setup, the event loop and the PolicyContext operations.
#include "engine/ps/coordinator.h"

#include <cmath>
#include <cstdio>
#include <random>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/model/idx_reader.h"
#include "engine/model/model_zoo.h"
#include "engine/net/protocol.h"

namespace syncscope::engine {
namespace {

std::string endpoint(const std::string& host, int port) {
    return "tcp://" + host + ":" + (port > 0 ? std::to_string(port) : std::string("*"));
}

}  // namespace

Result<std::unique_ptr<Coordinator>> Coordinator::create(const CoordinatorOptions& options) {
    if (options.expectedWorkers == 0) return invalidArgument("--workers must be at least 1");
    if (options.spec.batch_size() == 0) return invalidArgument("--batch must be at least 1");
    if (!(options.spec.learning_rate() > 0)) return invalidArgument("--lr must be greater than 0");
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
    coordinator->m_policy = std::move(*policy);
    if (!options.recordPath.empty()) {
        auto writer = RecordingWriter::create(options.recordPath, coordinator->header());
        if (!writer) return writer.status();
        coordinator->m_recorder = std::move(*writer);
    }
    return coordinator;
}

Coordinator::Coordinator(const CoordinatorOptions& options, std::vector<float> initial, ImageDataset test,
                         int trainCount)
    : m_options(options),
      m_trainCount(trainCount),
      m_data(m_context, zmq::socket_type::router),
      m_control(m_context, zmq::socket_type::router),
      m_telemetry(m_context, zmq::socket_type::pub),
      m_store(std::move(initial),
              SgdSettings{options.spec.learning_rate(), options.spec.momentum(), options.spec.weight_decay()}),
      m_mode(options.mode),
      m_evaluator(options.spec.model(), std::move(test)) {
    m_options.spec.set_parameter_count(m_store.size());
    m_startTime = m_lastTick = m_lastEvalSubmit = Clock::now();
    m_runId = std::random_device{}() * 0x100000000ULL + std::random_device{}();
    m_startUnixMs = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                              std::chrono::system_clock::now().time_since_epoch())
                                              .count());
}

Coordinator::~Coordinator() = default;

Status Coordinator::bind() {
    const int tensorBytes = static_cast<int>(m_store.size() * sizeof(float));
    for (zmq::socket_t* s : {&m_data, &m_control, &m_telemetry}) s->set(zmq::sockopt::linger, 0);
    // Frames far beyond a tensor are cut off by ZeroMQ itself; smaller excess is refused and counted.
    m_data.set(zmq::sockopt::maxmsgsize, int64_t(tensorBytes) + (64 << 20));
    m_control.set(zmq::sockopt::maxmsgsize, int64_t(kMaxEnvelopeBytes));
    m_data.set(zmq::sockopt::router_mandatory, 0);
    m_telemetry.set(zmq::sockopt::sndhwm, 64);  // a slow subscriber loses ticks; training never waits
    try {
        m_data.bind(endpoint(m_options.bindHost, m_options.dataPort));
        m_control.bind(endpoint(m_options.bindHost, m_options.controlPort));
        m_telemetry.bind(endpoint(m_options.bindHost, m_options.telemetryPort));
    } catch (const zmq::error_t& e) {
        return unavailable(std::string("cannot listen on ") + m_options.bindHost + ": " + e.what() +
                           " (another process on that port? pick others with --data-port/--control-port/"
                           "--telemetry-port, or 0 for any free port)");
    }
    m_endpoints = {m_data.get(zmq::sockopt::last_endpoint), m_control.get(zmq::sockopt::last_endpoint),
                   m_telemetry.get(zmq::sockopt::last_endpoint)};
    return Status::ok();
}

EvaluationResult Coordinator::run() {
    const auto tickPeriod = std::chrono::duration<double>(1.0 / m_options.tickHz);
    for (;;) {
        const auto untilTick = std::chrono::duration_cast<std::chrono::milliseconds>(
            m_lastTick + std::chrono::duration_cast<Clock::duration>(tickPeriod) - Clock::now());
        zmq::pollitem_t items[] = {{m_data.handle(), 0, ZMQ_POLLIN, 0}, {m_control.handle(), 0, ZMQ_POLLIN, 0}};
        pollSockets(items, 2, std::max(std::chrono::milliseconds(0), untilTick));
        pollData();
        pollControl();
        if (m_options.interrupted && m_options.interrupted->load()) beginStop("interrupted by a signal");
        collectEvaluation();
        if (Clock::now() - m_lastTick >= tickPeriod) {
            checkHeartbeats();
            checkStopConditions();
            if (m_state == wire::RUN_RUNNING) m_policy->onTick();
            tick();
        }
        if (m_state == wire::RUN_STOPPED) {
            const auto& all = m_workers.all();
            const bool allGone = std::none_of(all.begin(), all.end(), [](const auto& kv) { return kv.second.active(); });
            if (allGone || Clock::now() >= m_stopDeadline) break;
        }
    }
    const EvaluationResult final = m_evaluator.evaluateNow(m_store.snapshot(), m_store.version());
    m_lastEvaluation = final;
    emitEvent("evaluation", "final test accuracy " + std::to_string(100.0 * final.accuracy).substr(0, 5) + "%");
    tick();
    return final;
}

void Coordinator::applyUpdate(const float* gradient, const std::vector<wire::Contribution>& contributions,
                              float lrScale) {
    const float lr = scheduledLearningRate() * lrScale;
    m_store.apply(gradient, lr);
    wire::Record rec;
    wire::Update* update = rec.mutable_update();
    update->set_time_s(elapsedSeconds());
    update->set_version(m_store.version());
    update->set_mode(m_mode.mode());
    update->set_learning_rate(lr);
    for (const auto& c : contributions) {
        *update->add_contributions() = c;
        if (WorkerRecord* w = m_workers.find(c.worker_id())) {
            ++w->applied;
            w->recordStaleness(c.staleness());
        }
    }
    m_applied += contributions.size();
    ++m_updatesSinceTick;
    record(rec);
}

void Coordinator::dropGradient(uint32_t worker, uint64_t baseVersion, const std::string& reason) {
    if (WorkerRecord* w = m_workers.find(worker)) ++w->dropped;
    ++m_dropped;
    wire::Record rec;
    wire::Drop* drop = rec.mutable_drop();
    drop->set_time_s(elapsedSeconds());
    drop->set_worker_id(worker);
    drop->set_base_version(baseVersion);
    drop->set_version(m_store.version());
    drop->set_reason(reason);
    record(rec);
}

void Coordinator::release(uint32_t id) { releaseAt(id, m_store.snapshot(), m_store.version()); }

bool Coordinator::releaseAt(uint32_t id, SharedFloats parameters, uint64_t version) {
    WorkerRecord* w = m_workers.find(id);
    if (!w || !w->waiting || !w->active() || m_state != wire::RUN_RUNNING) return false;  // paused: reconsider() on resume
    wire::Envelope envelope;
    wire::Params* params = envelope.mutable_params();
    params->set_version(version);
    params->set_batch_size(w->batchSize);
    *params->mutable_slowdown() = w->slowdown;
    params->set_held_ms(std::chrono::duration<double, std::milli>(Clock::now() - w->waitingSince).count());
    zmq::message_t tensor = sharedFloatsFrame(std::move(parameters));
    sendMessage(m_data, &w->identity, envelope, &tensor);
    w->waiting = false;
    w->state = wire::WORKER_COMPUTING;
    wire::Record rec;
    wire::Release* r = rec.mutable_release();
    r->set_time_s(elapsedSeconds());
    r->set_worker_id(id);
    r->set_version(version);
    r->set_clock(w->clock);
    r->set_min_clock(m_workers.minParticipantClock());
    r->set_held_ms(params->held_ms());  // with compute_ms: a trace export's wait and compute spans
    r->set_compute_ms(w->computeMs);
    record(rec);
    return true;
}

float Coordinator::scheduledLearningRate() const {
    const float base = m_store.sgd().learningRate;
    if (!m_options.cosineSchedule || m_options.maxEpochs <= 0) return base;
    const double done = std::min(1.0, m_samplesTotal / (m_options.maxEpochs * m_trainCount));
    return static_cast<float>(0.5 * base * (1.0 + std::cos(M_PI * done)));
}

double Coordinator::elapsedSeconds() const {
    return std::chrono::duration<double>(Clock::now() - m_startTime).count();
}

}  // namespace syncscope::engine
