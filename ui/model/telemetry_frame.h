// The console's picture of a run at one moment: plain series (x = the run's time_s) that
// TelemetryStore builds and hands to the GUI as an immutable, shared snapshot.
#pragma once

#include <QPointF>
#include <QVector>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/proto/syncscope.pb.h"

namespace syncscope::ui {

struct LagFigures;  // ui/model/lag_classifier.h

struct WorkerSeries {
    uint32_t id = 0;
    QVector<QPointF> samplesPerSecond, stalenessMean, computeMs, commMs, waitMs, batchSize;
    wire::WorkerStats latest;
};

/// One option of the engine's what-if predictions (Tick.what_if) over time: the samples/s it predicts
/// per participating worker (the run's prediction over its workers, so it reads against their lines
/// and their mean) and its staleness, and the newest prediction whole.
struct WhatIfSeries {
    QVector<QPointF> samplesPerWorker, staleness;
    wire::AutoCandidate latest;
};

struct TelemetryFrame {
    wire::RecordingHeader header;
    // testAccuracy is in percent, one point per evaluated model version. meanSamplesPerSecond: the
    // mean over the workers in each tick (one point per tick, however many workers there are).
    QVector<QPointF> trainLoss, testAccuracy, updatesPerSecond, version, meanSamplesPerSecond;
    std::map<uint32_t, WorkerSeries> workers;
    QVector<wire::Event> events;
    std::optional<wire::Tick> latest;
    /// What-if predictions by option label ("asp", "ksync K=3"), and the newest of them whole.
    std::map<std::string, WhatIfSeries> whatIf;
    std::optional<wire::WhatIf> latestWhatIf;
    std::shared_ptr<const wire::Catalog> catalog;  // the engine's modes, from its snapshot (null: not attached)
    std::string clientRole;      // this console's role as the coordinator sees it: steer, view; empty: none
    std::string authentication;  // "curve, data plane sealed", "curve, data plane plain", "none"; empty: not attached
    quint64 revision = 0;  // grows with every change to the store
    // Each worker's lag over the recent window, worked out once per frame by the store where the
    // console shows it (beyond kLinesUpToWorkers workers); null otherwise.
    std::shared_ptr<const std::map<uint32_t, LagFigures>> lag;
};

}  // namespace syncscope::ui
