// CpuThrottle (see cpu_throttle.h).
#include "engine/core/cpu_throttle.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace syncscope::engine {
namespace {

// The CFS period: the kernel's default is 100 ms, and the kernel's smallest quota 1 ms. A throttled
// process runs at full speed until its quota for the period is spent, then waits for the next: with
// 100 ms periods a worker at 10% of a CPU computes a small batch (under 10 ms of CPU) at full speed
// and a large one at a tenth, so its speed depends on its batch, and elastic batch sizing chased it
// (batch 17 -> 86 -> 17 in the seeds' reproduction). The shortest period whose quota is still at
// least 1 ms makes the share even over time, as on a slower machine.
constexpr long kMinPeriodUs = 10'000, kMaxPeriodUs = 100'000, kMinQuotaUs = 1'000;
long periodFor(double fraction) {
    return std::clamp(static_cast<long>(kMinQuotaUs / fraction + 0.5), kMinPeriodUs, kMaxPeriodUs);
}

Status writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path);
    if (!out || !(out << text) || !out.flush())
        return unavailable(fmt::format("cannot write '{}' to {}: {}", text, path, std::strerror(errno)));
    return Status::ok();
}

// The cgroup v1 hierarchy with the cpu controller: Debian mounts it as cpu,cpuacct with a cpu link.
std::string cgroupV1CpuRoot() {
    for (const char* root : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"})
        if (::access((std::string(root) + "/cpu.cfs_quota_us").c_str(), F_OK) == 0) return root;
    return {};
}

// The cpu controller's cgroup `pid` is in now, from /proc/PID/cgroup ("1:cpu,cpuacct:/a/b"), relative to
// the hierarchy's root; "/" when it cannot be read.
std::string cpuCgroupOf(pid_t pid) {
    std::ifstream in(fmt::format("/proc/{}/cgroup", pid));
    for (std::string line; std::getline(in, line);) {
        const size_t first = line.find(':'), second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) continue;
        std::istringstream controllers(line.substr(first + 1, second - first - 1));
        for (std::string name; std::getline(controllers, name, ',');)
            if (name == "cpu") return line.substr(second + 1);
    }
    return "/";
}

}  // namespace

Result<std::unique_ptr<CpuThrottle>> CpuThrottle::apply(pid_t pid, double fraction) {
    if (!(fraction >= 0.01 && fraction <= 1.0))
        return invalidArgument(fmt::format("a CPU share of {} is outside 0.01..1", fraction));
    auto throttle = std::unique_ptr<CpuThrottle>(new CpuThrottle);
    throttle->m_pid = pid;
    const Status cgroup = applyCgroupV1(*throttle, pid, fraction);
    if (cgroup) return throttle;
    const Status cpulimit = applyCpulimit(*throttle, pid, fraction);
    if (cpulimit) return throttle;
    return unavailable(fmt::format("cannot limit process {} to {:.0f}% of a CPU: {}; and {} (run as root on a "
                                   "machine with the cgroup v1 cpu controller, or install cpulimit)",
                                   pid, 100 * fraction, cgroup.message(), cpulimit.message()));
}

Status CpuThrottle::applyCgroupV1(CpuThrottle& t, pid_t pid, double fraction) {
    const std::string root = cgroupV1CpuRoot();
    if (root.empty()) return unavailable("no cgroup v1 cpu controller is mounted");
    const std::string cgroup = fmt::format("{}/syncscope-straggler-{}", root, pid);
    if (::mkdir(cgroup.c_str(), 0755) != 0 && errno != EEXIST)
        return unavailable(fmt::format("cannot make {}: {}", cgroup, std::strerror(errno)));
    t.m_cgroup = cgroup;
    const std::string from = cpuCgroupOf(pid);
    t.m_parentProcs = (from == "/" ? root : root + from) + "/cgroup.procs";
    const long period = periodFor(fraction);
    const long quota = std::max(kMinQuotaUs, static_cast<long>(fraction * static_cast<double>(period) + 0.5));
    for (const auto& [file, value] : {std::pair{"cpu.cfs_period_us", period}, std::pair{"cpu.cfs_quota_us", quota}})
        if (Status s = writeFile(cgroup + "/" + file, std::to_string(value)); !s) return s;
    if (Status s = writeFile(cgroup + "/cgroup.procs", std::to_string(pid)); !s) return s;
    t.m_how = fmt::format("cgroup v1 CFS quota {} us per {} us", quota, period);
    return Status::ok();
}

Status CpuThrottle::applyCpulimit(CpuThrottle& t, pid_t pid, double fraction) {
    for (const char* dir : {"/usr/bin/cpulimit", "/usr/local/bin/cpulimit"}) {
        if (::access(dir, X_OK) != 0) continue;
        t.m_cpulimit = std::make_unique<ProcessLauncher>();
        const std::string percent = std::to_string(std::max(1, static_cast<int>(100 * fraction + 0.5)));
        // cpulimit says "Exiting..." on stdout when its target ends, even with --quiet: sent to
        // stderr, it cannot land inside a command's output (run --json's JSON, for one).
        LaunchOptions options;
        options.stdoutFd = STDERR_FILENO;
        auto started = t.m_cpulimit->start(dir, {"--pid", std::to_string(pid), "--limit", percent, "--lazy", "--quiet"},
                                           options);
        if (!started) return started.status();
        t.m_how = "cpulimit at " + percent + "% (SIGSTOP/SIGCONT)";
        return Status::ok();
    }
    return unavailable("cpulimit is not installed");
}

CpuThrottle::~CpuThrottle() {
    if (m_cpulimit) m_cpulimit->signalAll(SIGTERM);  // cpulimit continues its target when it exits
    if (m_cgroup.empty()) return;
    // Lift the quota first: that always works where it was set, even where moving the process back
    // is refused (seen in CI: the process stayed at a quarter of a CPU after the throttle went).
    (void)writeFile(m_cgroup + "/cpu.cfs_quota_us", "-1");
    if (::kill(m_pid, 0) == 0) (void)writeFile(m_parentProcs, std::to_string(m_pid));
    ::rmdir(m_cgroup.c_str());  // only possible once the cgroup is empty
}

}  // namespace syncscope::engine
