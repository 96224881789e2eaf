// A child process's reports to the process that started it: wire::ProcessReport frames ([uint32 LE
// length][payload]) on a pipe that the launcher hands the child as kChildReportFd. `serve
// --report-fd` writes where it listens and how its run ended; `run` and the console read them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/core/status.h"
#include "engine/net/endpoints_line.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

/// Writes one report to `fd` whole (retrying short writes); the error says why it could not. The
/// first call makes this process ignore SIGPIPE, so a reader that has gone is an error, not the end.
Status writeProcessReport(int fd, const wire::ProcessReport& report);

/// Reads reports from a pipe as its bytes arrive.
class ProcessReportReader {
public:
    explicit ProcessReportReader(int fd) : m_fd(fd) {}
    /// Reads what the pipe holds now (non-blocking) or, with `waitMs` > 0, waits that long for more.
    /// The next whole report, if there is one; closed() once the writer has gone.
    std::optional<wire::ProcessReport> next(int waitMs = 0);
    bool closed() const { return m_closed; }
    /// Why the stream stopped being readable (a frame too long or not a report); empty when it did not.
    const std::string& error() const { return m_error; }

private:
    std::optional<wire::ProcessReport> take();
    int m_fd;
    std::string m_buffer;
    bool m_closed = false;
    std::string m_error;
};

CoordinatorEndpoints endpointsOf(const wire::ListeningEndpoints& listening);

}  // namespace syncscope::engine
