// FakeRun (see fake_policy_context.h).
#include "fake_policy_context.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "engine/policy/policy_factory.h"

namespace syncscope::engine::testing {

FakeRun::FakeRun(const wire::ModeSettings& mode, bool sharded) : m_mode(mode), m_sharded(sharded) {
    auto policy = createSyncPolicy(mode, *this);
    SS_CHECK(policy.isOk(), policy.status().message().c_str());
    m_policy = std::move(*policy);
}

uint32_t FakeRun::addWorker(double samplesPerSecond, double commSeconds) {
    const uint32_t id = registerWorker(samplesPerSecond, commSeconds);
    arrive(id);  // its first pull
    return id;
}

uint32_t FakeRun::registerWorker(double samplesPerSecond, double commSeconds) {
    WorkerRecord& w = m_workers.add(fmt::format("worker-{}", m_workers.all().size()), {}, kBatch);
    m_speed[w.id] = samplesPerSecond;
    m_comm[w.id] = commSeconds;
    return w.id;
}

void FakeRun::arrive(uint32_t id) {
    WorkerRecord& w = *m_workers.find(id);
    w.state = wire::WORKER_WAITING;
    w.waiting = true;
    m_policy->onWaiting(id);
}

void FakeRun::lose(uint32_t id) {
    WorkerRecord& w = *m_workers.find(id);
    w.stateBeforeLoss = w.state;
    w.state = wire::WORKER_LOST;
    ++m_serial[id];  // whatever it was computing never arrives
    m_policy->reconsider();
}

void FakeRun::switchMode(const wire::ModeSettings& mode) {
    m_policy->drain(true);
    m_policy.reset();
    m_workers.clearGroups();
    auto next = createSyncPolicy(mode, *this);
    SS_CHECK(next.isOk(), next.status().message().c_str());
    m_policy = std::move(*next);
    m_mode = mode;
    m_policy->reconsider();
}

void FakeRun::simulate(double seconds, const std::function<void()>& afterStep) {
    const double end = m_time + seconds;
    double nextTick = std::floor(m_time * 10 + 1) / 10;
    int timersAtOnce = 0;
    for (;;) {
        const double nextFinish = m_finishes.empty() ? end + 1 : m_finishes.top().time;
        // A policy's timer (elastic's hand-off deadline), as the coordinator's loop polls for it.
        if (const auto due = m_policy->timerDue()) {
            const double at = std::max(m_time, std::chrono::duration<double>(*due - m_epoch).count());
            if (at < nextTick && at < nextFinish && at <= end) {
                SS_CHECK(++timersAtOnce < 100, "a policy's timer is due again and again without time moving on");
                m_time = at + 1e-9;  // past the due time once it is a Clock::time_point again
                m_policy->onTimer();
                continue;
            }
        }
        timersAtOnce = 0;
        if (nextTick <= nextFinish && nextTick <= end) {
            m_time = nextTick;
            nextTick += 0.1;
            m_policy->onTick();
            continue;
        }
        if (nextFinish > end) break;
        const Finish f = m_finishes.top();
        m_finishes.pop();
        m_time = f.time;
        if (f.serial != m_serial[f.worker] || !m_workers.find(f.worker)->active()) continue;
        push(f.worker);
        SS_CHECK(accountingError().empty(), accountingError().c_str());
        if (afterStep) afterStep();
    }
    m_time = end;
}

void FakeRun::pushSum(const std::vector<uint32_t>& ids, std::optional<uint32_t> group) {
    std::vector<float> sum(kParameters, 0.0f);
    GradientSum in{group.value_or(m_workers.find(ids.front())->group), m_computingOn[ids.front()], nullptr, {}};
    for (uint32_t id : ids) {
        ++m_serial[id];  // its own finish is this push
        const uint32_t batch = countPush(id);
        for (float& x : sum) x += static_cast<float>(batch) * static_cast<float>(id + 1);
        in.members.push_back({id, m_computingOn[id], nullptr, batch});
    }
    in.weightedSum = sum.data();
    if (m_policy->takesSums())
        m_policy->onGradientSum(in);
    else
        for (const GradientIn& g : in.members) dropGradient(g, "the mode takes no sums");
    for (uint32_t id : ids) arrive(id);
}

uint32_t FakeRun::countPush(uint32_t id) {
    WorkerRecord& w = *m_workers.find(id);
    ++w.pushed;
    ++w.clock;
    ++m_pushed;
    const uint32_t batch = m_computingBatch[id];
    if (w.pushed > 2) w.recordCompute(batch, 1000.0 * computeSeconds(id, batch));
    w.commMs = 1000.0 * m_comm[id];
    w.recordComm(w.commMs);
    return batch;
}

void FakeRun::push(uint32_t id) {
    const uint32_t batch = countPush(id);
    const std::vector<float> gradient(kParameters, static_cast<float>(id + 1));
    if (m_sharded) {
        const uint64_t sequence = m_nextSequence++;
        m_held[{id, sequence}] = gradient;
        m_policy->onGradient({id, m_computingOn[id], nullptr, batch, sequence});
    } else {
        m_policy->onGradient({id, m_computingOn[id], gradient.data(), batch});
    }
    arrive(id);
}

std::vector<float> FakeRun::takeHeld(uint32_t worker, uint64_t sequence) {
    auto it = m_held.find({worker, sequence});
    SS_CHECK(it != m_held.end(), "a sharded policy names a gradient that was pushed and not used up");
    std::vector<float> values = std::move(it->second);
    m_held.erase(it);
    return values;
}

void FakeRun::applyUpdate(const GradientAccumulator& gradient, const std::vector<wire::Contribution>& contributions,
                          float lrScale) {
    SS_CHECK(gradient.sharded() == m_sharded, "an accumulator of the run's kind");
    if (!m_sharded) return record(std::vector<float>(gradient.dense(), gradient.dense() + kParameters), contributions, lrScale);
    std::vector<float> sum(kParameters, 0.0f);
    for (const wire::GradientTerm& term : gradient.terms()) {
        const std::vector<float> values = takeHeld(term.worker_id(), term.sequence());
        for (size_t i = 0; i < kParameters; ++i) sum[i] += term.scale() * values[i];
    }
    record(std::move(sum), contributions, lrScale);
}

void FakeRun::applyUpdate(const GradientIn& gradient, const std::vector<wire::Contribution>& contributions,
                          float lrScale) {
    record(m_sharded ? takeHeld(gradient.worker, gradient.sequence)
                     : std::vector<float>(gradient.data, gradient.data + kParameters),
           contributions, lrScale);
}

void FakeRun::record(std::vector<float> gradient, const std::vector<wire::Contribution>& contributions, float lrScale) {
    ++m_version;
    m_updates.push_back({m_version, contributions, lrScale, std::move(gradient)});
    for (const auto& c : contributions)
        if (WorkerRecord* w = m_workers.find(c.worker_id())) {
            ++w->applied;
            w->recordStaleness(c.staleness());
        }
    m_applied += contributions.size();
}

void FakeRun::dropGradient(uint32_t worker, uint64_t baseVersion, uint64_t sequence, const std::string& reason) {
    if (m_sharded) takeHeld(worker, sequence);
    if (WorkerRecord* w = m_workers.find(worker)) ++w->dropped;
    ++m_dropped;
    m_drops.push_back({worker, baseVersion, reason});
}

void FakeRun::release(uint32_t worker) { releaseAt(worker, pin()); }

bool FakeRun::releaseAt(uint32_t id, const PinnedModel& model) {
    const uint64_t version = model.version;
    // As the shards would: an earlier version is there only while a pin of it is held.
    if (m_sharded && version != m_version) {
        const auto [first, last] = m_pins.equal_range(version);
        SS_CHECK(std::any_of(first, last, [](const auto& pin) { return !pin.second.expired(); }),
                 "a release on an earlier version that no one keeps pinned");
    }
    WorkerRecord* w = m_workers.find(id);
    if (!w || !w->waiting || !w->active()) return false;
    w->waiting = false;
    w->state = wire::WORKER_COMPUTING;
    m_computingOn[id] = version;
    const uint32_t batch = w->takeReleaseBatch(now());
    m_computingBatch[id] = batch;
    m_releases.push_back({m_time, id, version, w->clock, m_workers.minParticipantClock(), batch});
    m_finishes.push({m_time + computeSeconds(id, batch) + m_comm[id], id, ++m_serial[id]});
    return true;
}

PinnedModel FakeRun::pin() {
    PinnedModel model;
    model.version = m_version;
    if (!m_sharded) {
        model.parameters = std::make_shared<const std::vector<float>>(kParameters, 0.0f);
        return model;
    }
    auto hold = std::make_shared<const int>(0);
    m_pins.emplace(m_version, hold);
    model.hold = std::move(hold);
    return model;
}

void FakeRun::announce(wire::EventKind kind, const std::string& detail, const wire::AutoDecision* decision) {
    wire::Event event;
    event.set_time_s(m_time);
    event.set_kind(kind);
    event.set_detail(detail);
    event.set_version(m_version);
    if (decision) *event.mutable_decision() = *decision;
    m_events.push_back(event);
}

Clock::time_point FakeRun::now() const {
    return m_epoch + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(m_time));
}

std::string FakeRun::accountingError() const {
    const uint64_t pending = m_policy->pending();
    if (m_sharded && m_held.size() != pending)  // what the shards would still hold: the pending gradients
        return fmt::format("{} gradients held for the shards, {} pending in the policy", m_held.size(), pending);
    if (m_pushed == m_applied + m_dropped + pending) return {};
    return fmt::format("pushed {} != applied {} + dropped {} + pending {}", m_pushed, m_applied, m_dropped, pending);
}

}  // namespace syncscope::engine::testing
