// CpuThrottle: a real straggler. The kernel limits one process to a fraction of a CPU, through a
// cgroup v1 CFS quota (cpu.cfs_quota_us, a cgroup of its own) where the cpu controller is
// mounted and writable, else through `cpulimit` (Debian's package), which stops and continues the
// process. Unlike an injected delay, everything the process does is slowed: compute, its network
// threads, its heartbeats.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include "engine/core/process_launcher.h"
#include "engine/core/status.h"

namespace syncscope::engine {

class CpuThrottle {
public:
    /// Limits `pid` to `fraction` (0.01..1) of one CPU; the error says why neither way works here.
    static Result<std::unique_ptr<CpuThrottle>> apply(pid_t pid, double fraction);
    ~CpuThrottle();  ///< lifts the limit (quota off, the process back to the cgroup it came from; cpulimit stops)
    CpuThrottle(const CpuThrottle&) = delete;
    CpuThrottle& operator=(const CpuThrottle&) = delete;

    /// How the limit is applied, for logs: "cgroup v1 CFS quota 25000 us per 100000 us".
    const std::string& how() const { return m_how; }

private:
    CpuThrottle() = default;
    static Status applyCgroupV1(CpuThrottle& throttle, pid_t pid, double fraction);
    static Status applyCpulimit(CpuThrottle& throttle, pid_t pid, double fraction);

    pid_t m_pid = -1;
    std::string m_cgroup, m_parentProcs, m_how;
    std::unique_ptr<ProcessLauncher> m_cpulimit;
};

}  // namespace syncscope::engine
