// Runs the real syncscope-engine binary for integration tests and captures what it prints.
#pragma once

#include <string>

#include "tests/integration/child_process.h"

namespace syncscope::testing {

struct EngineRun {
    int exitCode = -1;  ///< of a normal exit; -1 after a signal or when it did not finish
    bool finished = false;
    std::string out, err;
};

inline EngineRun runEngine(const Args& args, int timeoutMs = 300'000) {
    const ProgramRun run = runProgram(SYNCSCOPE_ENGINE_BINARY, args, timeoutMs);
    EngineRun result;
    result.finished = run.started && run.finished;
    result.exitCode = run.exitCode;
    result.out = run.out;
    result.err = run.started ? run.err : run.error;
    return result;
}

/// What the group aggregators of a run said at their end ("aggregator: G gradients in S sums ..."),
/// added up: gradients that went into sums, and sums sent.
struct AggregatorTotals {
    int aggregators = 0;
    long long summed = 0, sums = 0;
};

inline AggregatorTotals aggregatorTotals(const std::string& err) {
    AggregatorTotals totals;
    for (const std::string& line : split(err, '\n')) {
        const std::vector<std::string> words = split(line, ' ');
        if (!startsWith(line, "aggregator: ") || words.size() < 6 || words[2] != "gradients") continue;
        ++totals.aggregators;
        totals.summed += toLongLong(words[1]);
        totals.sums += toLongLong(words[4]);
    }
    return totals;
}

}  // namespace syncscope::testing
