// TensorBoard export: a reader of its own (bitwise CRC-32C, TensorFlow's field numbers decoded by
// hand from protobuf's unknown-field view, not the writer's generated classes) checks every CRC and
// decodes every record of every event file; a flipped byte anywhere fails it; the values are the
// recording's.
#include <gtest/gtest.h>
#include <google/protobuf/unknown_field_set.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/telemetry/export_file.h"
#include "engine/telemetry/tfrecord.h"
#include "tests/unit/synthetic_run.h"
#include "tests/unit/test_support.h"

using namespace syncscope::engine;
using google::protobuf::UnknownField;
using google::protobuf::UnknownFieldSet;
namespace fs = std::filesystem;

namespace {

// CRC-32C bit by bit (reflected Castagnoli polynomial 0x82F63B78), independent of ISA-L.
uint32_t referenceCrc32c(const std::string& bytes) {
    uint32_t crc = 0xFFFFFFFFu;
    for (unsigned char byte : bytes) {
        crc ^= byte;
        for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    }
    return ~crc;
}

// TensorFlow's record mask (tensorflow/core/lib/hash/crc32c.h).
uint32_t referenceMask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

uint64_t littleEndian(const std::string& bytes, size_t at, int size) {
    uint64_t value = 0;
    for (int i = 0; i < size; ++i) value |= uint64_t(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return value;
}

// Every record's payload, or the first problem found.
struct TfRecordRead {
    std::vector<std::string> payloads;
    std::string error;
};

TfRecordRead readTfRecords(const std::string& bytes) {
    TfRecordRead read;
    for (size_t at = 0; at < bytes.size();) {
        if (bytes.size() - at < 12) return read.error = "a partial header at " + std::to_string(at), read;
        const uint64_t length = littleEndian(bytes, at, 8);
        if (referenceMask(referenceCrc32c(bytes.substr(at, 8))) != littleEndian(bytes, at + 8, 4))
            return read.error = "length CRC mismatch at " + std::to_string(at), read;
        if (bytes.size() - at - 12 < length + 4) return read.error = "a partial record at " + std::to_string(at), read;
        std::string payload = bytes.substr(at + 12, length);
        if (referenceMask(referenceCrc32c(payload)) != littleEndian(bytes, at + 12 + length, 4))
            return read.error = "data CRC mismatch at " + std::to_string(at), read;
        read.payloads.push_back(std::move(payload));
        at += 12 + length + 4;
    }
    return read;
}

// One Summary.Value, decoded by TensorFlow's field numbers.
struct Value {
    std::string tag, pluginName;
    bool hasSimpleValue = false;
    float simpleValue = 0;
    int64_t dtype = 0;
    std::vector<std::string> strings;
};

struct Event {
    double wallTime = 0;
    int64_t step = 0;
    std::string fileVersion;
    std::vector<Value> values;
};

bool parse(const std::string& bytes, UnknownFieldSet& fields) { return fields.ParseFromString(bytes); }

template <typename T>
T bitsAs(uint64_t bits) {
    T value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

bool decodeValue(const std::string& bytes, Value& value) {
    UnknownFieldSet fields;
    if (!parse(bytes, fields)) return false;
    for (int i = 0; i < fields.field_count(); ++i) {
        const UnknownField& f = fields.field(i);
        if (f.number() == 1) value.tag = f.length_delimited();  // Value.tag
        if (f.number() == 2) value.hasSimpleValue = true, value.simpleValue = bitsAs<float>(f.fixed32());
        if (f.number() == 8) {  // Value.tensor: TensorProto
            UnknownFieldSet tensor;
            if (!parse(f.length_delimited(), tensor)) return false;
            for (int j = 0; j < tensor.field_count(); ++j) {
                if (tensor.field(j).number() == 1) value.dtype = static_cast<int64_t>(tensor.field(j).varint());
                if (tensor.field(j).number() == 8) value.strings.push_back(tensor.field(j).length_delimited());
            }
        }
        if (f.number() == 9) {  // Value.metadata -> plugin_data (1) -> plugin_name (1)
            UnknownFieldSet metadata, plugin;
            if (!parse(f.length_delimited(), metadata)) return false;
            for (int j = 0; j < metadata.field_count(); ++j)
                if (metadata.field(j).number() == 1 && parse(metadata.field(j).length_delimited(), plugin))
                    for (int k = 0; k < plugin.field_count(); ++k)
                        if (plugin.field(k).number() == 1) value.pluginName = plugin.field(k).length_delimited();
        }
    }
    return true;
}

bool decodeEvent(const std::string& bytes, Event& event) {
    UnknownFieldSet fields;
    if (!parse(bytes, fields)) return false;
    for (int i = 0; i < fields.field_count(); ++i) {
        const UnknownField& f = fields.field(i);
        if (f.number() == 1) event.wallTime = bitsAs<double>(f.fixed64());
        if (f.number() == 2) event.step = static_cast<int64_t>(f.varint());
        if (f.number() == 3) event.fileVersion = f.length_delimited();
        if (f.number() == 5) {  // Event.summary: repeated Value value = 1
            UnknownFieldSet summary;
            if (!parse(f.length_delimited(), summary)) return false;
            for (int j = 0; j < summary.field_count(); ++j) {
                event.values.emplace_back();
                if (summary.field(j).number() != 1 || !decodeValue(summary.field(j).length_delimited(), event.values.back()))
                    return false;
            }
        }
    }
    return true;
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// All events of the one event file in `folder`; fails the test on any CRC or decoding problem.
std::vector<Event> readRun(const fs::path& folder, std::string* problem) {
    std::vector<Event> events;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder))
        if (entry.is_regular_file() && entry.path().filename().string().find("tfevents") != std::string::npos)
            files.push_back(entry.path());
    if (files.size() != 1) return *problem = std::to_string(files.size()) + " event files in " + folder.string(), events;
    const TfRecordRead read = readTfRecords(readBytes(files[0].string()));
    if (!read.error.empty()) return *problem = read.error, events;
    for (const std::string& payload : read.payloads) {
        events.emplace_back();
        if (!decodeEvent(payload, events.back())) return *problem = "an undecodable Event", events;
    }
    return events;
}

std::vector<std::pair<int64_t, float>> scalars(const std::vector<Event>& events, const std::string& tag) {
    std::vector<std::pair<int64_t, float>> points;
    for (const Event& e : events)
        for (const Value& v : e.values)
            if (v.tag == tag && v.hasSimpleValue) points.emplace_back(e.step, v.simpleValue);
    return points;
}

}  // namespace

class TestTfEvents : public ::testing::Test {
protected:
    void SetUp() override {
        m_recording = m_dir.filePath("run.ssrec");
        ASSERT_TRUE(synthetic::write(m_run, m_recording));
    }

    fs::path exportTo(const char* name) {
        ExportRequest request;
        request.recording = m_recording;
        request.format = ExportFormat::TfEvents;
        request.output = (fs::path(m_dir.path()) / name).string();
        std::ostringstream unused;
        auto result = exportRecordingFile(request, unused);
        if (!result) throw std::runtime_error("export failed: " + result.status().message());
        if (result->files.size() != 1 + synthetic::kWorkers)
            throw std::runtime_error(std::to_string(result->files.size()) + " event files");
        return request.output;
    }

    syncscope::testing::TempDir m_dir;
    synthetic::Run m_run = synthetic::make();
    std::string m_recording;
};

TEST_F(TestTfEvents, crc32cIsTheCastagnoliCrc) {
    ASSERT_EQ(crc32c("123456789"), 0xE3069283u);  // the standard check value
    ASSERT_EQ(referenceCrc32c("123456789"), 0xE3069283u);
    std::mt19937 random(7);
    for (size_t size : {0, 1, 3, 8, 15, 64, 1000, 4099}) {
        std::string bytes(size, '\0');
        for (char& c : bytes) c = static_cast<char>(random());
        ASSERT_EQ(crc32c(bytes), referenceCrc32c(bytes));
        ASSERT_EQ(maskedCrc32c(bytes), referenceMask(referenceCrc32c(bytes)));
    }
}

TEST_F(TestTfEvents, everyRecordChecksAndDecodes) {
    const fs::path folder = exportTo("tb");
    for (const fs::path& run : {folder, folder / "worker_0", folder / "worker_1"}) {
        std::string problem;
        const std::vector<Event> events = readRun(run, &problem);
        ASSERT_TRUE(problem.empty()) << run.string() + ": " + problem;
        ASSERT_TRUE(events.size() > 1);
        ASSERT_EQ(events.front().fileVersion, std::string("brain.Event:2"));
        ASSERT_FUZZY_EQ(events.front().wallTime, synthetic::kStartUnixMs / 1000.0);
        for (size_t i = 1; i < events.size(); ++i)  // TensorBoard drops points behind a step that went back
            ASSERT_TRUE(events[i].step >= events[i - 1].step) << run.string();
    }
}

TEST_F(TestTfEvents, scalarsAreTheRecordedValues) {
    const fs::path folder = exportTo("values");
    std::string problem;
    const std::vector<Event> job = readRun(folder, &problem);
    ASSERT_TRUE(problem.empty()) << problem.c_str();
    const auto loss = scalars(job, "loss/train");
    ASSERT_EQ(int(loss.size()), m_run.ticks);
    for (int i = 0; i < m_run.ticks; ++i) {
        ASSERT_EQ(loss[i].first, int64_t(10 * i));
        ASSERT_FUZZY_EQ(loss[i].second, float(synthetic::lossAt(i)));
    }
    ASSERT_EQ(int(scalars(job, "accuracy/test").size()), m_run.evaluations);
    ASSERT_FUZZY_EQ(scalars(job, "accuracy/test").front().second, 0.51f);
    ASSERT_EQ(int(scalars(job, "throughput/updates_per_s").size()), m_run.ticks);
    const std::vector<Event> worker1 = readRun(folder / "worker_1", &problem);
    ASSERT_TRUE(problem.empty()) << problem.c_str();
    const auto speed = scalars(worker1, "worker/samples_per_s");
    ASSERT_EQ(int(speed.size()), m_run.ticks);
    ASSERT_FUZZY_EQ(speed[3].second, float(synthetic::samplesPerSecond(3, 1)));
    ASSERT_FUZZY_EQ(scalars(worker1, "worker/staleness_mean").front().second, 0.5f);
    ASSERT_FUZZY_EQ(scalars(worker1, "worker/compute_ms").front().second, 20.0f);
}

TEST_F(TestTfEvents, controlEventsAreTextSummaries) {
    const fs::path folder = exportTo("text");
    std::string problem;
    const std::vector<Event> job = readRun(folder, &problem);
    ASSERT_TRUE(problem.empty()) << problem.c_str();
    std::vector<std::string> texts;
    for (const Event& e : job)
        for (const Value& v : e.values)
            if (v.tag == "events/control") {
                ASSERT_EQ(v.pluginName, std::string("text"));
                ASSERT_EQ(v.dtype, int64_t(7));  // DT_STRING
                ASSERT_EQ(v.strings.size(), size_t(1));
                texts.push_back(v.strings[0]);
            }
    ASSERT_EQ(int(texts.size()), m_run.events);
    ASSERT_TRUE(texts[1].find("**mode**") == 0) << texts[1].c_str();
    ASSERT_TRUE(texts[1].find(synthetic::kUnicodeDetail) != std::string::npos) << texts[1].c_str();
}

TEST_F(TestTfEvents, aFlippedByteAnywhereFails) {
    const fs::path folder = exportTo("flip");
    fs::path file;
    for (const auto& entry : fs::directory_iterator(folder))
        if (entry.is_regular_file()) file = entry.path();
    const std::string bytes = readBytes(file.string());
    ASSERT_TRUE(readTfRecords(bytes).error.empty());
    for (size_t at = 0; at < bytes.size(); ++at) {
        std::string flipped = bytes;
        flipped[at] = static_cast<char>(flipped[at] ^ 0x10);
        ASSERT_TRUE(!readTfRecords(flipped).error.empty()) << "byte " << at << " flipped went unnoticed";
    }
}

TEST_F(TestTfEvents, cancelledExportLeavesNoFiles) {
    ExportRequest request;
    request.recording = m_recording;
    request.format = ExportFormat::TfEvents;
    request.output = m_dir.filePath("cancelled");
    std::ostringstream unused;
    int calls = 0;
    auto result = exportRecordingFile(request, unused, [&](uint64_t, uint64_t) { return ++calls < 20; });
    ASSERT_TRUE(!result);
    ASSERT_EQ(result.status().code(), StatusCode::Cancelled);
    ASSERT_EQ(calls, 20);
    for (const auto& entry : fs::recursive_directory_iterator(request.output))
        ASSERT_TRUE(!entry.is_regular_file()) << entry.path().c_str();
}

TEST_F(TestTfEvents, refusesAFileAsTheFolder) {
    ExportRequest request;
    request.recording = m_recording;
    request.format = ExportFormat::TfEvents;
    request.output = m_recording;  // a file, not a folder
    std::ostringstream unused;
    auto result = exportRecordingFile(request, unused);
    ASSERT_TRUE(!result);
    ASSERT_TRUE(result.status().message().find(m_recording) != std::string::npos) << result.status().message().c_str();
}
