// Qt Test version, kept while Qt Test integration tests still use it (the engine tests' own is engine_process.h).
// Runs the real syncscope-engine binary for integration tests and captures what it prints.
#pragma once

#include <QProcess>
#include <QStringList>

struct EngineRun {
    int exitCode = -1;
    bool finished = false;
    QString out, err;
};

inline EngineRun runEngine(const QStringList& args, int timeoutMs = 300'000) {
    QProcess process;
    process.start(QStringLiteral(SYNCSCOPE_ENGINE_BINARY), args);
    EngineRun run;
    run.finished = process.waitForStarted() && process.waitForFinished(timeoutMs);
    if (!run.finished) process.kill();
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

/// What the group aggregators of a run said at their end ("aggregator: G gradients in S sums ..."),
/// added up: gradients that went into sums, and sums sent.
struct AggregatorTotals {
    int aggregators = 0;
    long long summed = 0, sums = 0;
};

inline AggregatorTotals aggregatorTotals(const QString& err) {
    AggregatorTotals totals;
    for (const QString& line : err.split('\n')) {
        const QStringList words = line.split(' ');
        if (!line.startsWith("aggregator: ") || words.size() < 6 || words[2] != "gradients") continue;
        ++totals.aggregators;
        totals.summed += words[1].toLongLong();
        totals.sums += words[4].toLongLong();
    }
    return totals;
}
