// CheckpointStore: a coordinator's checkpoint folder. A checkpoint is taken on the coordinator's
// thread (a copy of the state) and written on a thread of its own, so training never waits for the
// disk. The last few periodic checkpoints are kept, and every one taken before a control change up
// to a bound (a change can be rolled back while its checkpoint is kept). A write failure (a full
// disk) is reported once and retried with the next checkpoint.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/checkpoint/checkpoint_file.h"

namespace syncscope::engine {

class CheckpointStore {
public:
    struct Limits {
        size_t keepPeriodic;  ///< periodic checkpoints kept (the newest)
        size_t keepChanges;   ///< checkpoints before control changes kept (the newest)
    };
    struct Entry {
        std::string path;
        uint64_t sequence = 0, version = 0, changeId = 0;  ///< changeId 0: periodic
    };

    /// Makes `folder` (0700) when missing; the error says why it cannot be used.
    static Result<std::unique_ptr<CheckpointStore>> open(const std::string& folder, Limits limits);
    ~CheckpointStore();  ///< writes what is queued, then stops its thread
    CheckpointStore(const CheckpointStore&) = delete;
    CheckpointStore& operator=(const CheckpointStore&) = delete;

    /// Queues `data` for writing. A newer periodic checkpoint replaces a periodic one still queued;
    /// checkpoints before changes are never skipped.
    void write(CheckpointData data);
    /// Waits until everything queued is on disk (or failed).
    void flush();
    /// "checkpoints cannot be written: ..." / "checkpoints are written again", once each.
    std::optional<std::string> takeNews();
    bool failing() const;

    /// The checkpoints on disk, oldest first (names only; files are read when loaded).
    std::vector<Entry> list() const;
    /// The newest checkpoint that reads back whole; each one skipped (torn, corrupt) in `skipped`.
    Result<CheckpointData> newest(std::vector<std::string>* skipped) const;
    /// The checkpoint run `runId` took before its change `changeId`.
    Result<CheckpointData> beforeChange(uint64_t runId, uint64_t changeId) const;
    const std::string& folder() const { return m_folder; }

private:
    CheckpointStore(std::string folder, Limits limits);
    void loop();
    void writeOne(const CheckpointData& data);
    void prune();

    std::string m_folder;
    Limits m_limits;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake, m_idle;
    std::deque<CheckpointData> m_queue;
    bool m_busy = false, m_quit = false, m_failing = false;
    std::optional<std::string> m_news;
    uint64_t m_nextSequence = 1;
    std::thread m_thread;
};

}  // namespace syncscope::engine
