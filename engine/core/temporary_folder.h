// TemporaryFolder: a new 0700 folder under the temp directory for one process's files (a local
// cluster's checkpoints), removed with everything in it when the object goes, unless kept.
#pragma once

#include <string>
#include <utility>

#include "engine/core/status.h"

namespace syncscope::engine {

class TemporaryFolder {
public:
    /// $TMPDIR (or /tmp)/<prefix>XXXXXX, made 0700.
    static Result<TemporaryFolder> create(const std::string& prefix);
    TemporaryFolder(TemporaryFolder&& other) noexcept : m_path(std::exchange(other.m_path, {})) {}
    TemporaryFolder& operator=(TemporaryFolder&&) = delete;
    ~TemporaryFolder();
    const std::string& path() const { return m_path; }
    /// Leaves the folder in place (a cluster that outlives this process still uses it).
    std::string keep() { return std::exchange(m_path, {}); }

private:
    explicit TemporaryFolder(std::string path) : m_path(std::move(path)) {}
    std::string m_path;
};

}  // namespace syncscope::engine
