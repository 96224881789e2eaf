// RunRecorder (see run_recorder.h).
#include "engine/ps/run_recorder.h"

namespace syncscope::engine {

Status RunRecorder::open(const std::string& path, const wire::RecordingHeader& header) {
    if (path.empty()) return Status::ok();
    auto writer = RecordingWriter::create(path, header);
    if (!writer) return writer.status();
    m_writer = std::move(*writer);
    return Status::ok();
}

void RunRecorder::record(const wire::Record& record) {
    if (!m_writer) return;
    if (Status s = m_writer->append(record); !s) fail(s);
}

void RunRecorder::flush() {
    if (!m_writer) return;
    if (Status s = m_writer->flush(); !s) fail(s);
}

void RunRecorder::fail(const Status& status) {
    m_writer.reset();  // what is on disk stays readable; training goes on unrecorded
    m_failure = "recording stopped: " + status.message();
}

std::optional<std::string> RunRecorder::takeFailure() { return std::exchange(m_failure, std::nullopt); }

}  // namespace syncscope::engine
