// The CPU the kernel lets this process use (issue 29): a CFS bandwidth limit on its cgroup (cgroup v2
// cpu.max, v1 cpu.cfs_quota_us / cpu.cfs_period_us: Kubernetes' and Docker's CPU limits, Slurm's and
// systemd's CPUQuota, `run --cpu-quota`), and the CPU time it has used. A worker under a quota runs a
// small batch at full speed on quota it saved while it waited, and is throttled later, somewhere in
// a later iteration: its compute times lie about its sustained speed, which is its CPU time per
// iteration over the limit. Workers report both with each push (Push.cpu_ms, Push.cpu_limit).
#pragma once

#include <chrono>
#include <string>

namespace syncscope::engine {

/// The smallest CFS quota / period, in CPUs, over the cgroup of the process whose /proc entry is
/// `procEntry` and the cgroups above it, on every cgroup v1 cpu or v2 hierarchy mounted; 0 where no
/// limit is set or none can be read. `root` prefixes every path read (tests give a fake tree).
double cpuLimitCores(const std::string& procEntry = "/proc/self", const std::string& root = "");

/// CPU time this process has used (all its threads, user and system), in ms.
double processCpuMs();

/// cpuLimitCores() of this process, read again at most once per kRereadEvery (a limit may be set,
/// changed or lifted while the process runs: `run --cpu-quota` sets it once the worker has joined).
class CpuLimitWatch {
public:
    static constexpr std::chrono::milliseconds kRereadEvery{1000};
    double cores();

private:
    double m_cores = 0;
    std::chrono::steady_clock::time_point m_readAt{};
    bool m_read = false;
};

}  // namespace syncscope::engine
