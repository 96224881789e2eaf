// What the engine's GoogleTest tests share, none of it Qt: a temporary folder per test, text and
// file helpers, waiting for a condition, and floating-point equality as Qt Test's QCOMPARE judged it
// (these tests were written against that rule; EXPECT_FLOAT_EQ's 4 ULPs would be a different test).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <algorithm>
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
#include <type_traits>
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

/// Qt Test's QCOMPARE for float and double (qtestcase.cpp, floatingCompare): infinities and NaN
/// match their own kind; an expected value that is fuzzily null (|x| <= 1e-5 for float, 1e-12 for
/// double) wants an actual value that is too; otherwise the two agree to 1 part in 1e5 (float) or
/// 1e12 (double) of the smaller.
template <typename T>
bool qtFuzzyEqual(T actual, T expected) {
    static_assert(std::is_floating_point_v<T>);
    const T scale = std::is_same_v<T, float> ? T(100000) : T(1000000000000.0);
    const T null = T(1) / scale;
    switch (std::fpclassify(expected)) {
    case FP_INFINITE: return (expected < 0) == (actual < 0) && std::fpclassify(actual) == FP_INFINITE;
    case FP_NAN: return std::fpclassify(actual) == FP_NAN;
    case FP_SUBNORMAL:
    case FP_ZERO: return std::fabs(actual) <= null;
    default:
        if (std::fabs(expected) <= null) return std::fabs(actual) <= null;
        return std::fabs(actual - expected) * scale <= std::min(std::fabs(actual), std::fabs(expected));
    }
}

/// For EXPECT_PRED_FORMAT2: float with float compares as float; any other mix as double (as Qt does).
struct FuzzyEqual {
    template <typename A, typename E>
    ::testing::AssertionResult operator()(const char* actualText, const char* expectedText, A actual, E expected) const {
        const bool same = std::is_same_v<A, float> && std::is_same_v<E, float>
                              ? qtFuzzyEqual(float(actual), float(expected))
                              : qtFuzzyEqual(double(actual), double(expected));
        if (same) return ::testing::AssertionSuccess();
        std::ostringstream values;
        values.precision(std::is_same_v<A, float> && std::is_same_v<E, float> ? 9 : 17);
        values << actualText << " is " << actual << ", " << expectedText << " is " << expected
               << " (compared as Qt Test's QCOMPARE does)";
        return ::testing::AssertionFailure() << values.str();
    }
};

}  // namespace syncscope::testing

/// QCOMPARE(actual, expected) for floating-point values: see syncscope::testing::qtFuzzyEqual.
#define EXPECT_FUZZY_EQ(actual, expected) EXPECT_PRED_FORMAT2(::syncscope::testing::FuzzyEqual(), actual, expected)
#define ASSERT_FUZZY_EQ(actual, expected) ASSERT_PRED_FORMAT2(::syncscope::testing::FuzzyEqual(), actual, expected)
