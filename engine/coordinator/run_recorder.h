// RunRecorder: the coordinator's recording, if it keeps one. A write failure (a full disk) is
// reported once through takeNews(); the records meanwhile wait in memory and are written when
// space returns (reported too), so training goes on and nothing already on disk is lost.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "engine/telemetry/recording_writer.h"

namespace syncscope::engine {

class RunRecorder {
public:
    /// Opens `path` with the run's header; an empty path records nothing. `resume`: continue the
    /// recording already at `path` (its header stays) instead of starting it anew.
    Status open(const std::string& path, const wire::RecordingHeader& header, bool resume = false);
    bool recording() const { return m_writer != nullptr; }
    /// Whether writing fails now (the disk is full).
    bool failing() const { return m_writer && m_writer->failing(); }
    void record(const wire::Record& record);
    /// Hands what is buffered to the kernel (once per tick); after a failure, retries.
    void flush();
    /// "recording stopped writing: ..." or "recording writes again ...", once each; empty: no news.
    std::optional<std::string> takeNews();

private:
    void note(const Status& status);

    std::unique_ptr<RecordingWriter> m_writer;
    std::optional<std::string> m_news;
    bool m_reportedFailure = false;
};

}  // namespace syncscope::engine
