// Process reports (see process_report.h).
#include "engine/net/process_report.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "engine/net/protocol.h"

namespace syncscope::engine {

Status writeProcessReport(int fd, const wire::ProcessReport& report) {
    // A starting process that has gone (or closed its end) must cost a failed write, not the process:
    // SIGPIPE's default would end a coordinator before it prints its result.
    static const bool brokenPipesIgnored = [] { return std::signal(SIGPIPE, SIG_IGN) != SIG_ERR; }();
    (void)brokenPipesIgnored;
    const std::string payload = report.SerializeAsString();
    std::string frame(4, '\0');
    for (int i = 0; i < 4; ++i) frame[i] = static_cast<char>((payload.size() >> (8 * i)) & 0xFF);
    frame += payload;
    for (size_t written = 0; written < frame.size();) {
        const ssize_t n = ::write(fd, frame.data() + written, frame.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return unavailable(std::string("cannot report to the starting process: ") + std::strerror(errno));
        written += size_t(n);
    }
    return Status::ok();
}

std::optional<wire::ProcessReport> ProcessReportReader::take() {
    if (m_buffer.size() < 4 || !m_error.empty()) return std::nullopt;
    uint32_t length = 0;
    for (int i = 0; i < 4; ++i) length |= uint32_t(uint8_t(m_buffer[i])) << (8 * i);
    if (length > kMaxProcessReportBytes) {  // no report comes near it: not a stream of reports
        m_error = "a report of " + std::to_string(length) + " bytes: the stream is not one of reports";
        return std::nullopt;
    }
    if (m_buffer.size() < 4 + size_t(length)) return std::nullopt;
    wire::ProcessReport report;
    const bool parsed = report.ParseFromArray(m_buffer.data() + 4, static_cast<int>(length));
    m_buffer.erase(0, 4 + size_t(length));
    if (!parsed) {
        m_error = "a report that does not parse";
        return std::nullopt;
    }
    return report;
}

std::optional<wire::ProcessReport> ProcessReportReader::next(int waitMs) {
    if (auto report = take()) return report;
    while (!m_closed && m_error.empty()) {
        pollfd p{m_fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, waitMs);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return std::nullopt;
        char chunk[4096];
        const ssize_t n = ::read(m_fd, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) {
            m_closed = true;
            break;
        }
        m_buffer.append(chunk, size_t(n));
        if (auto report = take()) return report;
    }
    return take();
}

CoordinatorEndpoints endpointsOf(const wire::ListeningEndpoints& listening) {
    return {listening.data(), listening.control(), listening.telemetry()};
}

}  // namespace syncscope::engine
