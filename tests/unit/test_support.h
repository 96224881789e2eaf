// What the engine's GoogleTest tests share, none of it Qt: test_helpers.h (a temporary folder per
// test, text and file helpers, waiting for a condition), and floating-point equality as Qt Test's
// QCOMPARE judged it (these tests were written against that rule; EXPECT_FLOAT_EQ's 4 ULPs would be
// a different test).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <type_traits>

#include "tests/unit/test_helpers.h"

namespace syncscope::testing {

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
