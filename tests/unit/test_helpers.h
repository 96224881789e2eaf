// What the engine's tests and their fixtures share, with neither Qt nor GoogleTest (so a fixture
// that includes it can also serve Qt code, as tests/integration/cluster_fixture.h does): a
// temporary folder per test, text and file helpers, test output, and waiting for a condition.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/core/temporary_folder.h"

namespace syncscope::testing {

/// A new 0700 folder under $TMPDIR for one test, removed with everything in it when it goes.
/// Throws (the test fails, saying why) when no folder can be made.
class TempDir {
public:
    TempDir() : m_folder(make()) {}
    const std::string& path() const { return m_folder.path(); }
    std::string filePath(const std::string& name) const { return path() + "/" + name; }

private:
    static engine::TemporaryFolder make() {
        auto folder = engine::TemporaryFolder::create("syncscope-test-");
        if (!folder) throw std::runtime_error(folder.status().message());
        return std::move(folder).value();
    }
    engine::TemporaryFolder m_folder;
};

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
inline bool startsWith(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

/// `text` without the white space at either end.
inline std::string trimmed(const std::string& text) {
    const char* space = " \t\n\r\f\v";
    const size_t first = text.find_first_not_of(space);
    return first == std::string::npos ? std::string() : text.substr(first, text.find_last_not_of(space) - first + 1);
}

/// The last `n` characters of `text` (all of it when shorter).
inline std::string right(const std::string& text, size_t n) { return text.size() <= n ? text : text.substr(text.size() - n); }

/// How often `part` occurs in `text`, not overlapping.
inline int count(const std::string& text, const std::string& part) {
    int n = 0;
    for (size_t at = text.find(part); !part.empty() && at != std::string::npos; at = text.find(part, at + part.size())) ++n;
    return n;
}

/// Splits on every `separator`: "a,b," gives {"a", "b", ""}; with skipEmpty, {"a", "b"}.
inline std::vector<std::string> split(const std::string& text, char separator, bool skipEmpty = false) {
    std::vector<std::string> parts(1);
    for (char c : text) {
        if (c == separator) parts.emplace_back();
        else parts.back() += c;
    }
    if (skipEmpty) std::erase_if(parts, [](const std::string& p) { return p.empty(); });
    return parts;
}

/// The number `text` holds (white space around it allowed), as QString::toLongLong and toDouble read
/// it: 0, and *ok false, when it holds anything else.
inline long long toLongLong(const std::string& text, bool* ok = nullptr) {
    const std::string t = trimmed(text);
    size_t used = 0;
    long long value = 0;
    try {
        value = t.empty() ? 0 : std::stoll(t, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    const bool good = !t.empty() && used == t.size();
    if (ok) *ok = good;
    return good ? value : 0;
}
inline double toDouble(const std::string& text, bool* ok = nullptr) {
    const std::string t = trimmed(text);
    size_t used = 0;
    double value = 0;
    try {
        value = t.empty() ? 0 : std::stod(t, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    const bool good = !t.empty() && used == t.size();
    if (ok) *ok = good;
    return good ? value : 0;
}

/// The whole file, or an empty string when it cannot be read.
inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

/// Writes `bytes` to `path` (replacing it); false when that failed.
inline bool writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    return static_cast<bool>(out << bytes) && static_cast<bool>(out.flush());
}

/// A line of test output, as qInfo printed it (printf's format; the newline is added).
[[gnu::format(printf, 1, 2)]] inline void testLog(const char* format, ...) {
    va_list args;
    va_start(args, format);
    std::vfprintf(stdout, format, args);
    va_end(args);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

/// What qFatal did in these tests, without ending the process: throws (printf's format), so the
/// test fails, saying why.
[[noreturn, gnu::format(printf, 1, 2)]] inline void testFatal(const char* format, ...) {
    char text[4096];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    throw std::runtime_error(text);
}

inline void sleepMs(long ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

/// A clock for deadlines and elapsed times, in milliseconds.
class Stopwatch {
public:
    Stopwatch() : m_start(std::chrono::steady_clock::now()) {}
    long long elapsedMs() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - m_start).count();
    }

private:
    std::chrono::steady_clock::time_point m_start;
};

/// A deadline `ms` from now.
class Deadline {
public:
    explicit Deadline(long long ms) : m_end(std::chrono::steady_clock::now() + std::chrono::milliseconds(ms)) {}
    bool expired() const { return std::chrono::steady_clock::now() >= m_end; }
    /// Milliseconds left, 0 once expired.
    long long remainingMs() const {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(m_end - std::chrono::steady_clock::now());
        return left.count() > 0 ? left.count() : 0;
    }

private:
    std::chrono::steady_clock::time_point m_end;
};

/// Checks `condition` every 50 ms until it holds or `timeoutMs` passed; whether it held (the rule of
/// QTRY_VERIFY_WITH_TIMEOUT).
inline bool waitUntil(const std::function<bool()>& condition, long long timeoutMs) {
    const Deadline deadline(timeoutMs);
    for (;;) {
        if (condition()) return true;
        if (deadline.expired()) return false;
        sleepMs(50);
    }
}

}  // namespace syncscope::testing
