// TemporaryFolder (see temporary_folder.h).
#include "engine/core/temporary_folder.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace syncscope::engine {

Result<TemporaryFolder> TemporaryFolder::create(const std::string& prefix) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (!::mkdtemp(buffer.data()))  // mkdtemp makes it 0700
        return unavailable("cannot make a folder " + pattern + ": " + std::strerror(errno) +
                           "; set TMPDIR to a writable folder");
    return TemporaryFolder(buffer.data());
}

TemporaryFolder::~TemporaryFolder() {
    if (m_path.empty()) return;
    std::error_code ignored;  // best effort: what cannot be removed stays in the temp directory
    std::filesystem::remove_all(m_path, ignored);
}

}  // namespace syncscope::engine
