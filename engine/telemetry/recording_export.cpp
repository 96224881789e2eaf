// CSV and JSON Lines export of a recording (see recording_export.h), as streaming sinks.
#include "engine/telemetry/recording_export.h"

#include "engine/telemetry/event_kind.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string>
#include <string_view>

namespace syncscope::engine {
namespace {

enum Column {
    RecordKind, TimeS, Version, Mode, LearningRate, TrainLoss, TestAccuracy, UpdatesPerS,
    WorkerId, State, Group, BatchSize, SamplesPerS, IterationsPerS, ComputeMs, CommMs, WaitMs, StalenessMean,
    Pushed, Applied, Dropped, EventKind, EventDetail, ColumnCount
};

constexpr std::array<std::string_view, ColumnCount> kColumnNames = {
    "record", "time_s", "version", "mode", "learning_rate", "train_loss", "test_accuracy", "updates_per_s",
    "worker_id", "state", "group", "batch_size", "samples_per_s", "iterations_per_s", "compute_ms", "comm_ms",
    "wait_ms", "staleness_mean", "pushed", "applied", "dropped", "event_kind", "event_detail"};

using Row = std::array<std::string, ColumnCount>;

// The shortest text that reads back as the same value.
template <typename T>
std::string number(T value) {
    char text[64];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

std::string lowercase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

// "bsp", "ssp", ...; empty when unset.
std::string modeName(wire::SyncMode mode) {
    return mode == wire::SYNC_MODE_UNSPECIFIED ? std::string() : lowercase(wire::SyncMode_Name(mode));
}

// "computing", "waiting", ...; empty when unset.
std::string stateName(wire::WorkerState state) {
    if (state == wire::WORKER_STATE_UNSPECIFIED) return {};
    std::string name = wire::WorkerState_Name(state);
    constexpr std::string_view prefix = "WORKER_";
    if (name.starts_with(prefix)) name.erase(0, prefix.size());
    return lowercase(name);
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

void writeRow(std::ostream& out, const Row& row) {
    for (size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << csvField(row[i]);
    out << '\n';
}

Row tickColumns(const wire::Tick& tick, const char* kind) {
    Row row;
    row[RecordKind] = kind;
    row[TimeS] = number(tick.time_s());
    row[Version] = number(tick.version());
    row[Mode] = modeName(tick.mode().mode());
    row[LearningRate] = number(tick.learning_rate());
    row[TrainLoss] = number(tick.train_loss());
    if (tick.test_accuracy() >= 0) row[TestAccuracy] = number(tick.test_accuracy());  // negative: not evaluated yet
    row[UpdatesPerS] = number(tick.updates_per_s());
    return row;
}

void writeTick(std::ostream& out, const wire::Tick& tick) {
    Row totals = tickColumns(tick, "tick");
    totals[Pushed] = number(tick.pushed());
    totals[Applied] = number(tick.applied());
    totals[Dropped] = number(tick.dropped());
    writeRow(out, totals);
    for (const wire::WorkerStats& w : tick.workers()) {
        Row row = tickColumns(tick, "worker");
        row[WorkerId] = number(w.worker_id());
        row[State] = stateName(w.state());
        row[Group] = number(w.group());
        row[BatchSize] = number(w.batch_size());
        row[SamplesPerS] = number(w.samples_per_s());
        row[IterationsPerS] = number(w.iterations_per_s());
        row[ComputeMs] = number(w.compute_ms());
        row[CommMs] = number(w.comm_ms());
        row[WaitMs] = number(w.wait_ms());
        row[StalenessMean] = number(w.staleness_mean());
        row[Pushed] = number(w.pushed());
        row[Applied] = number(w.applied());
        row[Dropped] = number(w.dropped());
        writeRow(out, row);
    }
}

void writeEvent(std::ostream& out, const wire::Event& event) {
    Row row;
    row[RecordKind] = "event";
    row[TimeS] = number(event.time_s());
    row[Version] = number(event.version());
    row[Pushed] = number(event.pushed());  // run totals when the event took effect
    row[Applied] = number(event.applied());
    row[Dropped] = number(event.dropped());
    row[EventKind] = eventKindName(eventKindOf(event));
    row[EventDetail] = event.detail();
    writeRow(out, row);
}

Status toJson(const google::protobuf::Message& message, std::string& json) {
    google::protobuf::util::JsonPrintOptions options;
    options.preserve_proto_field_names = true;
    options.always_print_primitive_fields = true;
    json.clear();
    const auto status = google::protobuf::util::MessageToJsonString(message, &json, options);
    if (status.ok()) return Status::ok();
    return Status(StatusCode::Internal,
                  "cannot convert a " + message.GetTypeName() + " to JSON: " + std::string(status.message()));
}

Status streamStatus(const std::ostream& out) {
    if (out) return Status::ok();
    return unavailable("writing the export failed part-way (is the disk full, or was the output closed?)");
}

}  // namespace

CsvSink::CsvSink(std::ostream& out) : m_out(out) {}

Status CsvSink::begin(const wire::RecordingHeader&) {
    Row header;
    std::copy(kColumnNames.begin(), kColumnNames.end(), header.begin());
    writeRow(m_out, header);
    return streamStatus(m_out);
}

Status CsvSink::add(const wire::Record& record) {
    if (record.has_tick()) writeTick(m_out, record.tick());
    else if (record.has_event()) writeEvent(m_out, record.event());
    return streamStatus(m_out);
}

Status CsvSink::finish() {
    m_out.flush();
    return streamStatus(m_out);
}

JsonLinesSink::JsonLinesSink(std::ostream& out) : m_out(out) {}

Status JsonLinesSink::begin(const wire::RecordingHeader& header) {
    if (Status s = toJson(header, m_json); !s) return s;
    m_out << "{\"header\":" << m_json << "}\n";
    return streamStatus(m_out);
}

Status JsonLinesSink::add(const wire::Record& record) {
    if (Status s = toJson(record, m_json); !s) return s;
    m_out << m_json << '\n';
    return streamStatus(m_out);
}

Status JsonLinesSink::finish() {
    m_out.flush();
    return streamStatus(m_out);
}

Status exportRecording(const Recording& recording, RecordingSink& sink) {
    if (Status s = sink.begin(recording.header); !s) return s;
    for (const wire::Record& record : recording.records)
        if (Status s = sink.add(record); !s) return s;
    return sink.finish();
}

Status exportCsv(const Recording& recording, std::ostream& out) {
    CsvSink sink(out);
    return exportRecording(recording, sink);
}

Status exportJsonLines(const Recording& recording, std::ostream& out) {
    JsonLinesSink sink(out);
    return exportRecording(recording, sink);
}

}  // namespace syncscope::engine
