// TraceSink (see trace_export.h): the JSON is streamed, one event per line, with nlohmann-json.
#include "engine/telemetry/trace_export.h"
#include "engine/telemetry/event_kind.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace syncscope::engine {
namespace {

using nlohmann::json;

constexpr int kCoordinatorPid = 1;
constexpr int kWorkersPid = 2;
constexpr int kUpdatesTid = 1;
constexpr double kMicrosPerSecond = 1e6;

// Microseconds, rounded to whole nanoseconds so the text stays short.
double micros(double seconds) { return std::round(seconds * kMicrosPerSecond * 1000.0) / 1000.0; }

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

json metadata(const char* name, int pid, int tid, const std::string& value) {
    return {{"name", name}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", value}}}};
}

}  // namespace

TraceSink::TraceSink(std::ostream& out, TraceOptions options) : m_out(out), m_options(options) {}

void TraceSink::put(const std::string& text) {
    m_out << (m_first ? "\n" : ",\n") << text;
    m_first = false;
    ++m_summary.events;
}

bool TraceSink::admit(double timeSeconds) {
    if (timeSeconds < m_options.fromSeconds || timeSeconds >= m_options.toSeconds) return false;
    if (m_summary.cut) return false;
    if (m_summary.events < m_options.maxEvents) return true;
    m_summary.cut = true;
    m_summary.cutAtSeconds = timeSeconds;
    return false;
}

Status TraceSink::begin(const wire::RecordingHeader& header) {
    m_out << R"({"displayTimeUnit":"ms","otherData":{"source":"syncscope-engine export --format trace","run_id":")"
          << header.run_id() << R"(","start_unix_ms":)" << header.start_unix_ms() << R"(,"model":)"
          << json(header.spec().model()).dump() << R"(},"traceEvents":[)";
    put(metadata("process_name", kCoordinatorPid, 0, "coordinator").dump());
    put(metadata("thread_name", kCoordinatorPid, kUpdatesTid, "updates").dump());
    put(metadata("process_name", kWorkersPid, 0, "workers").dump());
    return m_out ? Status::ok() : unavailable("writing the trace failed (is the disk full?)");
}

void TraceSink::nameThread(uint32_t worker) {
    put(metadata("thread_name", kWorkersPid, static_cast<int>(worker), "worker " + std::to_string(worker)).dump());
    put(json{{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", kWorkersPid}, {"tid", worker},
              {"args", {{"sort_index", worker}}}}.dump());
}

void TraceSink::addSpan(uint32_t worker, const char* name, const char* category, double startS, double durationS) {
    if (durationS <= 0 || !admit(startS)) return;
    put(json{{"name", name}, {"cat", category}, {"ph", "X"}, {"pid", kWorkersPid}, {"tid", worker},
              {"ts", micros(startS)}, {"dur", micros(durationS)}}.dump());
}

void TraceSink::addRelease(const wire::Release& release) {
    WorkerTrack& track = m_workers[release.worker_id()];
    if (!track.named) nameThread(release.worker_id());
    track.named = true;
    const double now = release.time_s();
    if (track.released) {
        const double pushedAt = std::max(track.releasedAt, now - release.held_ms() / 1000.0);
        const double roundTrip = pushedAt - track.releasedAt;
        const double computeMs = release.compute_ms() > 0 ? release.compute_ms() : track.lastComputeMs;
        const double compute = std::clamp(computeMs / 1000.0, 0.0, roundTrip);
        const double halfComm = (roundTrip - compute) / 2;
        addSpan(release.worker_id(), "receive parameters", "communication", track.releasedAt, halfComm);
        addSpan(release.worker_id(), "compute", "compute", track.releasedAt + halfComm, compute);
        addSpan(release.worker_id(), "send gradient", "communication", track.releasedAt + halfComm + compute, halfComm);
        addSpan(release.worker_id(), "wait", "wait", pushedAt, now - pushedAt);
    }
    track.released = true;
    track.releasedAt = now;
}

void TraceSink::addTick(const wire::Tick& tick) {
    for (const wire::WorkerStats& w : tick.workers()) m_workers[w.worker_id()].lastComputeMs = w.compute_ms();
    if (!admit(tick.time_s())) return;
    json args = {{"train loss", tick.train_loss()}, {"updates/s", tick.updates_per_s()}};
    if (tick.test_accuracy() >= 0) args["test accuracy"] = tick.test_accuracy();
    put(json{{"name", "training"}, {"ph", "C"}, {"pid", kCoordinatorPid}, {"tid", 0}, {"ts", micros(tick.time_s())},
              {"args", args}}.dump());
}

void TraceSink::addUpdate(const wire::Update& update) {
    if (!admit(update.time_s())) return;
    json workers = json::array();
    uint32_t maxStaleness = 0;
    for (const wire::Contribution& c : update.contributions()) {
        workers.push_back(c.worker_id());
        maxStaleness = std::max(maxStaleness, c.staleness());
    }
    put(json{{"name", "update"}, {"cat", "update"}, {"ph", "i"}, {"s", "t"}, {"pid", kCoordinatorPid},
              {"tid", kUpdatesTid}, {"ts", micros(update.time_s())},
              {"args", {{"version", update.version()}, {"mode", lower(wire::SyncMode_Name(update.mode()))},
                        {"workers", workers}, {"max staleness", maxStaleness}}}}.dump());
}

Status TraceSink::add(const wire::Record& record) {
    if (record.has_release()) addRelease(record.release());
    else if (record.has_tick()) addTick(record.tick());
    else if (record.has_update()) addUpdate(record.update());
    else if (record.has_drop() && admit(record.drop().time_s()))
        put(json{{"name", "dropped gradient"}, {"cat", "drop"}, {"ph", "i"}, {"s", "t"}, {"pid", kWorkersPid},
                  {"tid", record.drop().worker_id()}, {"ts", micros(record.drop().time_s())},
                  {"args", {{"reason", record.drop().reason()}, {"base version", record.drop().base_version()}}}}
                 .dump());
    else if (record.has_event() && admit(record.event().time_s()))
        put(json{{"name", eventKindName(eventKindOf(record.event()))}, {"cat", "control"}, {"ph", "i"}, {"s", "g"},
                  {"pid", kCoordinatorPid}, {"tid", 0}, {"ts", micros(record.event().time_s())},
                  {"args", {{"detail", record.event().detail()}, {"version", record.event().version()}}}}
                 .dump());
    return m_out ? Status::ok() : unavailable("writing the trace failed (is the disk full?)");
}

Status TraceSink::finish() {
    m_out << "\n]}\n";
    m_out.flush();
    return m_out ? Status::ok() : unavailable("writing the trace failed (is the disk full?)");
}

}  // namespace syncscope::engine
