// Exporting a recording for other tools: CSV for the time series a person plots, JSON Lines for
// every record with nothing left out.
#pragma once

#include <ostream>

#include <string>

#include "engine/core/status.h"
#include "engine/telemetry/recording_reader.h"
#include "engine/telemetry/recording_sink.h"

namespace syncscope::engine {

/// The CSV below, a record at a time.
class CsvSink final : public RecordingSink {
public:
    explicit CsvSink(std::ostream& out);
    Status begin(const wire::RecordingHeader& header) override;
    Status add(const wire::Record& record) override;
    Status finish() override;

private:
    std::ostream& m_out;
};

/// The JSON Lines below, a record at a time.
class JsonLinesSink final : public RecordingSink {
public:
    explicit JsonLinesSink(std::ostream& out);
    Status begin(const wire::RecordingHeader& header) override;
    Status add(const wire::Record& record) override;
    Status finish() override;

private:
    std::ostream& m_out;
    std::string m_json;
};

/// Feeds a recording held in memory through `sink`.
Status exportRecording(const Recording& recording, RecordingSink& sink);

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
