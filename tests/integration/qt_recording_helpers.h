// Qt Test version, kept while Qt Test integration tests still use it (the engine tests' own is recording_helpers.h).
// Reading what a real run recorded, for integration tests: the recording (a failure to read it
// ends the test with the reason) and its last tick.
#pragma once

#include <QString>
#include <QtGlobal>

#include "engine/telemetry/recording_reader.h"

inline syncscope::engine::Recording loadRecording(const QString& path) {
    auto recording = syncscope::engine::readRecording(path.toStdString());
    if (!recording) qFatal("cannot read %s: %s", qPrintable(path), recording.status().message().c_str());
    return std::move(*recording);
}

inline const syncscope::wire::Tick* lastTick(const syncscope::engine::Recording& r) {
    for (auto it = r.records.rbegin(); it != r.records.rend(); ++it)
        if (it->has_tick()) return &it->tick();
    return nullptr;
}
