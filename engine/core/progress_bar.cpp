// ProgressBar: carriage return plus erase-to-end-of-line, understood by every terminal emulator.
#include "engine/core/progress_bar.h"

#include <unistd.h>

#include <algorithm>

namespace syncscope::engine {

ProgressBar::ProgressBar(std::FILE* out)
    : m_out(out), m_tty(isatty(fileno(out)) != 0), m_start(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { finish(); }

std::string ProgressBar::render(long long done, long long total, const std::string& suffix) const {
    constexpr int kWidth = 30;
    const double fraction = total > 0 ? std::clamp(double(done) / double(total), 0.0, 1.0) : 0.0;
    const int filled = static_cast<int>(fraction * kWidth);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    char head[96];
    std::snprintf(head, sizeof head, "%3d%% [%-*s] %lld/%lld %5.1fs ", static_cast<int>(fraction * 100), kWidth,
                  std::string(filled, '#').c_str(), done, total, elapsed);
    return head + suffix;
}

void ProgressBar::update(long long done, long long total, const std::string& suffix) {
    if (!m_tty) return;
    std::fprintf(m_out, "\r%s\033[K", render(done, total, suffix).c_str());
    std::fflush(m_out);
    m_open = true;
}

void ProgressBar::keep(long long done, long long total, const std::string& suffix) {
    std::fprintf(m_out, m_tty ? "\r%s\033[K\n" : "%s\n", render(done, total, suffix).c_str());
    std::fflush(m_out);
    m_open = false;
}

void ProgressBar::note(const std::string& line) {
    std::fprintf(m_out, m_tty && m_open ? "\r%s\033[K\n" : "%s\n", line.c_str());
    std::fflush(m_out);
    m_open = false;
}

void ProgressBar::finish() {
    if (m_open) std::fputc('\n', m_out);
    m_open = false;
}

}  // namespace syncscope::engine
