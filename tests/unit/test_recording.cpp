// Run recordings: a written recording reads back equal; a tail cut at any byte, a corrupt frame, a
// missing or foreign file and a full disk each end in the documented way; CSV and JSONL exports.
#include <gtest/gtest.h>
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>
#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "engine/telemetry/recording_export.h"
#include "engine/telemetry/recording_format.h"
#include "engine/telemetry/recording_reader.h"
#include "engine/telemetry/recording_writer.h"
#include "tests/unit/test_support.h"

using namespace syncscope::engine;
namespace wire = syncscope::wire;
using google::protobuf::util::MessageDifferencer;

namespace {

constexpr int kRecordCount = 50;  // every 5th a tick with 3 workers, then an event, update, drop, release

wire::RecordingHeader makeHeader() {
    wire::RecordingHeader header;
    header.set_protocol_major(1);
    header.set_start_unix_ms(1700000000000ULL);
    header.set_expected_workers(3);
    header.mutable_spec()->set_model("mlp");
    header.mutable_mode()->set_mode(wire::SSP);
    return header;
}

wire::Record makeRecord(int i) {
    wire::Record record;
    const double time = 0.1 * i;
    if (i % 5 == 0) {
        wire::Tick* tick = record.mutable_tick();
        tick->set_time_s(time);
        tick->set_version(static_cast<uint64_t>(i));
        tick->mutable_mode()->set_mode(wire::SSP);
        tick->set_learning_rate(0.05f);
        tick->set_train_loss(2.5 - 0.01 * i);
        tick->set_test_accuracy(i == 0 ? -1.0 : 0.5 + 0.005 * i);
        tick->set_pushed(static_cast<uint64_t>(10 * i));
        for (uint32_t w = 0; w < 3; ++w) {
            wire::WorkerStats* stats = tick->add_workers();
            stats->set_worker_id(w);
            stats->set_state(w == 2 ? wire::WORKER_WAITING : wire::WORKER_COMPUTING);
            stats->set_samples_per_s(100.5 + i + 0.25 * w);
            stats->add_staleness_histogram(static_cast<uint64_t>(i));
        }
    } else if (i % 5 == 1) {
        wire::Event* event = record.mutable_event();
        event->set_time_s(time);
        event->set_kind(wire::EVENT_MODE);
        event->set_pushed(7);
        event->set_detail("mode ssp, s=3 \"fast\"");  // needs quoting in CSV
    } else if (i % 5 == 2) {
        wire::Update* update = record.mutable_update();
        update->set_time_s(time);
        update->set_version(static_cast<uint64_t>(i));
        update->add_contributions()->set_worker_id(1);
        update->add_contributions()->set_staleness(2);
    } else if (i % 5 == 3) {
        record.mutable_drop()->set_worker_id(2);
        record.mutable_drop()->set_reason("too stale");
    } else {
        record.mutable_release()->set_clock(static_cast<uint64_t>(i));
    }
    return record;
}

// Byte offset of each record's frame; the last entry is the size of the whole file.
std::vector<size_t> frameOffsets(const wire::RecordingHeader& header, const std::vector<wire::Record>& records) {
    std::vector<size_t> offsets{kRecordingMagic.size() + kFrameHeaderBytes + header.ByteSizeLong()};
    for (const auto& r : records) offsets.push_back(offsets.back() + kFrameHeaderBytes + r.ByteSizeLong());
    return offsets;
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// `read` holds exactly the first `count` records of `written`.
bool sameRecords(const std::vector<wire::Record>& read, const std::vector<wire::Record>& written, size_t count) {
    const auto equal = [](const wire::Record& a, const wire::Record& b) { return MessageDifferencer::Equals(a, b); };
    return read.size() == count && std::equal(read.begin(), read.end(), written.begin(), equal);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Splits on every `separator`, quotes or not: "a,b," gives {"a", "b", ""}.
std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts(1);
    for (char c : text) {
        if (c == separator) parts.emplace_back();
        else parts.back() += c;
    }
    return parts;
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines = split(text, '\n');
    lines.pop_back();  // what follows the last newline
    return lines;
}

}  // namespace

class TestRecording : public ::testing::Test {
protected:
    void SetUp() override {
        m_path = m_dir.filePath("run.ssrec");
        m_records.clear();
        for (int i = 0; i < kRecordCount; ++i) m_records.push_back(makeRecord(i));
        auto writer = RecordingWriter::create(m_path, makeHeader());
        ASSERT_TRUE(writer) << writer.status().message().c_str();
        for (const auto& record : m_records) ASSERT_TRUE((*writer)->append(record));
        ASSERT_TRUE((*writer)->flush());
        writer->reset();
        m_bytes = readBytes(m_path);
        m_offsets = frameOffsets(makeHeader(), m_records);
        ASSERT_EQ(m_bytes.size(), m_offsets.back());
    }

    // Replaces the recording's bytes with `bytes` and reads it again.
    Result<Recording> readInstead(const std::string& bytes) {
        writeBytes(m_path, bytes);
        return readRecording(m_path);
    }

    syncscope::testing::TempDir m_dir;
    std::string m_path;
    std::string m_bytes;
    std::vector<wire::Record> m_records;
    std::vector<size_t> m_offsets;
};

TEST_F(TestRecording, readsBackWhatWasWritten) {
    auto read = readRecording(m_path);
    ASSERT_TRUE(read) << read.status().message().c_str();
    ASSERT_TRUE(MessageDifferencer::Equals(read->header, makeHeader()));
    ASSERT_TRUE(sameRecords(read->records, m_records, kRecordCount));
    ASSERT_TRUE(!read->truncatedTail && read->warning.empty());
}

TEST_F(TestRecording, tailCutAtEveryByteOfTheLastFrame) {
    const size_t lastStart = m_offsets[kRecordCount - 1];
    for (size_t keep = lastStart; keep < m_bytes.size(); ++keep) {
        auto read = readInstead(m_bytes.substr(0, keep));
        ASSERT_TRUE(read) << read.status().message().c_str();
        ASSERT_TRUE(sameRecords(read->records, m_records, kRecordCount - 1));
        ASSERT_EQ(read->truncatedTail, keep > lastStart);
        const std::string discarded = "discarded the last " + std::to_string(keep - lastStart) + " bytes";
        const bool warned = keep > lastStart ? contains(read->warning, discarded) : read->warning.empty();
        ASSERT_TRUE(warned) << read->warning.c_str();
    }
}

TEST_F(TestRecording, tailCutInTheMiddle) {
    auto read = readInstead(m_bytes.substr(0, m_offsets[20] + 5));
    ASSERT_TRUE(read && sameRecords(read->records, m_records, 20) && read->truncatedTail);
}

// A crashed run's recording continued by a resumed one: the torn last frame is cut off, the
// header kept, and what the resumed run writes follows the last whole record.
TEST_F(TestRecording, resumeCutsTheTornTailAndContinues) {
    writeBytes(m_path, m_bytes.substr(0, m_offsets[30] + 7));  // the crash tore record 30
    wire::RecordingHeader header;
    auto writer = RecordingWriter::resume(m_path, &header);
    ASSERT_TRUE(writer) << writer.status().message().c_str();
    ASSERT_TRUE(MessageDifferencer::Equals(header, makeHeader()));
    for (size_t i = 30; i < m_records.size(); ++i) ASSERT_TRUE((*writer)->append(m_records[i]));
    ASSERT_TRUE((*writer)->flush());
    writer->reset();
    ASSERT_EQ(readBytes(m_path), m_bytes);  // byte for byte what an uninterrupted run wrote
}

TEST_F(TestRecording, corruptFrameStopsTheRead) {
    std::string bytes = m_bytes;
    bytes[m_offsets[25] + kFrameHeaderBytes + 1] ^= 0x40;  // inside record 25's payload
    auto read = readInstead(bytes);
    ASSERT_TRUE(read && sameRecords(read->records, m_records, 25) && !read->truncatedTail);
    const std::string where = "byte offset " + std::to_string(m_offsets[25]) + " (record 25";
    ASSERT_TRUE(contains(read->warning, where) && contains(read->warning, "checksum")) << read->warning.c_str();

    bytes = m_bytes;
    bytes.replace(m_offsets[30], 4, "\xff\xff\xff\xff");  // a garbage length
    read = readInstead(bytes);
    ASSERT_TRUE(read && sameRecords(read->records, m_records, 30));
    ASSERT_TRUE(contains(read->warning, "limit")) << read->warning.c_str();

    const std::string junk = "\xff\xff\xff";  // checksummed correctly, but no protobuf message
    const auto frameHeader = encodeFrameHeader(junk);
    read = readInstead(m_bytes + std::string(frameHeader.data(), frameHeader.size()) + junk);
    ASSERT_TRUE(read && sameRecords(read->records, m_records, kRecordCount));
    ASSERT_TRUE(contains(read->warning, "not a syncscope.wire.Record")) << read->warning.c_str();
}

TEST_F(TestRecording, missingOrForeignFiles) {
    const std::string missing = m_dir.filePath("nowhere.ssrec");
    auto read = readRecording(missing);
    ASSERT_TRUE(!read);
    ASSERT_EQ(read.status().code(), StatusCode::NotFound);
    ASSERT_TRUE(contains(read.status().message(), missing)) << read.status().message().c_str();

    for (const std::string& bytes : {std::string("hello, world\n"), std::string(), m_bytes.substr(0, 12)}) {
        read = readInstead(bytes);
        ASSERT_TRUE(!read);
        ASSERT_EQ(read.status().code(), StatusCode::DataLoss);
        const std::string& message = read.status().message();
        ASSERT_TRUE(contains(message, "is not a SyncScope recording")) << message.c_str();
    }
}

TEST_F(TestRecording, fullDiskWhenCreating) {
    if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
    auto writer = RecordingWriter::create("/dev/full", makeHeader());
    ASSERT_TRUE(!writer);
    const std::string& message = writer.status().message();
    ASSERT_TRUE(contains(message, "'/dev/full': No space left on device") && contains(message, "free disk space")) << message.c_str();
}

// The disk fills up mid-run (a file-size limit stands in for it): the writer reports it, keeps
// what comes meanwhile in memory, and once there is space again writes on from the byte where
// it stopped: every record reads back, in order, once, and the file ends whole.
TEST_F(TestRecording, fullDiskMidRunResumesWhenSpaceReturns) {
    rlimit old{};
    ASSERT_TRUE(getrlimit(RLIMIT_FSIZE, &old) == 0);
    rlimit small = old;
    small.rlim_cur = m_offsets[35] + 10;  // the disk fills up inside record 35
    if (setrlimit(RLIMIT_FSIZE, &small) != 0) GTEST_SKIP() << "cannot lower RLIMIT_FSIZE here";
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);  // past the limit, write(2) fails with EFBIG
    auto writer = RecordingWriter::create(m_path, makeHeader());
    Status firstFailure;
    size_t failedAt = m_records.size();
    for (size_t i = 0; writer && i < m_records.size(); ++i) {
        Status s = (*writer)->append(m_records[i]);
        if (s) s = (*writer)->flush();
        if (!s && failedAt == m_records.size()) {
            failedAt = i;
            firstFailure = s;
        }
    }
    const bool failingWhileFull = writer && (*writer)->failing();
    const size_t sizeWhileFull = readBytes(m_path).size();
    setrlimit(RLIMIT_FSIZE, &old);  // space again
    const Status retried = writer ? (*writer)->flush() : Status::ok();
    const uint64_t dropped = writer ? (*writer)->droppedRecords() : 1;
    if (writer) writer->reset();
    std::signal(SIGXFSZ, oldHandler);

    ASSERT_TRUE(writer);
    ASSERT_TRUE(!firstFailure.isOk() && contains(firstFailure.message(), "free disk space")) << firstFailure.message().c_str();
    ASSERT_EQ(failedAt, size_t(35));
    ASSERT_TRUE(failingWhileFull);
    ASSERT_EQ(sizeWhileFull, size_t(small.rlim_cur));
    ASSERT_TRUE(retried) << retried.message().c_str();
    ASSERT_EQ(dropped, uint64_t(0));
    auto read = readRecording(m_path);
    ASSERT_TRUE(read) << read.status().message().c_str();
    ASSERT_TRUE(!read->truncatedTail);
    ASSERT_EQ(read->records.size(), m_records.size());
    ASSERT_TRUE(sameRecords(read->records, m_records, m_records.size()));
}

TEST_F(TestRecording, csvExport) {
    auto read = readRecording(m_path);
    ASSERT_TRUE(read);
    std::ostringstream out;
    const Status s = exportCsv(*read, out);
    ASSERT_TRUE(s) << s.message().c_str();
    const auto lines = splitLines(out.str());
    ASSERT_EQ(lines.size(), size_t(1 + 10 * 4 + 10));  // header, 10 ticks x (tick + 3 workers), 10 events
    ASSERT_EQ(lines[0], std::string("record,time_s,version,mode,learning_rate,train_loss,test_accuracy,"
                                   "updates_per_s,worker_id,state,group,batch_size,samples_per_s,"
                                   "iterations_per_s,compute_ms,comm_ms,wait_ms,staleness_mean,pushed,applied,"
                                   "dropped,event_kind,event_detail"));
    const auto tick = split(lines[1], ',');
    ASSERT_EQ(tick.size(), size_t(23));
    ASSERT_EQ(tick[0] + "|" + tick[3] + "|" + tick[6] + "|" + tick[8], std::string("tick|ssp||"));
    const auto worker = split(lines[3], ',');  // tick 0, worker 1
    ASSERT_EQ(worker[0] + "|" + worker[4] + "|" + worker[8] + "|" + worker[9] + "|" + worker[12],
              std::string("worker|0.05|1|computing|100.75"));
    ASSERT_EQ(split(lines[4], ',')[9], std::string("waiting"));
    ASSERT_EQ(lines[5], std::string("event,0.1,0,,,,,,,,,,,,,,,,7,0,0,mode,\"mode ssp, s=3 \"\"fast\"\"\""));
}

TEST_F(TestRecording, jsonLinesExport) {
    auto read = readRecording(m_path);
    ASSERT_TRUE(read);
    std::ostringstream out;
    const Status s = exportJsonLines(*read, out);
    ASSERT_TRUE(s) << s.message().c_str();
    const auto lines = splitLines(out.str());
    ASSERT_EQ(lines.size(), size_t(1 + kRecordCount));
    ASSERT_TRUE(lines[0].starts_with("{\"header\":{\"protocol_major\":1,")) << lines[0].c_str();
    ASSERT_TRUE(lines[1].starts_with("{\"tick\":{") && contains(lines[1], "\"samples_per_s\":100.5")) << lines[1].c_str();
    for (int i = 0; i < kRecordCount; ++i) {
        wire::Record back;
        ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(lines[i + 1], &back).ok());
        ASSERT_TRUE(MessageDifferencer::Equals(back, m_records[i])) << lines[i + 1].c_str();
    }
}

