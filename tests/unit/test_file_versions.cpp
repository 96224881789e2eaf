// Files written by an earlier release still open, and a file this build cannot read says which format
// or release wrote it. tests/data/recording-2ca33e8.ssrec was recorded by the engine built at commit
// 2ca33e8 (before recordings named their writer), with its CSV and JSON Lines exports made by that
// same engine beside it (tests/data/README.md says how); this build must read and replay it, export
// the same CSV, and JSON Lines that keeps every field of then.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/checkpoint/checkpoint_file.h"
#include "engine/core/temporary_folder.h"
#include "engine/telemetry/file_versions.h"
#include "engine/telemetry/recording_format.h"
#include "engine/telemetry/recording_reader.h"

namespace {

using namespace syncscope::engine;
namespace wire = syncscope::wire;

const std::string kData = SYNCSCOPE_TEST_DATA_DIR;
const std::string kOldRecording = kData + "/recording-2ca33e8.ssrec";

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::vector<std::string> gunzipLines(const std::string& path) {
    std::string text;
    if (gzFile file = gzopen(path.c_str(), "rb")) {
        char buffer[1 << 16];
        for (int got; (got = gzread(file, buffer, sizeof buffer)) > 0;) text.append(buffer, size_t(got));
        gzclose(file);
    }
    return lines(text);
}

// Whether `now` holds every field of `then` with the same value (objects recursively, and the
// objects in lists element by element: a worker's stats gained fields too).
bool holds(const nlohmann::json& now, const nlohmann::json& then) {
    if (then.is_array()) {
        if (!now.is_array() || now.size() != then.size()) return false;
        for (size_t i = 0; i < then.size(); ++i)
            if (!holds(now[i], then[i])) return false;
        return true;
    }
    if (!then.is_object()) return now == then;
    if (!now.is_object()) return false;
    for (const auto& [key, value] : then.items())
        if (!now.contains(key) || !holds(now[key], value)) return false;
    return true;
}

void spill(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// Runs `syncscope-engine export` on the old recording; its exit status, and the output file's bytes.
std::pair<int, std::string> exportOld(const std::string& format, const std::string& output) {
    const std::string command = std::string(SYNCSCOPE_ENGINE_BINARY) + " export --format " + format + " --output '" +
                                output + "' '" + kOldRecording + "' 2>/dev/null";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(output)};
}

TEST(FileVersions, AnOldRecordingOpensAndReplaysWhole) {
    auto recording = readRecording(kOldRecording);
    ASSERT_TRUE(recording.isOk()) << recording.status().message();
    EXPECT_TRUE(recording->warning.empty()) << recording->warning;
    EXPECT_FALSE(recording->truncatedTail);
    EXPECT_EQ(recording->header.protocol_major(), 1u);
    EXPECT_EQ(recording->header.protocol_minor(), 6u);  // 2ca33e8 spoke protocol 1.6
    EXPECT_TRUE(recording->header.writer().empty());    // and did not name itself yet
    EXPECT_EQ(writerOf(recording->header), "a SyncScope of protocol 1.6");
    size_t ticks = 0, updates = 0, events = 0;
    for (const wire::Record& record : recording->records) {
        ticks += record.has_tick();
        updates += record.has_update();
        events += record.has_event();
    }
    EXPECT_GT(ticks, 10u);
    EXPECT_GT(updates, 10u);
    EXPECT_GE(events, 3u);  // joined workers, start, stop at least
}

TEST(FileVersions, AnOldRecordingExportsAsItDidThen) {
    auto made = TemporaryFolder::create("syncscope-file-versions");
    ASSERT_TRUE(made.isOk()) << made.status().message();
    const TemporaryFolder& folder = *made;
    const auto [csvStatus, csv] = exportOld("csv", folder.path() + "/now.csv");
    ASSERT_EQ(csvStatus, 0);
    const std::string csvThen = slurp(kData + "/recording-2ca33e8.csv");
    ASSERT_FALSE(csvThen.empty());
    EXPECT_EQ(csv, csvThen);
    // JSON Lines: every record holds every field it held then, with the same value; fields added
    // since (the header's writer) may stand beside them.
    const std::string jsonl = folder.path() + "/now.jsonl";
    const auto [jsonlStatus, jsonlBytes] = exportOld("jsonl", jsonl);
    ASSERT_EQ(jsonlStatus, 0);
    const std::vector<std::string> then = gunzipLines(kData + "/recording-2ca33e8.jsonl.gz"), now = lines(jsonlBytes);
    ASSERT_GT(then.size(), 1000u);
    ASSERT_EQ(now.size(), then.size());
    for (size_t i = 0; i < then.size(); ++i) {
        const nlohmann::json before = nlohmann::json::parse(then[i]), after = nlohmann::json::parse(now[i]);
        ASSERT_TRUE(holds(after, before)) << "record " << i << " then: " << then[i] << "\nnow: " << now[i];
    }
}

TEST(FileVersions, FormatsAreReadFromTheSignature) {
    EXPECT_EQ(formatNamed(kRecordingMagic, kRecordingKind), kRecordingFormat);
    EXPECT_EQ(formatNamed("SSREC02\n", "SSREC"), 2u);
    EXPECT_EQ(formatNamed("SSCKPT1\n", "SSCKPT"), 1u);
    EXPECT_FALSE(formatNamed("SSREC\n..", "SSREC"));   // no digits
    EXPECT_FALSE(formatNamed("SSRECx1\n", "SSREC"));   // not digits
    EXPECT_FALSE(formatNamed("PK\x03\x04....", "SSREC"));  // another kind of file
}

TEST(FileVersions, ARecordingOfAnotherFormatIsRefusedByNumber) {
    auto made = TemporaryFolder::create("syncscope-file-versions");
    ASSERT_TRUE(made.isOk()) << made.status().message();
    const TemporaryFolder& folder = *made;
    const std::string path = folder.path() + "/newer.ssrec";
    std::string bytes = slurp(kOldRecording);
    ASSERT_GT(bytes.size(), 8u);
    bytes[6] = '2';  // "SSREC02\n": a later format
    spill(path, bytes);
    auto recording = readRecording(path);
    ASSERT_FALSE(recording.isOk());
    const std::string& message = recording.status().message();
    EXPECT_NE(message.find("format 2"), std::string::npos) << message;
    EXPECT_NE(message.find("reads format 1"), std::string::npos) << message;
    EXPECT_NE(message.find("a newer release wrote it"), std::string::npos) << message;
}

CheckpointData smallCheckpoint() {
    CheckpointData data;
    data.state.set_parameter_count(4);
    data.state.set_version(7);
    data.state.mutable_header()->set_protocol_major(1);
    data.parameters = {1, 2, 3, 4};
    data.momentum = {0, 0, 0, 0};
    return data;
}

TEST(FileVersions, ACheckpointOfANewerReleaseIsRefusedNamingIt) {
    auto made = TemporaryFolder::create("syncscope-file-versions");
    ASSERT_TRUE(made.isOk()) << made.status().message();
    const TemporaryFolder& folder = *made;
    const std::string path = folder.path() + "/a.ssckpt";
    CheckpointData data = smallCheckpoint();
    ASSERT_TRUE(writeCheckpointFile(path, data).isOk());
    ASSERT_TRUE(readCheckpointFile(path).isOk());  // today's release reads its own

    data.state.mutable_header()->set_protocol_major(2);
    data.state.mutable_header()->set_writer("9.0.0");
    ASSERT_TRUE(writeCheckpointFile(path, data).isOk());
    auto newer = readCheckpointFile(path);
    ASSERT_FALSE(newer.isOk());
    EXPECT_NE(newer.status().message().find("written by SyncScope 9.0.0 (protocol 2.0)"), std::string::npos)
        << newer.status().message();

    std::string bytes = slurp(path);
    bytes[6] = '2';  // "SSCKPT2\n"
    spill(path, bytes);
    auto otherFormat = readCheckpointFile(path);
    ASSERT_FALSE(otherFormat.isOk());
    EXPECT_NE(otherFormat.status().message().find("checkpoint in format 2"), std::string::npos)
        << otherFormat.status().message();
}

}  // namespace
