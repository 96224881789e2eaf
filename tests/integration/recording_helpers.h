// Reading what a real run recorded, for integration tests: the recording (a failure to read it
// ends the test with the reason), its last tick, and the newest periodic checkpoint of a folder.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
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

/// The newest version among the periodic checkpoints in `folder` (SEQUENCE-vVERSION-periodic...); 0: none.
inline uint64_t newestPeriodicVersion(const std::string& folder) {
    uint64_t newest = 0;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        const size_t v = name.find("-v");
        if (name.find("-periodic") == std::string::npos || v == std::string::npos) continue;
        newest = std::max<uint64_t>(newest, std::strtoull(name.c_str() + v + 2, nullptr, 10));
    }
    return newest;
}

}  // namespace syncscope::testing
