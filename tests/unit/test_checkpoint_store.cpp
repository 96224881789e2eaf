// CheckpointStore and checkpoint files: what is written reads back bit for bit; a torn or corrupt
// file is refused and the newest whole one is used instead (with the skipped one named); pruning
// keeps the newest periodic checkpoints and those before changes up to their own bound; a rollback
// finds the checkpoint of its own run, not another run's with the same change number.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/checkpoint/checkpoint_store.h"
#include "tests/unit/test_support.h"

using namespace syncscope::engine;
namespace wire = syncscope::wire;
namespace fs = std::filesystem;
using syncscope::testing::TempDir;

namespace {

CheckpointData makeCheckpoint(uint64_t runId, uint64_t version, uint64_t changeId, size_t count = 1000) {
    CheckpointData data;
    data.state.mutable_header()->set_run_id(runId);
    data.state.set_version(version);
    data.state.set_change_id(changeId);
    data.state.set_parameter_count(count);
    data.state.set_reason(changeId ? "before change" : "periodic");
    for (size_t i = 0; i < count; ++i) {
        data.parameters.push_back(float(version) + 0.001f * float(i));
        data.momentum.push_back(-0.5f * float(i));
    }
    return data;
}

std::vector<std::string> files(const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& item : std::filesystem::directory_iterator(folder))
        names.push_back(item.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

TEST(TestCheckpointStore, writesAndReadsBackExactly) {
    TempDir dir;
    const std::string path = dir.filePath("one.ssckpt");
    const CheckpointData written = makeCheckpoint(7, 42, 0);
    ASSERT_TRUE(writeCheckpointFile(path, written));
    auto read = readCheckpointFile(path);
    ASSERT_TRUE(read) << read.status().message().c_str();
    ASSERT_EQ(read->state.version(), uint64_t(42));
    ASSERT_TRUE(read->parameters == written.parameters && read->momentum == written.momentum);
    ASSERT_EQ(fs::status(path).permissions() & (fs::perms::others_read | fs::perms::group_read), fs::perms::none);
}

TEST(TestCheckpointStore, tornOrCorruptFileIsRefused) {
    TempDir dir;
    const std::string path = dir.filePath("one.ssckpt");
    ASSERT_TRUE(writeCheckpointFile(path, makeCheckpoint(7, 42, 0)));
    const auto size = std::filesystem::file_size(path);
    for (const auto cut : {size_t(0), size_t(5), size_t(100), size_t(size - 1)}) {
        std::filesystem::resize_file(path, cut);
        ASSERT_TRUE(!readCheckpointFile(path)) << "accepted a file cut to " << cut << " bytes";
        ASSERT_TRUE(writeCheckpointFile(path, makeCheckpoint(7, 42, 0)));
    }
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(std::streamoff(size / 2));
        f.put('\x5a');
    }
    auto read = readCheckpointFile(path);
    ASSERT_TRUE(!read);
    ASSERT_TRUE(read.status().message().find("one.ssckpt") != std::string::npos) << read.status().message().c_str();
}

TEST(TestCheckpointStore, newestWholeOneIsUsedAndTheOthersNamed) {
    TempDir dir;
    auto store = CheckpointStore::open(dir.path(), {3, 5});
    ASSERT_TRUE(store) << store.status().message().c_str();
    for (uint64_t v : {10, 20, 30}) {
        (*store)->write(makeCheckpoint(7, v, 0));
        (*store)->flush();  // a periodic one still queued would be superseded by the next
    }
    const auto entries = (*store)->list();
    ASSERT_EQ(entries.size(), size_t(3));
    std::filesystem::resize_file(entries.back().path, 64);  // the machine died while it was written
    std::vector<std::string> skipped;
    auto newest = (*store)->newest(&skipped);
    ASSERT_TRUE(newest) << newest.status().message().c_str();
    ASSERT_EQ(newest->state.version(), uint64_t(20));
    ASSERT_EQ(skipped.size(), size_t(1));
    ASSERT_TRUE(skipped[0].find(std::filesystem::path(entries.back().path).filename().string()) != std::string::npos) << skipped[0].c_str();
}

TEST(TestCheckpointStore, pruningKeepsTheNewestOfEachKind) {
    TempDir dir;
    {
        auto store = CheckpointStore::open(dir.path(), {2, 3});
        ASSERT_TRUE(store);
        for (uint64_t i = 1; i <= 6; ++i) {
            (*store)->write(makeCheckpoint(7, 100 * i, 0, 10));
            (*store)->flush();  // each periodic one written (a queued one is superseded by a newer)
            (*store)->write(makeCheckpoint(7, 100 * i + 1, i, 10));
        }
    }  // the destructor writes what is queued
    auto store = CheckpointStore::open(dir.path(), {2, 3});
    ASSERT_TRUE(store);
    std::vector<uint64_t> periodic, changes;
    for (const auto& e : (*store)->list()) (e.changeId ? changes : periodic).push_back(e.changeId ? e.changeId : e.version);
    ASSERT_EQ(periodic, (std::vector<uint64_t>{500, 600}));
    ASSERT_EQ(changes, (std::vector<uint64_t>{4, 5, 6}));
    ASSERT_TRUE(!(*store)->beforeChange(7, 3));  // pruned: the error says so
    ASSERT_TRUE((*store)->beforeChange(7, 3).status().message().find("pruned") != std::string::npos);
    ASSERT_EQ((*store)->beforeChange(7, 5)->state.version(), uint64_t(501));
    // A reopened store numbers on after the files already there.
    (*store)->write(makeCheckpoint(7, 700, 0, 10));
    (*store)->flush();
    ASSERT_EQ((*store)->list().back().version, uint64_t(700));
    ASSERT_EQ(files(dir.path()).size(), size_t(5));
}

TEST(TestCheckpointStore, rollbackFindsItsOwnRunsChange) {
    TempDir dir;
    auto store = CheckpointStore::open(dir.path(), {3, 10});
    ASSERT_TRUE(store);
    (*store)->write(makeCheckpoint(1, 50, 2, 10));  // an earlier run in the same folder
    (*store)->write(makeCheckpoint(2, 80, 2, 10));
    (*store)->flush();
    ASSERT_EQ((*store)->beforeChange(2, 2)->state.version(), uint64_t(80));
    ASSERT_EQ((*store)->beforeChange(1, 2)->state.version(), uint64_t(50));
    ASSERT_TRUE(!(*store)->beforeChange(3, 2));
}

TEST(TestCheckpointStore, unwritableFolderIsAClearError) {
    if (geteuid() == 0) GTEST_SKIP() << "root writes into any folder";
    TempDir dir;
    std::error_code error;
    fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec, error);
    ASSERT_FALSE(error) << error.message();
    auto store = CheckpointStore::open(dir.path(), {3, 10});
    ASSERT_TRUE(!store);
    ASSERT_TRUE(store.status().message().find("choose a writable folder") != std::string::npos) << store.status().message().c_str();
    fs::permissions(dir.path(), fs::perms::owner_all, error);
}
