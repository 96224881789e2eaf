// Chrome / Perfetto trace of a recording (the Trace Event Format's JSON object form, opened by
// chrome://tracing and ui.perfetto.dev): one track per worker with its iterations split into
// "receive parameters", "compute", "send gradient" and "wait" spans, the coordinator's updates and
// drops as instant events, loss / accuracy / updates per second as counters, control events as
// global instants. Times are microseconds of run time.
//
// Spans come from the Release records: a worker released at R(k) pushes its gradient at
// P(k) = R(k+1) - held(k+1) and waits until R(k+1); of R(k)..P(k), compute(k) is computing and the
// rest communication, put half before and half after the compute (the two clocks are not compared).
//
// Bounded in size: only what starts inside the window [from, to) of run time is written, and at
// most maxEvents events; past that the trace ends early and TraceSummary says where.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <ostream>
#include <string>

#include "engine/telemetry/recording_sink.h"

namespace syncscope::engine {

/// Events a trace holds at most by default: about 25 MB of JSON, which chrome://tracing still opens.
inline constexpr uint64_t kDefaultTraceMaxEvents = 200'000;

struct TraceOptions {
    double fromSeconds = 0.0;                                   ///< window start, seconds of run time
    double toSeconds = std::numeric_limits<double>::infinity();  ///< window end (exclusive)
    uint64_t maxEvents = kDefaultTraceMaxEvents;
};

struct TraceSummary {
    uint64_t events = 0;       ///< written, metadata included
    bool cut = false;          ///< maxEvents was reached
    double cutAtSeconds = 0;   ///< when cut: the run time of the first event left out
};

class TraceSink final : public RecordingSink {
public:
    TraceSink(std::ostream& out, TraceOptions options);

    Status begin(const wire::RecordingHeader& header) override;
    Status add(const wire::Record& record) override;
    Status finish() override;

    const TraceSummary& summary() const { return m_summary; }

private:
    struct WorkerTrack {
        bool named = false;     // its thread_name metadata written
        bool released = false;
        double releasedAt = 0;  // seconds
        double lastComputeMs = 0;  // from ticks, for recordings without Release.compute_ms
    };
    void addRelease(const wire::Release& release);
    void addTick(const wire::Tick& tick);
    void addUpdate(const wire::Update& update);
    void addSpan(uint32_t worker, const char* name, const char* category, double startS, double durationS);
    bool admit(double timeSeconds);  // inside the window and under the cap
    void put(const std::string& eventJson);  // one event, comma-separated
    void nameThread(uint32_t worker);

    std::ostream& m_out;
    TraceOptions m_options;
    TraceSummary m_summary;
    std::map<uint32_t, WorkerTrack> m_workers;
    bool m_first = true;
};

}  // namespace syncscope::engine
