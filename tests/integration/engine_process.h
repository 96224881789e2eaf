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
