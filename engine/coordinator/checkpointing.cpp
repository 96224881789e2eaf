// Checkpointing (see checkpointing.h).
#include "engine/coordinator/checkpointing.h"

#include <fmt/format.h>

#include <chrono>

#include "engine/plan/mode_catalog.h"
#include "engine/policy/policy_factory.h"
#include "engine/telemetry/recording_reader.h"

namespace syncscope::engine {
namespace {

uint64_t unixMillis() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

Status Checkpointing::open() {
    if (m_state.options.plan.checkpoints().folder().empty()) return Status::ok();
    auto store = CheckpointStore::open(m_state.options.plan.checkpoints().folder(),
                                       {m_state.options.plan.checkpoints().keep_periodic(), m_state.options.plan.checkpoints().keep_before_changes()});
    if (!store) return store.status();
    m_store = std::move(*store);
    return Status::ok();
}

CheckpointData Checkpointing::capture(const std::string& reason, uint64_t changeId) const {
    const CoordinatorState& s = m_state;
    CheckpointData data;
    wire::CheckpointState& c = data.state;
    *c.mutable_header() = s.header();
    c.set_version(s.store.version());
    *c.mutable_mode() = s.mode;
    c.set_learning_rate(s.store.sgd().learningRate);
    c.set_samples_total(s.totals.samples);
    c.set_applied_samples(s.totals.appliedSamples);
    c.set_effective_samples(s.totals.effectiveSamples);
    c.set_training_seconds(s.trainingSeconds());
    c.set_elapsed_seconds(s.elapsedSeconds());
    const uint64_t pending = s.policy ? s.policy->pending() : 0;  // a partial aggregate does not survive a restart
    c.set_pushed(s.totals.pushed);
    c.set_applied(s.totals.applied);
    c.set_dropped(s.totals.dropped + pending);
    c.set_parameter_count(s.store.size());
    c.set_reason(reason);
    c.set_change_id(changeId);
    c.set_next_change_id(s.nextChangeId);
    c.set_train_loss(s.trainLoss);
    c.set_next_worker_id(s.workers.nextId());
    c.set_state(s.state);
    c.set_unix_ms(unixMillis());
    for (const auto& [id, w] : s.workers.all()) {
        wire::WorkerCheckpoint* out = c.add_workers();
        out->set_worker_id(id);
        out->set_identity(w.identity);
        *out->mutable_slowdown() = w.slowdown;
        out->set_group(w.group);
        out->set_batch_size(w.batchSize);
        out->set_pushed(w.pushed);
        out->set_applied(w.applied);
        out->set_dropped(w.dropped);
        for (uint64_t n : w.stalenessHistogram) out->add_staleness_histogram(n);
        out->set_staleness_sum(w.stalenessSum);
        out->set_clock(w.clock);
        out->set_pid(w.pid);
        for (const ComputeTimeModel::Push& p : w.compute.recent()) {
            out->add_recent_speeds(p.batch / p.ms * 1000.0);
            out->add_recent_batches(p.batch);
        }
    }
    return data;
}

void Checkpointing::writeWhenGathered(CheckpointData data) {
    auto captured = std::make_shared<CheckpointData>(std::move(data));
    ++m_gathering;
    const bool asked = m_model.gather(true, [this, captured](GatheredModel&& model) {
        --m_gathering;
        if (model.version != captured->state.version()) return;  // cannot be: the gather follows every update sent
        captured->parameters = *model.parameters;
        captured->momentum = std::move(model.momentum);
        m_store->write(std::move(*captured));
    });
    if (!asked) --m_gathering;  // the shards are not all there (the next tick tries again)
}

void Checkpointing::onTick() {
    if (!m_store || !m_state.started) return;
    const auto period = std::chrono::duration<double>(m_state.options.plan.checkpoints().seconds());
    // One checkpoint waiting for the shards' ranges is enough: a slow shard does not pile them up.
    if (Clock::now() - m_lastPeriodic < period || m_gathering > 0) return;
    m_lastPeriodic = Clock::now();
    writeWhenGathered(capture("periodic", 0));
}

void Checkpointing::beginChange(const std::string& what) {
    m_state.currentChange = m_state.nextChangeId++;
    if (m_store)
        writeWhenGathered(capture(fmt::format("before change {}: {}", m_state.currentChange, what), m_state.currentChange));
}

Status Checkpointing::rollback(uint64_t changeId) {
    if (!m_store)
        return invalidArgument("rollback needs checkpoints, and this coordinator keeps none: start it with a "
                               "checkpoint folder");
    // The checkpoint before that change may still wait for its model (parameter shards answer in ms).
    if (m_gathering > 0) m_serveUntil([this] { return m_gathering == 0 || !m_model.failure().empty(); });
    m_store->flush();  // the checkpoint before that change may still be on its way to the disk
    auto data = m_store->beforeChange(m_state.runId, changeId);
    if (!data) return data.status();
    if (data->state.parameter_count() != m_state.store.size())
        return invalidArgument("that checkpoint holds another model");
    auto version = restoreAsNextVersion(data->parameters, data->momentum, data->state.learning_rate(), data->state.mode());
    if (!version) return version.status();
    m_events.raise(wire::EVENT_ROLLBACK,
                   fmt::format("rolled back to before change {} (model of version {}, learning rate {}, {}) as version {}",
                               changeId, data->state.version(), data->state.learning_rate(),
                               describeMode(data->state.mode()), *version));
    m_state.policy->reconsider();
    return Status::ok();
}

Result<uint64_t> Checkpointing::restoreAsNextVersion(const std::vector<float>& parameters,
                                                     const std::vector<float>& momentum, float learningRate,
                                                     const wire::ModeSettings& mode) {
    // The version number never goes back: the restored parameters become the next version, and
    // gradients computed on the versions in between are dropped when they arrive.
    m_state.policy->drain(false);
    const uint64_t version = m_state.store.version() + 1;
    m_model.restore(parameters, momentum, version);
    m_state.store.sgd().learningRate = learningRate;
    m_state.minimumBaseVersion = version;
    m_state.policy.reset();
    m_state.workers.clearGroups();
    auto policy = createSyncPolicy(mode, m_policyContext);
    if (!policy) return policy.status();
    m_state.policy = std::move(*policy);
    m_state.mode = mode;
    return version;
}

Status Checkpointing::restoreAfterLostShard(const std::string& lost) {
    m_gathering = 0;  // the checkpoints that waited for the lost shard's range are given up
    const uint64_t lostAt = m_state.store.version();
    std::vector<std::string> skipped;
    std::optional<CheckpointData> data;
    if (m_store) {
        m_store->flush();
        auto newest = m_store->newest(&skipped);
        if (newest && newest->state.header().run_id() == m_state.runId &&
            newest->state.parameter_count() == m_state.store.size())
            data = std::move(*newest);
        else if (newest)  // the folder's newest is another run's (a folder shared by mistake)
            skipped.push_back(fmt::format("the checkpoint of version {}, which is of another run ({}) or size ({} values)",
                                          newest->state.version(), newest->state.header().run_id(),
                                          newest->state.parameter_count()));
    }
    std::string from;
    Result<uint64_t> version = uint64_t{0};
    if (data) {
        from = fmt::format("the checkpoint of version {} ({})", data->state.version(), data->state.reason());
        version = restoreAsNextVersion(data->parameters, data->momentum, data->state.learning_rate(), data->state.mode());
    } else {  // nothing written yet: the model the run started from (the store keeps it until an update is restored)
        std::vector<float> parameters, momentum;
        m_state.store.exportState(&parameters, &momentum);
        from = "the model the run started from (no checkpoint of this run was written yet)";
        version = restoreAsNextVersion(parameters, momentum, m_state.store.sgd().learningRate, m_state.mode);
    }
    if (!version) return version.status();
    const uint64_t lostUpdates = lostAt - (data ? data->state.version() : 0);
    std::string detail = fmt::format("{}: its range of the model is lost; the model goes back to {} as version {} ({} "
                                     "update{} lost), and training waits until a shard takes its place",
                                     lost, from, *version, lostUpdates, lostUpdates == 1 ? "" : "s");
    for (const std::string& why : skipped) detail += "; skipped " + why;  // the same words as a resume's
    m_events.raise(wire::EVENT_SHARDS, detail);
    m_state.policy->reconsider();
    return Status::ok();
}

void Checkpointing::restoreWorkers(const wire::CheckpointState& c) {
    for (const wire::WorkerCheckpoint& in : c.workers()) {
        WorkerRecord& w = m_state.workers.restore(in.worker_id(), in.identity());
        w.slowdown = in.slowdown();
        w.group = in.group();  // a grouped policy created after the restore may regroup
        w.batchSize = in.batch_size() ? in.batch_size() : m_state.options.plan.spec().batch_size();
        w.pushed = in.pushed();
        w.applied = in.applied();
        w.dropped = in.dropped();
        for (int i = 0; i < in.staleness_histogram_size() && size_t(i) < w.stalenessHistogram.size(); ++i)
            w.stalenessHistogram[size_t(i)] = in.staleness_histogram(i);
        w.stalenessSum = in.staleness_sum();
        w.clock = in.clock();
        w.pid = in.pid();
        for (int i = 0; i < in.recent_speeds_size(); ++i) {
            const uint32_t batch = i < in.recent_batches_size() ? in.recent_batches(i) : in.batch_size();
            if (in.recent_speeds(i) > 0) w.recordCompute(batch, batch / in.recent_speeds(i) * 1000.0);
        }
    }
    m_state.workers.setNextId(c.next_worker_id());
}

Status Checkpointing::resume(std::string* description) {
    if (!m_store) return invalidArgument("resuming needs the crashed run's checkpoint folder, and none was given");
    std::vector<std::string> skipped;
    auto data = m_store->newest(&skipped);
    if (!data)
        return unavailable("cannot resume: " + data.status().message() +
                           "; give the checkpoint folder of the crashed run, or start a new run instead of resuming");
    const wire::CheckpointState& c = data->state;
    const wire::RunSpec& spec = m_state.options.plan.spec();
    if (c.parameter_count() != m_state.store.size() || c.header().spec().model() != spec.model() ||
        c.header().spec().buffer_count() != spec.buffer_count())
        return invalidArgument(fmt::format("the checkpoint is of a {} run with {} parameters ({} of them buffers), not of "
                                           "this {} run with {} ({}); resume with the run's own flags",
                                           c.header().spec().model(), c.parameter_count(), c.header().spec().buffer_count(),
                                           spec.model(), m_state.store.size(), spec.buffer_count()));
    m_model.restore(data->parameters, data->momentum, c.version());
    if (m_state.external()) {  // the model and training-set size its first worker brought
        m_state.setTrainCount(c.header().spec().train_examples());
        m_state.awaitingInitialParameters = false;
    }
    m_state.store.sgd().learningRate = c.learning_rate();
    m_state.mode = c.mode();
    m_state.totals = {c.pushed(), c.applied(), c.dropped(), c.samples_total(), c.applied_samples(), c.effective_samples()};
    m_state.trainLoss = c.train_loss();
    m_state.haveLoss = c.train_loss() != 0;
    m_state.runId = c.header().run_id();
    m_state.startUnixMs = c.header().start_unix_ms();
    m_state.startTime = Clock::now() - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(c.elapsed_seconds()));
    m_state.trainingSecondsBefore = c.training_seconds();
    m_state.nextChangeId = c.next_change_id();
    m_state.minimumBaseVersion = c.version();  // a reconnecting worker's gradient of the lost versions
    if (c.state() == wire::RUN_RUNNING || c.state() == wire::RUN_PAUSED) {
        m_state.state = c.state();
        m_state.started = true;
        m_state.trainingStart = Clock::now();
    }
    restoreWorkers(c);
    *description = fmt::format("checkpoint of version {} ({}, {} s into the run)", c.version(), c.reason(),
                               c.elapsed_seconds());
    for (const std::string& why : skipped) *description += "; skipped " + why;
    return Status::ok();
}

void Checkpointing::flush() {
    if (m_store) m_store->flush();
}

}  // namespace syncscope::engine
