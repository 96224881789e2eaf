// --report-fd, the flag of every command a program starts and waits to hear from (serve, aggregate,
// shard): the descriptor of a pipe to write ProcessReports to (engine/net/process_report.h).
#pragma once

#include <CLI/CLI.hpp>

namespace syncscope::engine {

inline void addReportFdFlag(CLI::App& cmd, int& reportFd, const char* what) {
    cmd.add_option("--report-fd", reportFd,
                   std::string("For a program that starts this one: an open descriptor (a pipe) to write ") + what +
                       " to, as length-prefixed protobuf ProcessReports")
        ->check(CLI::Range(3, 65535));
}

}  // namespace syncscope::engine
