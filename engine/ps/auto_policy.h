// AutoPolicy: a controller in the spirit of STAR. It measures each worker's iteration time
// (compute at the run's batch + communication), groups workers by speed, predicts for bsp,
// ksync (backup workers), grouped (G = 2..4 by speed) and asp the samples/s that would be applied and discounts them
// for staleness, and runs the best under the hood. It decides when every worker has been
// measured, then every decision period; a switch needs a predicted gain of 25% (no flapping).
// Until then it runs one backup worker: ksync K=N-1 (bsp below 4 workers).
// Each decision is an "auto" event that states the figures behind it.
#pragma once

#include <memory>
#include <string>

#include "engine/ps/sync_policy.h"
#include "engine/ps/worker_registry.h"

namespace syncscope::engine {

struct AutoCandidate {
    wire::ModeSettings settings;
    double samplesPerSecond = 0;  ///< predicted, applied gradients' samples
    double meanStaleness = 0;     ///< predicted
    double effective = 0;         ///< samplesPerSecond / (1 + kStalenessCost x meanStaleness)
    std::string label;
};

class AutoPolicy final : public SyncPolicy {
public:
    /// Cost of one step of mean staleness in the prediction: progress per sample / (1 + c x tau).
    static constexpr double kStalenessCost = 0.25;
    /// A switch needs this predicted gain: speeds measured on shared cores wobble by 10-20%.
    static constexpr double kSwitchGain = 1.25;

    AutoPolicy(PolicyContext& context, const wire::ModeSettings& settings);

    void onGradient(const GradientIn& gradient) override { m_inner->onGradient(gradient); }
    void onWaiting(uint32_t worker) override { m_inner->onWaiting(worker); }
    void reconsider() override { m_inner->reconsider(); }
    uint64_t pending() const override { return m_inner->pending(); }
    void drain(bool apply) override { m_inner->drain(apply); }
    void onTick() override;

private:
    void decide();
    std::vector<AutoCandidate> candidates() const;
    void switchTo(const AutoCandidate& choice, const std::string& reason);

    PolicyContext& m_context;
    wire::ModeSettings m_settings;
    std::unique_ptr<SyncPolicy> m_inner;
    static constexpr const char* kStartLabel = "ksync K=N-1";
    std::string currentLabel() const;  ///< the start label resolved against the workers now
    std::string m_current = kStartLabel;
    bool m_decided = false;
    Clock::time_point m_lastDecision = Clock::now();
};

}  // namespace syncscope::engine
