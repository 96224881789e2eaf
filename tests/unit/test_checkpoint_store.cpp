// CheckpointStore and checkpoint files: what is written reads back bit for bit; a torn or corrupt
// file is refused and the newest whole one is used instead (with the skipped one named); pruning
// keeps the newest periodic checkpoints and those before changes up to their own bound; a rollback
// finds the checkpoint of its own run, not another run's with the same change number.
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

#include "engine/ps/checkpoint_store.h"

using namespace syncscope::engine;
namespace wire = syncscope::wire;

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

std::vector<std::string> files(const QString& folder) {
    std::vector<std::string> names;
    for (const auto& item : std::filesystem::directory_iterator(folder.toStdString()))
        names.push_back(item.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

class TestCheckpointStore : public QObject {
    Q_OBJECT
private slots:
    void writesAndReadsBackExactly() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("one.ssckpt").toStdString();
        const CheckpointData written = makeCheckpoint(7, 42, 0);
        QVERIFY(writeCheckpointFile(path, written));
        auto read = readCheckpointFile(path);
        QVERIFY2(read, read.status().message().c_str());
        QCOMPARE(read->state.version(), uint64_t(42));
        QVERIFY(read->parameters == written.parameters && read->momentum == written.momentum);
        QCOMPARE(QFileInfo(QString::fromStdString(path)).permissions() & (QFile::ReadOther | QFile::ReadGroup),
                 QFileDevice::Permissions());
    }

    void tornOrCorruptFileIsRefused() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("one.ssckpt").toStdString();
        QVERIFY(writeCheckpointFile(path, makeCheckpoint(7, 42, 0)));
        const auto size = std::filesystem::file_size(path);
        for (const auto cut : {size_t(0), size_t(5), size_t(100), size_t(size - 1)}) {
            std::filesystem::resize_file(path, cut);
            QVERIFY2(!readCheckpointFile(path), qPrintable(QString("accepted a file cut to %1 bytes").arg(cut)));
            QVERIFY(writeCheckpointFile(path, makeCheckpoint(7, 42, 0)));
        }
        {
            std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(std::streamoff(size / 2));
            f.put('\x5a');
        }
        auto read = readCheckpointFile(path);
        QVERIFY(!read);
        QVERIFY2(read.status().message().find("one.ssckpt") != std::string::npos, read.status().message().c_str());
    }

    void newestWholeOneIsUsedAndTheOthersNamed() {
        QTemporaryDir dir;
        auto store = CheckpointStore::open(dir.path().toStdString(), {3, 5});
        QVERIFY2(store, store.status().message().c_str());
        for (uint64_t v : {10, 20, 30}) {
            (*store)->write(makeCheckpoint(7, v, 0));
            (*store)->flush();  // a periodic one still queued would be superseded by the next
        }
        const auto entries = (*store)->list();
        QCOMPARE(entries.size(), size_t(3));
        std::filesystem::resize_file(entries.back().path, 64);  // the machine died while it was written
        std::vector<std::string> skipped;
        auto newest = (*store)->newest(&skipped);
        QVERIFY2(newest, newest.status().message().c_str());
        QCOMPARE(newest->state.version(), uint64_t(20));
        QCOMPARE(skipped.size(), size_t(1));
        QVERIFY2(skipped[0].find(std::filesystem::path(entries.back().path).filename().string()) != std::string::npos,
                 skipped[0].c_str());
    }

    void pruningKeepsTheNewestOfEachKind() {
        QTemporaryDir dir;
        {
            auto store = CheckpointStore::open(dir.path().toStdString(), {2, 3});
            QVERIFY(store);
            for (uint64_t i = 1; i <= 6; ++i) {
                (*store)->write(makeCheckpoint(7, 100 * i, 0, 10));
                (*store)->flush();  // each periodic one written (a queued one is superseded by a newer)
                (*store)->write(makeCheckpoint(7, 100 * i + 1, i, 10));
            }
        }  // the destructor writes what is queued
        auto store = CheckpointStore::open(dir.path().toStdString(), {2, 3});
        QVERIFY(store);
        std::vector<uint64_t> periodic, changes;
        for (const auto& e : (*store)->list()) (e.changeId ? changes : periodic).push_back(e.changeId ? e.changeId : e.version);
        QCOMPARE(periodic, (std::vector<uint64_t>{500, 600}));
        QCOMPARE(changes, (std::vector<uint64_t>{4, 5, 6}));
        QVERIFY(!(*store)->beforeChange(7, 3));  // pruned: the error says so
        QVERIFY((*store)->beforeChange(7, 3).status().message().find("pruned") != std::string::npos);
        QCOMPARE((*store)->beforeChange(7, 5)->state.version(), uint64_t(501));
        // A reopened store numbers on after the files already there.
        (*store)->write(makeCheckpoint(7, 700, 0, 10));
        (*store)->flush();
        QCOMPARE((*store)->list().back().version, uint64_t(700));
        QCOMPARE(files(dir.path()).size(), size_t(5));
    }

    void rollbackFindsItsOwnRunsChange() {
        QTemporaryDir dir;
        auto store = CheckpointStore::open(dir.path().toStdString(), {3, 10});
        QVERIFY(store);
        (*store)->write(makeCheckpoint(1, 50, 2, 10));  // an earlier run in the same folder
        (*store)->write(makeCheckpoint(2, 80, 2, 10));
        (*store)->flush();
        QCOMPARE((*store)->beforeChange(2, 2)->state.version(), uint64_t(80));
        QCOMPARE((*store)->beforeChange(1, 2)->state.version(), uint64_t(50));
        QVERIFY(!(*store)->beforeChange(3, 2));
    }

    void unwritableFolderIsAClearError() {
        if (geteuid() == 0) QSKIP("root writes into any folder");
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner));
        auto store = CheckpointStore::open(dir.path().toStdString(), {3, 10});
        QVERIFY(!store);
        QVERIFY2(store.status().message().find("choose a writable folder") != std::string::npos,
                 store.status().message().c_str());
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
};

QTEST_GUILESS_MAIN(TestCheckpointStore)
#include "test_checkpoint_store.moc"
