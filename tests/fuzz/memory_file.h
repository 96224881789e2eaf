// MemoryFile: hands a fuzz input to a reader that takes a path, without touching the disk: an
// anonymous in-memory file (memfd) named by /proc/self/fd/N and rewritten for every input.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace syncscope::fuzz {

class MemoryFile {
public:
    MemoryFile() : m_fd(memfd_create("syncscope-fuzz-input", MFD_CLOEXEC)) {
        if (m_fd < 0) fail("memfd_create");
        m_path = "/proc/self/fd/" + std::to_string(m_fd);
    }
    MemoryFile(const MemoryFile&) = delete;
    MemoryFile& operator=(const MemoryFile&) = delete;
    ~MemoryFile() { close(m_fd); }

    /// Replaces the file's contents with `data` and returns a path that opens them from the start.
    const std::string& hold(const uint8_t* data, size_t size) {
        if (ftruncate(m_fd, 0) != 0) fail("ftruncate");
        for (size_t done = 0; done < size;) {
            const ssize_t n = pwrite(m_fd, data + done, size - done, static_cast<off_t>(done));
            if (n <= 0) fail("pwrite");
            done += static_cast<size_t>(n);
        }
        return m_path;
    }

private:
    // The harness itself broke, not the code under test: stop loudly rather than fuzz nothing.
    [[noreturn]] static void fail(const char* call) {
        std::perror(call);
        std::abort();
    }

    int m_fd;
    std::string m_path;
};

}  // namespace syncscope::fuzz
