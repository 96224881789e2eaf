// Which workers lag, and whether the lag is chronic (a slow machine: most of the recent window) or
// transient (hiccups: now and then). A worker lags in a second of the run when its mean samples/s
// in that second are below kLagFraction of the median worker's (a single tick's rate is too noisy:
// a worker finishes a whole number of iterations in it); consoles rank and colour workers by it.
#pragma once

#include <cstdint>
#include <map>

#include "ui/model/telemetry_frame.h"

namespace syncscope::ui {

enum class Lag { None, Transient, Chronic };

struct LagFigures {
    Lag lag = Lag::None;
    double share = 0;        ///< of the window's seconds it lagged in, 0..1
    double relativeSpeed = 1;  ///< its mean samples/s over the window / the median worker's
};

/// Below this share of the median worker's samples/s, a worker lags at that tick.
constexpr double kLagFraction = 0.8;
/// Lagging at least this share of the window is chronic; at least kTransientShare is transient.
constexpr double kChronicShare = 0.6, kTransientShare = 0.1;
/// The slices a worker's samples/s are averaged over before they are compared.
constexpr double kLagSliceSeconds = 1;
/// The window the classification looks at: the most recent seconds of the run.
constexpr double kLagWindowSeconds = 30;

/// Every worker of the frame, classified over its last kLagWindowSeconds.
std::map<uint32_t, LagFigures> classifyLag(const TelemetryFrame& frame);

}  // namespace syncscope::ui
