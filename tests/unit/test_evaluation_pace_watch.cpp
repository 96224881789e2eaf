// EvaluationPaceWatch (engine/coordinator/evaluation_pace_watch.h): evaluations slower than the
// interval asked, three in a row, are reported once with the spacing they come at; one slow
// evaluation among fast ones, or evaluations within the interval, say nothing.
#include <gtest/gtest.h>

#include "engine/coordinator/evaluation_pace_watch.h"

using syncscope::engine::EvaluationPaceWatch;
using syncscope::engine::EvaluationResult;

namespace {

EvaluationResult taking(double seconds) {
    EvaluationResult e;
    e.seconds = seconds;
    return e;
}

}  // namespace

TEST(TestEvaluationPaceWatch, theSpacingIsTheFirstWholeNumberOfIntervalsThatOutlastsAnEvaluation) {
    EXPECT_DOUBLE_EQ(EvaluationPaceWatch::spacing(0.62, 0.5), 1.0);
    EXPECT_DOUBLE_EQ(EvaluationPaceWatch::spacing(1.1, 0.5), 1.5);
    EXPECT_DOUBLE_EQ(EvaluationPaceWatch::spacing(1.1, 1.0), 2.0);
    EXPECT_DOUBLE_EQ(EvaluationPaceWatch::spacing(0.4, 0.5), 0.5);  // within the interval: as asked
}

TEST(TestEvaluationPaceWatch, slowEvaluationsInARowAreReportedOnceWithTheSpacingAndTheFix) {
    EvaluationPaceWatch watch;
    EXPECT_FALSE(watch.observe(taking(0.30), 0.5));
    EXPECT_FALSE(watch.observe(taking(0.61), 0.5));
    EXPECT_FALSE(watch.observe(taking(0.90), 0.5));
    const auto said = watch.observe(taking(0.64), 0.5);
    ASSERT_TRUE(said);
    EXPECT_NE(said->find("takes 0.64 s"), std::string::npos) << *said;  // the median of 0.61, 0.90, 0.64
    EXPECT_NE(said->find("the slowest 0.90 s"), std::string::npos) << *said;
    EXPECT_NE(said->find("the 0.5 s asked"), std::string::npos) << *said;
    EXPECT_NE(said->find("one comes every 1 s"), std::string::npos) << *said;
    EXPECT_NE(said->find("--eval-interval 1 or more"), std::string::npos) << *said;  // 0.90 s x 1.1, in tenths
    EXPECT_FALSE(watch.observe(taking(0.9), 0.5)) << "said twice";
    EXPECT_FALSE(watch.observe(taking(0.9), 0.5)) << "said twice";
    EXPECT_FALSE(watch.observe(taking(0.9), 0.5)) << "said twice";
}

TEST(TestEvaluationPaceWatch, aSlowEvaluationAmongFastOnesOrEvaluationsWithinTheIntervalSayNothing) {
    EvaluationPaceWatch watch;
    for (int i = 0; i < 10; ++i) {
        EXPECT_FALSE(watch.observe(taking(i % 3 == 0 ? 1.5 : 0.3), 1.0));  // one in three slow: never three in a row
        EXPECT_FALSE(watch.observe(taking(0.99), 1.0));
    }
}
