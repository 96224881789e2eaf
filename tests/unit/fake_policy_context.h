// FakeRun: a PolicyContext with no sockets, no model and a clock of its own, for driving sync
// policies in-process. Workers are simulated: each computes for batch / speed seconds on the
// version it was released with, then pushes; a discrete-event loop runs them in time order and
// checks after every step that every gradient pushed is applied, dropped or pending.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "engine/plan/mode_catalog.h"
#include "engine/policy/sync_policy.h"

namespace syncscope::engine::testing {

struct AppliedUpdate {
    uint64_t version = 0;  ///< the version it made
    std::vector<wire::Contribution> contributions;
    float lrScale = 1;
    std::vector<float> gradient;  ///< as applied (every worker's gradient is its id + 1 everywhere)
};

struct DroppedGradient {
    uint32_t worker = 0;
    uint64_t baseVersion = 0;
    std::string reason;
};

struct ReleaseRecord {
    double time = 0;
    uint32_t worker = 0;
    uint64_t version = 0;
    uint64_t clock = 0, minClock = 0;
    uint32_t batch = 0;  ///< the batch it computes
};

class FakeRun final : public PolicyContext {
public:
    static constexpr size_t kParameters = 4;
    static constexpr uint32_t kBatch = 64;

    /// `sharded`: as a run whose model lives on parameter shards: gradients reach the policy without
    /// values (the fake keeps them, as the shards would) and updates come as terms.
    explicit FakeRun(const wire::ModeSettings& mode, bool sharded = false);

    // --- the run ---
    /// A worker computing `samplesPerSecond` (its iteration: batch / speed + commSeconds); joins at once.
    uint32_t addWorker(double samplesPerSecond, double commSeconds = 0.001);
    /// Registered, not started: it takes part from startWorker (its first pull), as a worker that
    /// is still loading (a PyTorch worker importing torch) does.
    uint32_t registerWorker(double samplesPerSecond, double commSeconds = 0.001);
    void startWorker(uint32_t worker) { arrive(worker); }
    void setSpeed(uint32_t worker, double samplesPerSecond) { m_speed[worker] = samplesPerSecond; }
    /// A part of its compute that does not grow with its batch (an interpreter's, a launch's): its
    /// iteration is then fixed + batch / speed + commSeconds.
    void setFixedSeconds(uint32_t worker, double seconds) { m_fixed[worker] = seconds; }
    void lose(uint32_t worker);
    /// As a group aggregator would: these computing workers push now, their gradients summed into
    /// one GradientSum for `group` (default: the first one's) on the version they computed on.
    void pushSum(const std::vector<uint32_t>& workers, std::optional<uint32_t> group = std::nullopt);
    /// As a console's set_mode: the version boundary, then the new policy.
    void switchMode(const wire::ModeSettings& mode);
    /// Runs the simulation for `seconds` of fake time, calling onTick every 0.1 s; `afterStep` runs after
    /// every push (the accounting invariant is checked there too).
    void simulate(double seconds, const std::function<void()>& afterStep = {});
    SyncPolicy& policy() { return *m_policy; }
    double time() const { return m_time; }

    // --- what happened ---
    const std::vector<AppliedUpdate>& updates() const { return m_updates; }
    const std::vector<DroppedGradient>& drops() const { return m_drops; }
    const std::vector<ReleaseRecord>& releases() const { return m_releases; }
    const std::vector<wire::Event>& events() const { return m_events; }
    uint64_t pushed() const { return m_pushed; }
    uint64_t pushedBy(uint32_t worker) const { return m_workers.all().at(worker).pushed; }
    /// pushed == applied + dropped + pending, or a message saying how not.
    std::string accountingError() const;

    // --- PolicyContext ---
    uint64_t version() const override { return m_version; }
    WorkerRegistry& workers() override { return m_workers; }
    const wire::ModeSettings& modeSettings() const override { return m_mode; }
    GradientAccumulator newSum() const override { return GradientAccumulator(kParameters, m_sharded); }
    void applyUpdate(const GradientAccumulator& gradient, const std::vector<wire::Contribution>& contributions,
                     float lrScale) override;
    void applyUpdate(const GradientIn& gradient, const std::vector<wire::Contribution>& contributions,
                     float lrScale) override;
    using PolicyContext::dropGradient;
    void dropGradient(uint32_t worker, uint64_t baseVersion, uint64_t sequence, const std::string& reason) override;
    void release(uint32_t worker) override;
    bool releaseAt(uint32_t worker, const PinnedModel& model) override;
    PinnedModel pin() override;
    uint32_t baseBatchSize() const override { return kBatch; }
    void announce(wire::EventKind kind, const std::string& detail, const wire::AutoDecision* decision) override;
    Clock::time_point now() const override;

private:
    void push(uint32_t worker);
    uint32_t countPush(uint32_t worker);  ///< a push's counters; returns its batch
    void record(std::vector<float> gradient, const std::vector<wire::Contribution>& contributions, float lrScale);
    /// A sharded run's gradient, as a shard would hand it over; it is used up.
    std::vector<float> takeHeld(uint32_t worker, uint64_t sequence);
    void arrive(uint32_t worker);  ///< waiting for parameters, as after a push or the first pull

    struct Finish {
        double time;
        uint32_t worker;
        uint64_t serial;  ///< a release's number: a stale finish of a lost worker is ignored
        bool operator>(const Finish& other) const { return time > other.time || (time == other.time && worker > other.worker); }
    };

    wire::ModeSettings m_mode;
    bool m_sharded = false;
    std::multimap<uint64_t, std::weak_ptr<const void>> m_pins;  ///< versions pinned (sharded: the shards keep them)
    std::map<std::pair<uint32_t, uint64_t>, std::vector<float>> m_held;  ///< sharded: (worker, sequence) -> values
    uint64_t m_nextSequence = 1;
    std::unique_ptr<SyncPolicy> m_policy;
    WorkerRegistry m_workers;
    uint64_t m_version = 0, m_pushed = 0, m_applied = 0, m_dropped = 0;
    double m_time = 0;
    Clock::time_point m_epoch = Clock::now();
    double computeSeconds(uint32_t worker, uint32_t batch) { return m_fixed[worker] + batch / m_speed[worker]; }
    std::map<uint32_t, double> m_speed, m_comm, m_fixed;
    std::map<uint32_t, uint64_t> m_computingOn, m_serial;
    std::map<uint32_t, uint32_t> m_computingBatch;  ///< the batch it was released with
    std::priority_queue<Finish, std::vector<Finish>, std::greater<>> m_finishes;
    std::vector<AppliedUpdate> m_updates;
    std::vector<DroppedGradient> m_drops;
    std::vector<ReleaseRecord> m_releases;
    std::vector<wire::Event> m_events;
};

}  // namespace syncscope::engine::testing
