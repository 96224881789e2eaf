// CheckpointStore (see checkpoint_store.h). File names say what a file holds without reading it:
// <sequence>-v<version>-periodic.ssckpt or <sequence>-v<version>-change<id>.ssckpt.
#include "engine/checkpoint/checkpoint_store.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace syncscope::engine {
namespace {

namespace fs = std::filesystem;
constexpr const char* kSuffix = ".ssckpt";

std::optional<CheckpointStore::Entry> parseName(const fs::path& path) {
    const std::string name = path.filename().string();
    if (name.size() <= std::strlen(kSuffix) || name.compare(name.size() - std::strlen(kSuffix), std::string::npos, kSuffix))
        return std::nullopt;
    CheckpointStore::Entry e;
    e.path = path.string();
    unsigned long long sequence = 0, version = 0, change = 0;
    char kind[16] = "";
    if (std::sscanf(name.c_str(), "%llu-v%llu-%15[a-z]%llu", &sequence, &version, kind, &change) < 3) return std::nullopt;
    e.sequence = sequence;
    e.version = version;
    e.changeId = std::strcmp(kind, "change") == 0 ? change : 0;
    return e;
}

}  // namespace

Result<std::unique_ptr<CheckpointStore>> CheckpointStore::open(const std::string& folder, Limits limits) {
    if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
        return unavailable(fmt::format("cannot make the checkpoint folder '{}': {}", folder, std::strerror(errno)));
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        return unavailable(fmt::format("cannot write checkpoints into '{}': {}; choose a writable folder", folder,
                                       std::strerror(errno)));
    return std::unique_ptr<CheckpointStore>(new CheckpointStore(folder, limits));
}

CheckpointStore::CheckpointStore(std::string folder, Limits limits) : m_folder(std::move(folder)), m_limits(limits) {
    for (const Entry& e : list()) m_nextSequence = std::max(m_nextSequence, e.sequence + 1);  // a resumed run goes on counting
    m_thread = std::thread([this] { loop(); });
}

CheckpointStore::~CheckpointStore() {
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void CheckpointStore::write(CheckpointData data) {
    {
        std::lock_guard lock(m_mutex);
        if (data.state.change_id() == 0 && !m_queue.empty() && m_queue.back().state.change_id() == 0)
            m_queue.back() = std::move(data);  // still unwritten: the newer state supersedes it
        else
            m_queue.push_back(std::move(data));
    }
    m_wake.notify_all();
}

void CheckpointStore::flush() {
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [&] { return m_queue.empty() && !m_busy; });
}

std::optional<std::string> CheckpointStore::takeNews() {
    std::lock_guard lock(m_mutex);
    return std::exchange(m_news, std::nullopt);
}

bool CheckpointStore::failing() const {
    std::lock_guard lock(m_mutex);
    return m_failing;
}

void CheckpointStore::loop() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [&] { return m_quit || !m_queue.empty(); });
        if (m_queue.empty()) return;  // quitting with nothing left to write
        CheckpointData data = std::move(m_queue.front());
        m_queue.pop_front();
        m_busy = true;
        lock.unlock();
        writeOne(data);
        lock.lock();
        m_busy = false;
        if (m_queue.empty()) m_idle.notify_all();
    }
}

void CheckpointStore::writeOne(const CheckpointData& data) {
    const uint64_t sequence = m_nextSequence++;
    const std::string kind = data.state.change_id() ? fmt::format("change{}", data.state.change_id()) : "periodic";
    const std::string path = fmt::format("{}/{:010}-v{}-{}{}", m_folder, sequence, data.state.version(), kind, kSuffix);
    const Status written = writeCheckpointFile(path, data);
    {
        std::lock_guard lock(m_mutex);
        if (!written && !m_failing) m_news = "checkpoints cannot be written: " + written.message() + "; training goes on";
        if (written && m_failing) m_news = "checkpoints are written again";
        m_failing = !written;
    }
    if (written) prune();
}

void CheckpointStore::prune() {
    std::vector<Entry> periodic, changes;
    for (const Entry& e : list()) (e.changeId ? changes : periodic).push_back(e);
    const auto drop = [](std::vector<Entry>& entries, size_t keep) {
        for (size_t i = 0; i + keep < entries.size(); ++i) ::unlink(entries[i].path.c_str());
    };
    drop(periodic, m_limits.keepPeriodic);
    drop(changes, m_limits.keepChanges);
}

std::vector<CheckpointStore::Entry> CheckpointStore::list() const {
    std::vector<Entry> entries;
    std::error_code error;
    for (const auto& item : fs::directory_iterator(m_folder, error))
        if (auto e = parseName(item.path())) entries.push_back(*e);
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.sequence < b.sequence; });
    return entries;
}

Result<CheckpointData> CheckpointStore::newest(std::vector<std::string>* skipped) const {
    const std::vector<Entry> entries = list();
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
        auto data = readCheckpointFile(it->path);
        if (data) return data;
        if (skipped) skipped->push_back(data.status().message());
    }
    return notFound(fmt::format("no checkpoint in '{}' reads back whole{}", m_folder,
                                entries.empty() ? " (the folder holds none)" : ""));
}

Result<CheckpointData> CheckpointStore::beforeChange(uint64_t runId, uint64_t changeId) const {
    const std::vector<Entry> entries = list();
    for (auto e = entries.rbegin(); e != entries.rend(); ++e) {  // newest first: an older run's change N may be here too
        if (e->changeId != changeId) continue;
        auto data = readCheckpointFile(e->path);
        if (!data) return data.status();
        if (data->state.header().run_id() == runId) return data;
    }
    return notFound(fmt::format("no checkpoint before change {} is kept in '{}' (the oldest are pruned)", changeId,
                                m_folder));
}

}  // namespace syncscope::engine
