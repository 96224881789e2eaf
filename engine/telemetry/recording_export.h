// Exporting a recording for other tools: CSV for the time series a person plots, JSON Lines for
// every record with nothing left out.
#pragma once

#include <ostream>

#include "engine/core/status.h"
#include "engine/telemetry/recording_reader.h"

namespace syncscope::engine {

/// One header row, then for each Tick a "tick" row (run totals) followed by a "worker" row per
/// worker, and an "event" row (with the totals when it took effect) per Event record; the events
/// a Tick repeats are not written twice. Update, Drop and Release records are left to
/// JSON Lines. Empty cells mean "not applicable" (test_accuracy before the first evaluation,
/// worker columns of a tick row). Fields are quoted as RFC 4180 asks; lines end in "\n".
Status exportCsv(const Recording& recording, std::ostream& out);

/// A line {"header": {...}}, then one line per record such as {"tick": {...}} or
/// {"update": {...}}: protobuf's JSON mapping with the .proto field names and zeros included.
Status exportJsonLines(const Recording& recording, std::ostream& out);

}  // namespace syncscope::engine
