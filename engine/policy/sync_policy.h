// SyncPolicy: when a gradient is applied and when a worker may compute its next one. Policies
// decide; the coordinator (through PolicyContext) applies, drops, records and replies.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/status.h"
#include "engine/net/tensor_frame.h"
#include "engine/proto/syncscope.pb.h"
#include "engine/policy/gradient.h"
#include "engine/policy/gradient_accumulator.h"
#include "engine/policy/pinned_model.h"
#include "engine/policy/worker_registry.h"

namespace syncscope::engine {

class PolicyContext {
public:
    virtual ~PolicyContext() = default;
    virtual uint64_t version() const = 0;
    virtual WorkerRegistry& workers() = 0;
    virtual const wire::ModeSettings& modeSettings() const = 0;
    /// An empty sum for one update, of the kind the model's store applies (a dense sum where the
    /// coordinator holds the model, terms where parameter shards do).
    virtual GradientAccumulator newSum() const = 0;
    /// Applies an averaged gradient of the given contributions at the base learning rate x lrScale
    /// as one update (the version goes up by one), and records it.
    virtual void applyUpdate(const GradientAccumulator& gradient, const std::vector<wire::Contribution>& contributions,
                             float lrScale) = 0;
    /// The same for one gradient as it arrived.
    virtual void applyUpdate(const GradientIn& gradient, const std::vector<wire::Contribution>& contributions,
                             float lrScale) = 0;
    /// Drops a gradient, and says why (`sequence`: its number in a sharded run, whose shards let go of it).
    virtual void dropGradient(uint32_t worker, uint64_t baseVersion, uint64_t sequence, const std::string& reason) = 0;
    void dropGradient(const GradientIn& g, const std::string& reason) {
        dropGradient(g.worker, g.baseVersion, g.sequence, reason);
    }
    void dropGradient(const wire::Contribution& c, const std::string& reason) {
        dropGradient(c.worker_id(), c.base_version(), c.sequence(), reason);
    }
    /// Lets a waiting worker go: it is sent the current parameters (deferred while paused).
    virtual void release(uint32_t worker) = 0;
    /// Lets a waiting worker go on a pinned, possibly earlier, version (a group's round).
    /// Returns false when it could not be sent now (paused, not waiting, lost).
    virtual bool releaseAt(uint32_t worker, const PinnedModel& model) = 0;
    /// The current version, kept for releaseAt while the PinnedModel (or a copy) lives.
    virtual PinnedModel pin() = 0;
    /// The run's batch size per worker (elastic sizes batches around it).
    virtual uint32_t baseBatchSize() const = 0;
    /// The time policies measure periods against (a test's fake context moves it by hand).
    virtual Clock::time_point now() const { return Clock::now(); }
    /// A telemetry event (groups, auto, batch, ...), also recorded; `decision` for auto's.
    virtual void announce(wire::EventKind kind, const std::string& detail,
                          const wire::AutoDecision* decision = nullptr) = 0;
};

class SyncPolicy {
public:
    virtual ~SyncPolicy() = default;
    virtual void onGradient(const GradientIn& gradient) = 0;
    /// Whether gradients may arrive summed (onGradientSum): modes that average a round of gradients
    /// on one version (bsp; grouped with bsp inside groups). Aggregators are told with each release.
    virtual bool takesSums() const { return false; }
    /// A sum of gradients, applied or dropped as a whole; called only while takesSums().
    virtual void onGradientSum(const GradientSum&) {}
    /// The worker has asked for parameters (after a push, or its first pull).
    virtual void onWaiting(uint32_t worker) = 0;
    /// Membership or pause state changed: barriers and bounds are evaluated again.
    virtual void reconsider() = 0;
    /// Gradients held in a partial aggregate, neither applied nor dropped yet.
    virtual uint64_t pending() const = 0;
    /// Leaves the policy at a version boundary. Rule: a partial aggregate is applied when the mode
    /// changes (its gradients are all on the current version) and dropped when the run stops.
    virtual void drain(bool apply) = 0;
    /// Called on every telemetry tick (controllers that measure and decide: elastic, auto).
    virtual void onTick() {}
    /// When the policy needs onTimer between ticks (elastic's hand-off deadline); none: it does not.
    virtual std::optional<Clock::time_point> timerDue() const { return std::nullopt; }
    virtual void onTimer() {}
    /// A person's answer to an advisor's proposal; only auto as an advisor has proposals.
    virtual Status answerAdvice(uint64_t adviceId, bool accept);
};

/// The record of one gradient in an update: who, on which version, how stale, its batch, its
/// share of the update, and the worker's clock and group now.
wire::Contribution makeContribution(PolicyContext& context, const GradientIn& gradient, uint64_t staleness,
                                    float weight);

}  // namespace syncscope::engine
