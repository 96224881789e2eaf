// TelemetrySink: where the network thread puts what it receives (the console's TelemetryStore
// implements it). Both calls come from the network thread, so an implementation must be thread-safe.
#pragma once

#include "engine/proto/syncscope.pb.h"

namespace syncscope::ui {

class TelemetrySink {
public:
    virtual ~TelemetrySink() = default;
    /// One live tick, newer than everything delivered before it; its events are new ones only.
    virtual void ingestTick(const wire::Tick& tick) = 0;
    /// The whole run so far; it replaces whatever the sink held (attach, re-attach, a new run).
    virtual void ingestSnapshot(const wire::Snapshot& snapshot) = 0;
};

}  // namespace syncscope::ui
