// Reading what a real run recorded, for integration tests: the recording (a failure to read it
// ends the test with the reason) and its last tick.
#pragma once

#include <stdexcept>
#include <string>

#include "engine/telemetry/recording_reader.h"

namespace syncscope::testing {

/// The recording at `path`; throws (the test fails, saying why) when it cannot be read.
inline engine::Recording loadRecording(const std::string& path) {
    auto recording = engine::readRecording(path);
    if (!recording) throw std::runtime_error("cannot read " + path + ": " + recording.status().message());
    return std::move(*recording);
}

inline const wire::Tick* lastTick(const engine::Recording& r) {
    for (auto it = r.records.rbegin(); it != r.records.rend(); ++it)
        if (it->has_tick()) return &it->tick();
    return nullptr;
}

}  // namespace syncscope::testing
