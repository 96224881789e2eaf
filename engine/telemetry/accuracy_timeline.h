// AccuracyTimeline: when a run's model reached a test accuracy, read from its ticks. An evaluation's
// result reaches the ticks a while after the model it tested was current: the evaluator tests a
// snapshot of the whole test set on one core, which took 0.55-1.15 s per evaluation on the 2-core hosts
// (longer in the modes that keep every core busy), and a snapshot due while it is busy is skipped. The
// time a tick first shows an accuracy is therefore when the coordinator knew it, late by up to two
// evaluations, and later in the busy modes than in those whose workers wait. The time of the model is
// when its version was current (interpolated between the ticks around it), and the crossing of an
// accuracy between two evaluations is placed by linear interpolation in accuracy between their
// versions' times (every recording has Tick.test_version: it is in the first wire schema).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

class AccuracyTimeline {
public:
    /// The run's ticks in their order (every state: a stopped run's final evaluation counts). A tick
    /// whose version or time is below the last one's begins a resumed run: what was recorded after
    /// that point (of a model the checkpoint did not keep) is forgotten.
    void add(const wire::Tick& tick);
    /// The recording time (s) at which the model first reached `accuracy`, of the evaluations of models
    /// current at or after `notBefore`; none if no such evaluation did.
    std::optional<double> timeReached(double accuracy, double notBefore = -std::numeric_limits<double>::infinity()) const;
    /// The accuracy of the newest evaluated model that was current at or before `time`; none before any.
    std::optional<double> accuracyAt(double time) const;

    struct Evaluation {
        double accuracy = 0;
        double modelTime = 0;  ///< when the model it tested was current
        double knownTime = 0;  ///< the first tick that showed it
    };
    const std::vector<Evaluation>& evaluations() const { return m_evaluations; }

private:
    /// When `version` became current: interpolated between the ticks on either side of it.
    double timeOfVersion(uint64_t version) const;

    std::vector<std::pair<uint64_t, double>> m_versions;  ///< (version, tick time) at each tick whose version rose
    std::vector<Evaluation> m_evaluations;
    uint64_t m_lastVersion = 0;      ///< of the newest evaluation seen
    double m_lastAccuracy = -1;
    bool m_any = false;
};

}  // namespace syncscope::engine
