// RunRecorder: the coordinator's recording, if it keeps one. A write failure (a full disk) stops
// the recording and is reported once, through takeFailure(); training goes on and what is on disk
// stays readable.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "engine/telemetry/recording_writer.h"

namespace syncscope::engine {

class RunRecorder {
public:
    /// Opens `path` with the run's header; an empty path records nothing.
    Status open(const std::string& path, const wire::RecordingHeader& header);
    bool recording() const { return m_writer != nullptr; }
    void record(const wire::Record& record);
    /// Hands what is buffered to the kernel (once per tick).
    void flush();
    /// Why the recording stopped, once; empty while it goes on.
    std::optional<std::string> takeFailure();

private:
    void fail(const Status& status);

    std::unique_ptr<RecordingWriter> m_writer;
    std::optional<std::string> m_failure;
};

}  // namespace syncscope::engine
