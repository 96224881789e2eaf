// ChanceLevelWatch (engine/coordinator/chance_level_watch.h): a model at chance over several
// evaluations and many updates is reported once; a learning model, a fresh one evaluated a few times,
// a stalled one whose versions do not move, and a NaN loss are not.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "engine/coordinator/chance_level_watch.h"

using syncscope::engine::ChanceLevelWatch;
using syncscope::engine::EvaluationResult;

namespace {

EvaluationResult at(uint64_t version, double accuracy, double loss = 2.3026) {
    EvaluationResult e;
    e.version = version;
    e.accuracy = accuracy;
    e.loss = loss;
    return e;
}

}  // namespace

TEST(TestChanceLevelWatch, aModelThatDiedIsReportedOnceWithTheFix) {
    ChanceLevelWatch watch(10);
    EXPECT_FALSE(watch.observe(at(100, 0.62, 1.1)));
    EXPECT_FALSE(watch.observe(at(300, 0.10)));
    EXPECT_FALSE(watch.observe(at(600, 0.10)));
    const auto said = watch.observe(at(900, 0.1003));
    ASSERT_TRUE(said);
    EXPECT_NE(said->find("chance: 10%"), std::string::npos) << *said;
    EXPECT_NE(said->find("600 updates"), std::string::npos) << *said;
    EXPECT_NE(said->find("lower the learning rate"), std::string::npos) << *said;
    EXPECT_NE(said->find("ln 10 = 2.30"), std::string::npos) << *said;
    EXPECT_FALSE(watch.observe(at(1200, 0.10))) << "said twice";
}

TEST(TestChanceLevelWatch, learningFewUpdatesOrANaNLossSayNothing) {
    ChanceLevelWatch learning(10);
    for (uint64_t v = 0; v < 10; ++v) EXPECT_FALSE(learning.observe(at(v * 400, v == 0 ? 0.1 : 0.5 + v * 0.03)));
    ChanceLevelWatch dropped(10);  // every gradient dropped (NaN): versions stand still
    for (int i = 0; i < 10; ++i) EXPECT_FALSE(dropped.observe(at(151, 0.10, 6.6e24)));
    ChanceLevelWatch nan(10);
    for (uint64_t v = 0; v < 10; ++v)
        EXPECT_FALSE(nan.observe(at(v * 400, 0.10, std::numeric_limits<double>::quiet_NaN())));
    ChanceLevelWatch recovers(10);  // at chance twice, then learning: the count starts again
    EXPECT_FALSE(recovers.observe(at(0, 0.10)));
    EXPECT_FALSE(recovers.observe(at(400, 0.11)));
    EXPECT_FALSE(recovers.observe(at(800, 0.40)));
    EXPECT_FALSE(recovers.observe(at(1200, 0.10)));
    EXPECT_FALSE(recovers.observe(at(1600, 0.10)));
    EXPECT_TRUE(recovers.observe(at(2000, 0.10)));
}
