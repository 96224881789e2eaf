// RunRecorder (see run_recorder.h).
#include "engine/coordinator/run_recorder.h"

#include <fmt/format.h>

namespace syncscope::engine {

Status RunRecorder::open(const std::string& path, const wire::RecordingHeader& header, bool resume) {
    if (path.empty()) return Status::ok();
    auto writer = resume ? RecordingWriter::resume(path, nullptr) : RecordingWriter::create(path, header);
    if (!writer) return writer.status();
    m_writer = std::move(*writer);
    return Status::ok();
}

void RunRecorder::record(const wire::Record& record) {
    if (m_writer) note(m_writer->append(record));
}

void RunRecorder::flush() {
    if (m_writer) note(m_writer->flush());
}

void RunRecorder::note(const Status& status) {
    if (!status && !m_reportedFailure) {
        m_reportedFailure = true;
        m_news = "the recording cannot be written: " + status.message() +
                 "; training goes on, and the records wait in memory until they can be written";
    } else if (status && m_reportedFailure) {
        m_reportedFailure = false;
        const uint64_t lost = m_writer->droppedRecords();
        m_news = lost ? fmt::format("the recording is written again; {} records were lost while it could not be", lost)
                      : std::string("the recording is written again; nothing was lost");
    }
}

std::optional<std::string> RunRecorder::takeNews() { return std::exchange(m_news, std::nullopt); }

}  // namespace syncscope::engine
