// A process's resident memory, for the benchmarks that watch a coordinator over time.
#pragma once

#include <sys/types.h>

#include <fstream>
#include <string>

namespace syncscope::bench {

/// VmRSS of `pid` in MiB, from /proc/PID/status; 0 when it cannot be read (the process is gone).
inline double rssMiB(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
    return 0;
}

}  // namespace syncscope::bench
