// Short real trainings on Fashion-MNIST through the CLI: accuracy clears a lower bar than the
// full runs in the README (so CI stays fast), and one-thread CPU training is bit-for-bit repeatable.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <string>

#include "tests/integration/engine_process.h"

using namespace syncscope::testing;

namespace {

double accuracyOf(const EngineRun& run) {
    std::smatch match;
    return std::regex_search(run.out, match, std::regex(R"(test accuracy: ([0-9.]+)%)")) ? toDouble(match[1]) : -1.0;
}

std::string checksumOf(const EngineRun& run) {
    std::smatch match;
    return std::regex_search(run.out, match, std::regex(R"(parameter checksum: ([0-9a-f]{16}))")) ? match[1].str()
                                                                                                : std::string();
}

void reachesLowerBar(const Args& args, double bar) {
    const EngineRun run = runEngine(Args{"train", "--backend", "cpu", "--data", SYNCSCOPE_FASHION_MNIST_DIR} + args);
    ASSERT_TRUE(run.exitCode == 0) << run.err;
    const double accuracy = accuracyOf(run);
    std::printf("%s: test accuracy %.2f%%\n", args.join().c_str(), accuracy);
    ASSERT_TRUE(accuracy >= bar) << run.out;
}

}  // namespace

TEST(TestTrainShort, reachesLowerBar) {
    const struct {
        const char* row;
        Args args;
        double bar;
    } rows[] = {{"mlp, 2 epochs", {"--model", "mlp", "--epochs", "2"}, 85.0},
                {"cnn, 1 epoch", {"--model", "cnn", "--epochs", "1"}, 84.0}};
    for (const auto& r : rows) {
        SCOPED_TRACE(r.row);
        reachesLowerBar(r.args, r.bar);
    }
}

TEST(TestTrainShort, oneThreadIsBitForBitRepeatable) {
    const Args args{"train", "--backend", "cpu", "--threads", "1", "--model", "cnn", "--epochs", "1",
                    "--train-limit", "1024", "--data", SYNCSCOPE_FASHION_MNIST_DIR};
    const EngineRun first = runEngine(args), second = runEngine(args);
    const EngineRun otherSeed = runEngine(args + Args{"--seed", "2"});
    ASSERT_TRUE(first.exitCode == 0 && second.exitCode == 0 && otherSeed.exitCode == 0) << first.err;
    ASSERT_TRUE(!checksumOf(first).empty());
    ASSERT_EQ(checksumOf(second), checksumOf(first));
    ASSERT_TRUE(checksumOf(otherSeed) != checksumOf(first)) << "a different seed must change the result";
}
