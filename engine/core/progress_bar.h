// ProgressBar: one line of progress for long CLI work. On a terminal it redraws in place;
// otherwise (CI logs, pipes) it prints a plain line only when asked to keep one.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace syncscope::engine {

class ProgressBar {
public:
    explicit ProgressBar(std::FILE* out = stderr);
    ~ProgressBar();

    /// Shows done/total with a free-text suffix ("loss 0.41  acc 87.2%").
    void update(long long done, long long total, const std::string& suffix);
    /// Ends the current line so it stays visible (on a terminal), or prints it (elsewhere).
    void keep(long long done, long long total, const std::string& suffix);
    void finish();
    /// Prints a line of its own above the bar (the bar is drawn again by the next update).
    void note(const std::string& line);

private:
    std::string render(long long done, long long total, const std::string& suffix) const;
    std::FILE* m_out;
    bool m_tty;
    bool m_open = false;
    std::chrono::steady_clock::time_point m_start;
};

}  // namespace syncscope::engine
