// Coordinator: construction, the loop, and what policies may do (PolicyContext).
#include "engine/coordinator/coordinator.h"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdio>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/model/idx_reader.h"
#include "engine/model/model_zoo.h"
#include "engine/net/protocol.h"
#include "engine/plan/mode_catalog.h"
#include "engine/policy/mode_predictions.h"
#include "engine/policy/policy_factory.h"
#include "engine/coordinator/sharded_model_store.h"
#include "engine/telemetry/recording_reader.h"

namespace syncscope::engine {
namespace {

/// How long a stopped run of an external model waits for its evaluator's final figure.
constexpr double kFinalEvaluationWaitSeconds = 120;
/// After the end, how long the data plane stays up for workers whose stop was lost (a dropped
/// connection: ZeroMQ reconnects within a second and their next heartbeat hears the run is over)...
constexpr double kEndNoticeSeconds = 3;
/// ...and how long a worker that was sent its stop must be silent to count as gone.
constexpr double kSilentAfterStopSeconds = 1;

const Credentials* credentialsOf(const CoordinatorState& state) {
    return state.options.credentials ? &*state.options.credentials : nullptr;
}

EndpointOptions dataOptions(const CoordinatorState& state) {
    // A parameter shard answers a checkpoint's pull with its range's parameters and momentum.
    const size_t floats = state.store.size() * (state.options.plan.layout().shards() ? 2 : 1);
    return {"workers (data)", {kMaxEnvelopeBytes, floats * sizeof(float)}, 1000,
            EndpointSecurity::server(credentialsOf(state), kDataDomain, dataPlaneProtection(state.options.plainDataPlane))};
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
    if (options.plan.layout().workers() == 0) return invalidArgument("a run needs at least 1 worker, not 0");
    if (options.plan.spec().batch_size() == 0) return invalidArgument("the batch size must be at least 1, not 0");
    if (!(options.plan.spec().learning_rate() > 0))
        return invalidArgument(fmt::format("the learning rate must be greater than 0, not {}", options.plan.spec().learning_rate()));
    if (Status s = validateModeSettings(options.plan.mode()); !s) return s;
    if (!options.credentials && !isLoopbackHost(options.bindHost))
        return invalidArgument("without authentication a coordinator listens on loopback only, not on " +
                               options.bindHost + "; give it credentials to listen on other addresses");
    if (options.plan.spec().model() == kExternalModel) {
        // Its workers bring the model (the first one its initial values) and an evaluator tests it.
        if (options.plan.external_parameters() == 0 || options.plan.external_parameters() > kMaxParameters)
            return invalidArgument(fmt::format("an external model needs a parameter count in 1..{}, not {}",
                                               kMaxParameters, options.plan.external_parameters()));
        auto coordinator = std::unique_ptr<Coordinator>(new Coordinator(
            options, std::vector<float>(options.plan.external_parameters(), 0.0f), ImageDataset{}, 0));
        if (Status s = coordinator->start(); !s) return s;
        return coordinator;
    }
    CpuBackend backend(1);
    auto model = createModel(backend, options.plan.spec().model(), 1, options.plan.spec().seed());
    if (!model) return model.status();
    auto test = loadFashionMnistSplit(options.plan.spec().data_dir(), "t10k");
    if (!test) return test.status();
    auto trainLabels = readIdxLabels(options.plan.spec().data_dir() + "/train-labels-idx1-ubyte.gz");
    if (!trainLabels) return trainLabels.status();
    auto coordinator = std::unique_ptr<Coordinator>(
        new Coordinator(options, model.value()->downloadParameters(), std::move(*test), trainLabels->size()));
    if (Status s = coordinator->start(); !s) return s;
    return coordinator;
}

Status Coordinator::start() {
    if (Status s = m_checkpoints.open(); !s) return s;
    m_shards.setReplaceable(m_checkpoints.enabled());
    std::string resumedFrom;
    if (m_state.options.plan.checkpoints().resume())
        if (Status s = m_checkpoints.resume(&resumedFrom); !s) return s;
    auto policy = createSyncPolicy(m_state.mode, *this);
    if (!policy) return policy.status();
    m_state.policy = std::move(*policy);
    const std::string& path = m_state.options.plan.record_path();
    const bool continued = m_state.options.plan.checkpoints().resume() && !path.empty() && ::access(path.c_str(), F_OK) == 0;
    if (Status s = m_recorder.open(path, m_state.header(), continued); !s) return s;
    if (!m_state.options.plan.checkpoints().resume()) return Status::ok();
    uint64_t lastVersion = m_state.store.version();
    if (continued) {
        auto history = restoreHistory(path, &lastVersion);
        if (!history) return history;
    }
    const uint64_t checkpointVersion = m_state.store.version();
    if (lastVersion > checkpointVersion) {
        // Version numbers never repeat in a recording: the restored model goes on as the version
        // after the last one the crashed run reached, and gradients on the lost versions are dropped.
        std::vector<float> parameters, momentum;
        m_state.store.exportState(&parameters, &momentum);
        m_model->restore(parameters, momentum, lastVersion + 1);
        m_state.minimumBaseVersion = lastVersion + 1;
    }
    m_events.raise(wire::EVENT_RESUMED,
                   fmt::format("resumed from the {}; the run had reached version {}: the {} updates after the "
                               "checkpoint were lost, and training goes on as version {}",
                               resumedFrom, lastVersion, lastVersion - checkpointVersion, m_state.store.version()));
    return Status::ok();
}

// A resumed run's ticks and events so far, from the recording it continues, so a console sees one
// history; the run's clock goes on from the recording's last time, so times never go back. Each tick
// goes to the telemetry's history as it is read (a long run's recording, parsed whole, took several
// hundred MiB that the resumed coordinator kept).
Status Coordinator::restoreHistory(const std::string& path, uint64_t* lastVersion) {
    std::vector<wire::Event> events;
    double lastTime = 0;
    auto scan = forEachRecord(path, [&](wire::Record&& record) {
        if (record.has_tick()) {
            lastTime = std::max(lastTime, record.tick().time_s());
            *lastVersion = std::max(*lastVersion, record.tick().version());
            m_telemetry.restoreTick(std::move(*record.mutable_tick()));
        } else if (record.has_event()) {
            events.push_back(std::move(*record.mutable_event()));
        } else if (record.has_update()) {
            *lastVersion = std::max(*lastVersion, record.update().version());
        }
    });
    if (!scan) return scan.status();
    m_events.restore(std::move(events));
    const double elapsed = std::max(lastTime, m_state.elapsedSeconds());
    m_state.startTime = Clock::now() - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(elapsed));
    return Status::ok();
}

Coordinator::Coordinator(const CoordinatorOptions& options, std::vector<float> initial, ImageDataset test,
                         uint64_t trainCount)
    : m_state(options, std::move(initial), trainCount),
      m_zap(options.credentials
                ? std::make_unique<ZapAuthenticator>(m_context, *options.credentials, options.credentialsPath)
                : nullptr),
      m_data(m_context, dataOptions(m_state)),
      m_control(m_context, controlOptions(m_state)),
      m_telemetryEndpoint(m_context, telemetryOptions(m_state)),
      m_model(m_shards.enabled() ? std::unique_ptr<ModelStore>(std::make_unique<ShardedModelStore>(m_state.store, m_shards))
                                 : std::make_unique<LocalModelStore>(m_state.store)),
      m_checkpoints(m_state, m_events, *this, *m_model,
                    [this](const std::function<bool()>& done) { serveDataPlaneUntil(std::chrono::seconds(10), done); }),
      m_dataPlane(m_state, m_data, m_events, *this, m_remoteEvaluator, m_shards, *m_model,
                  [this] { m_controlHandler.startTraining(); }),
      m_controlHandler(m_state, m_control, m_events, m_dataPlane, m_telemetry, m_checkpoints, *this),
      m_evaluator(m_state.external() ? nullptr
                                     : std::make_unique<BackgroundEvaluator>(options.plan.spec().model(), std::move(test))),
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

std::optional<EvaluationResult> Coordinator::run() {
    for (;;) {
        Clock::duration wait = m_telemetry.untilDue();
        // The policy's deadline, asked once a loop (elastic's walks the workers); onTimer checks again.
        const auto timer = m_state.state == wire::RUN_RUNNING ? m_state.policy->timerDue() : std::nullopt;
        if (timer) wait = std::min(wait, *timer - Clock::now());
        zmq::pollitem_t items[] = {{m_data.socket().handle(), 0, ZMQ_POLLIN, 0},
                                   {m_control.socket().handle(), 0, ZMQ_POLLIN, 0}};
        // Rounded up: a deadline a fraction of a millisecond away would otherwise spin.
        pollSockets(items, 2, std::max(std::chrono::milliseconds(0), std::chrono::ceil<std::chrono::milliseconds>(wait)));
        followCredentials();  // before the data: a worker named a moment ago may be saying hello
        m_dataPlane.poll();
        m_controlHandler.poll();
        if (m_state.options.interrupted && m_state.options.interrupted->load())
            m_controlHandler.beginStop("interrupted by a signal");
        collectEvaluation();
        if (timer && Clock::now() >= *timer && m_state.state == wire::RUN_RUNNING) m_state.policy->onTimer();
        if (m_telemetry.due()) onTick();
        m_dataPlane.flushFanouts();  // releases decided by a command or a tick
        if (finished()) break;
    }
    m_dataPlane.stopAggregators();
    // The final model first, while the shards are served; then they are told the run is over (so a
    // slow disk or evaluation below never looks to them like a dead coordinator).
    const std::optional<GatheredModel> model = finalModel();
    m_shards.stopAll();  // (none in a run whose model the coordinator holds)
    m_checkpoints.flush();
    const std::optional<EvaluationResult> final = evaluateFinal(model);
    if (final) {
        m_state.lastEvaluation = final;
        m_events.raise(wire::EVENT_EVALUATION, fmt::format("final test accuracy {:.2f}%", 100.0 * final->accuracy));
    }
    m_telemetry.tick(refusedSoFar());
    // A worker whose stop went down with a dropped connection hears of the end from its next
    // heartbeat's acknowledgement, or when it registers again; one that retries would otherwise
    // wait for this coordinator forever.
    serveDataPlaneUntil(std::chrono::duration<double>(kEndNoticeSeconds), [this] { return workersLeft(); });
    // The stops just sent still go out when this coordinator closes its sockets (a worker that does
    // not read holds the exit 1 s at most): a worker that never hears of the end exits with an error.
    m_data.socket().set(zmq::sockopt::linger, 1000);
    return final;
}

void Coordinator::serveDataPlaneUntil(std::chrono::duration<double> within, const std::function<bool()>& done) {
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(within);
    while (!done() && Clock::now() < deadline) {
        zmq::pollitem_t item{m_data.socket().handle(), 0, ZMQ_POLLIN, 0};
        pollSockets(&item, 1, std::chrono::milliseconds(100));
        followCredentials();
        m_dataPlane.poll();
        if (m_telemetry.due()) m_telemetry.tick(refusedSoFar());
    }
}

std::optional<GatheredModel> Coordinator::finalModel() {
    // The model of the version after every update (from shards: when every range has come).
    // Shared with the callback: an answer that comes after the wait finds it still there.
    auto model = std::make_shared<std::optional<GatheredModel>>();
    if (m_model->gather(false, [model](GatheredModel&& m) { *model = std::move(m); }))
        serveDataPlaneUntil(std::chrono::seconds(10), [&] { return model->has_value() || !m_model->failure().empty(); });
    if (*model) return std::move(*model);
    m_events.raise(wire::EVENT_EVALUATION,
                   m_model->failure().empty()
                       ? "the parameter shards did not send the final model within 10 s, so its test accuracy is unknown"
                       : "a parameter shard was lost, so the final model is incomplete and its test accuracy unknown");
    return std::nullopt;
}

std::optional<EvaluationResult> Coordinator::evaluateFinal(const std::optional<GatheredModel>& model) {
    if (!model) return std::nullopt;
    const SharedFloats& parameters = model->parameters;
    const uint64_t version = model->version;
    if (m_evaluator) return m_evaluator->evaluateNow(parameters, version);
    if (!m_remoteEvaluator.attached()) {
        m_events.raise(wire::EVENT_EVALUATION,
                       "no evaluator joined this run of an external model, so its final test accuracy is unknown; "
                       "start one (syncscope.Evaluator in python/) beside the workers");
        return std::nullopt;
    }
    // The evaluator is sent the final parameters when it next asks (it may be testing others now).
    m_remoteEvaluator.requestFinal(parameters, version);
    serveDataPlaneUntil(std::chrono::duration<double>(kFinalEvaluationWaitSeconds),
                        [&] { return m_remoteEvaluator.finalResult().has_value(); });
    if (!m_remoteEvaluator.finalResult())
        m_events.raise(wire::EVENT_EVALUATION,
                       fmt::format("the evaluator did not report on the final model (version {}) within {:g} s, so "
                                   "its final test accuracy is unknown",
                                   version, kFinalEvaluationWaitSeconds));
    return m_remoteEvaluator.finalResult();
}

void Coordinator::followCredentials() {
    if (!m_zap) return;
    if (m_zap->generation() != m_admissionSeen) {  // the credentials file changed: who may work
        m_admissionSeen = m_zap->generation();
        m_dataPlane.cutOff(m_zap->revoked());  // told why while their sealed sessions still stand
    }
    m_data.followAdmission(*m_zap);  // every loop (cheap when nothing changed): the endpoint knows its ZAP
}

void Coordinator::onTick() {
    m_dataPlane.checkHeartbeats();
    if (const std::string failure = m_shards.check(); !failure.empty()) m_controlHandler.beginStop(failure);
    if (const std::vector<std::string> lost = m_shards.takeLosses(); !lost.empty()) replaceLostShards(lost);
    if (const std::vector<std::string> copies = m_shards.takeCopyLosses(); !copies.empty()) {
        // --shard-replicas: the model is whole on the copies left; the workers register again for them.
        for (const std::string& copy : copies) m_events.raise(wire::EVENT_SHARDS, copy);
        m_dataPlane.endSessionsForNewShards("a copy of a parameter shard was lost");
    }
    if (const std::string reason = m_state.stopReason(); !reason.empty()) m_controlHandler.beginStop(reason);
    if (m_state.state == wire::RUN_RUNNING) m_state.policy->onTick();
    m_checkpoints.onTick();
    reportStorage();
    m_telemetry.tick(refusedSoFar());
}

// Parameter shards went silent and their places are vacant: the workers register again (for the
// ranges' new endpoints), the model goes back to the newest checkpoint, and standby shards, if any
// wait, take the places at once; until they are taken, workers wait to be admitted and nothing is
// updated. The gathers that needed a lost range were given up with it (ShardLinks::vacate).
void Coordinator::replaceLostShards(const std::vector<std::string>& lost) {
    std::string what = lost.front();
    for (size_t i = 1; i < lost.size(); ++i) what += "; " + lost[i];
    m_evaluationGathering = false;
    m_dataPlane.endSessionsForNewShards(lost.size() == 1 ? "a parameter shard was lost" : "parameter shards were lost");
    if (Status s = m_checkpoints.restoreAfterLostShard(what); !s)
        return m_controlHandler.beginStop(what + ", and the model could not be restored: " + s.message());
    m_dataPlane.fillShardVacancies();
}

// A full disk (or an unwritable folder) for the recording or the checkpoints: said once when it
// starts and once when writing works again; with pauseOnStorageFailure the run waits meanwhile.
void Coordinator::reportStorage() {
    if (auto news = m_recorder.takeNews()) m_events.raise(wire::EVENT_RECORDING, *news);
    if (auto news = m_checkpoints.takeNews()) m_events.raise(wire::EVENT_CHECKPOINT, *news);
    if (!m_state.options.plan.checkpoints().pause_on_storage_failure()) return;
    const bool failing = m_recorder.failing() || m_checkpoints.failing();
    if (failing && m_state.state == wire::RUN_RUNNING) {
        m_state.state = wire::RUN_PAUSED;
        m_state.pausedForStorage = true;
        m_events.raise(wire::EVENT_PAUSE, "paused until the disk has space again (--on-storage-failure pause)");
    } else if (!failing && m_state.pausedForStorage && m_state.state == wire::RUN_PAUSED) {
        m_state.state = wire::RUN_RUNNING;
        m_state.pausedForStorage = false;
        m_events.raise(wire::EVENT_RESUME, "the disk has space again");
        m_state.policy->reconsider();
    }
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

bool Coordinator::workersLeft() const {
    const auto silent = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kSilentAfterStopSeconds));
    const auto now = Clock::now();
    return std::none_of(m_state.workers.all().begin(), m_state.workers.all().end(), [&](const auto& kv) {
        const WorkerRecord& w = kv.second;
        return w.state == wire::WORKER_DONE && !w.leaving && now - w.lastSeen < silent;
    });
}

void Coordinator::collectEvaluation() {
    const auto interval = std::chrono::duration<double>(m_state.options.plan.spec().eval_interval_seconds());
    if (auto result = m_evaluator ? m_evaluator->takeResult() : m_remoteEvaluator.takeResult()) {
        m_state.lastEvaluation = result;
        if (auto stalled = m_chanceLevel.observe(*result)) m_events.raise(wire::EVENT_ERROR, *stalled);
        if (auto pace = m_evaluationPace.observe(*result, interval.count())) m_events.raise(wire::EVENT_EVALUATION, *pace);
    }
    if (m_state.state != wire::RUN_RUNNING || m_evaluationGathering || Clock::now() - m_lastEvalSubmit < interval)
        return;
    // One gather per interval, counted from when it is asked (an evaluator still busy with the last
    // model skips this one: the model is not gathered from the shards again and again meanwhile).
    m_evaluationGathering = true;  // before: where the coordinator holds the model, `done` runs inside gather()
    const bool asked = m_model->gather(false, [this](GatheredModel&& model) {
        m_evaluationGathering = false;
        if (m_evaluator)
            m_evaluator->submit(model.parameters, model.version);
        else
            m_remoteEvaluator.submit(model.parameters, model.version);
    });
    if (asked) m_lastEvalSubmit = Clock::now();
    else m_evaluationGathering = false;
}

void Coordinator::applyUpdate(const GradientAccumulator& gradient,
                              const std::vector<wire::Contribution>& contributions, float lrScale) {
    const float lr = m_state.scheduledLearningRate() * lrScale;
    m_model->apply(gradient, lr);
    recordUpdate(contributions, lr);
}

void Coordinator::applyUpdate(const GradientIn& gradient, const std::vector<wire::Contribution>& contributions,
                              float lrScale) {
    const float lr = m_state.scheduledLearningRate() * lrScale;
    m_model->apply(gradient, lr);
    recordUpdate(contributions, lr);
}

void Coordinator::recordUpdate(const std::vector<wire::Contribution>& contributions, float lr) {
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
        m_state.totals.appliedSamples += c.batch_size();
        m_state.totals.effectiveSamples += c.batch_size() / (1.0 + kStalenessCost * double(c.staleness()));
    }
    m_state.totals.applied += contributions.size();
    m_telemetry.noteUpdate();
    m_recorder.record(record);
}

void Coordinator::dropGradient(uint32_t worker, uint64_t baseVersion, uint64_t sequence, const std::string& reason) {
    m_model->forget(worker, sequence);
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

void Coordinator::release(uint32_t id) { releaseAt(id, m_model->current()); }

bool Coordinator::releaseAt(uint32_t id, const PinnedModel& model) {
    WorkerRecord* w = m_state.workers.find(id);
    if (!w) return false;
    const double heldMs = std::chrono::duration<double, std::milli>(Clock::now() - w->waitingSince).count();
    if (!m_dataPlane.sendParameters(*w, model.parameters, model.version)) return false;
    m_model->released(model);
    wire::Record record;
    wire::Release* r = record.mutable_release();
    r->set_time_s(m_state.elapsedSeconds());
    r->set_worker_id(id);
    r->set_version(model.version);
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
