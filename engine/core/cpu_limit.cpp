// The CPU limit of this process's cgroups, and its CPU time (see cpu_limit.h).
#include "engine/core/cpu_limit.h"

#include <time.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

namespace syncscope::engine {
namespace {

struct Hierarchy {
    bool v2 = false;
    std::string path;  ///< the process's cgroup in it, from /proc/PID/cgroup
};

bool hasItem(std::string_view list, std::string_view item) {
    while (!list.empty()) {
        const size_t comma = list.find(',');
        if (list.substr(0, comma) == item) return true;
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return false;
}

// "12:cpu,cpuacct:/a/b" (v1) and "0::/a/b" (v2): the hierarchies that can hold a CPU limit.
std::vector<Hierarchy> hierarchiesOf(std::istream& in) {
    std::vector<Hierarchy> out;
    for (std::string line; std::getline(in, line);) {
        const size_t first = line.find(':'), second = first == std::string::npos ? first : line.find(':', first + 1);
        if (second == std::string::npos) continue;
        const std::string_view id(line.data(), first), controllers(line.data() + first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        if (id == "0" && controllers.empty())
            out.push_back({true, path});
        else if (hasItem(controllers, "cpu"))
            out.push_back({false, path});
    }
    return out;
}

// mountinfo writes a space, tab, newline or backslash in a path as \ and three octal digits.
std::string unescape(const std::string& field) {
    std::string out;
    for (size_t i = 0; i < field.size(); ++i) {
        const auto octal = [&](size_t k) { return field[k] >= '0' && field[k] <= '7'; };
        if (field[i] == '\\' && i + 3 < field.size() && octal(i + 1) && octal(i + 2) && octal(i + 3)) {
            out += static_cast<char>((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 + (field[i + 3] - '0'));
            i += 3;
        } else {
            out += field[i];
        }
    }
    return out;
}

struct Mount {
    bool v2 = false;
    std::string root, point;  ///< the hierarchy's folder mounted, and where
};

// "36 25 0:31 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct": the cgroup
// v1 mounts with the cpu controller and the cgroup2 mounts.
std::vector<Mount> cgroupMounts(std::istream& in) {
    std::vector<Mount> out;
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::vector<std::string> before;
        std::string field;
        while (fields >> field && field != "-") before.push_back(field);
        std::string type, source, options;
        if (before.size() < 5 || !(fields >> type >> source >> options)) continue;
        if (type == "cgroup2")
            out.push_back({true, unescape(before[3]), unescape(before[4])});
        else if (type == "cgroup" && hasItem(options, "cpu"))
            out.push_back({false, unescape(before[3]), unescape(before[4])});
    }
    return out;
}

// Quota / period of one cgroup folder, in CPUs; 0: none set.
double limitIn(const std::string& folder, bool v2) {
    if (v2) {
        std::ifstream in(folder + "/cpu.max");
        std::string quota;
        double period = 0;
        if (!(in >> quota >> period) || quota == "max" || !(period > 0)) return 0;
        try {
            size_t used = 0;
            const double q = std::stod(quota, &used);
            return used == quota.size() && q > 0 ? q / period : 0;
        } catch (...) {  // not a number
            return 0;
        }
    }
    std::ifstream quotaIn(folder + "/cpu.cfs_quota_us"), periodIn(folder + "/cpu.cfs_period_us");
    double quota = -1, period = 0;
    if (!(quotaIn >> quota) || !(periodIn >> period) || !(quota > 0) || !(period > 0)) return 0;
    return quota / period;
}

}  // namespace

double cpuLimitCores(const std::string& procEntry, const std::string& root) {
    std::ifstream cgroupIn(root + procEntry + "/cgroup"), mountsIn(root + procEntry + "/mountinfo");
    if (!cgroupIn || !mountsIn) return 0;
    const std::vector<Hierarchy> hierarchies = hierarchiesOf(cgroupIn);
    const std::vector<Mount> mounts = cgroupMounts(mountsIn);
    double least = 0;
    for (const Hierarchy& h : hierarchies)
        for (const Mount& m : mounts) {
            if (m.v2 != h.v2) continue;
            // The mount shows the hierarchy from m.root down; the process's cgroup must be in it.
            const bool whole = m.root == "/";
            if (!whole && h.path != m.root && h.path.rfind(m.root + "/", 0) != 0) continue;
            std::string relative = whole ? h.path : h.path.substr(m.root.size());
            while (!relative.empty() && relative.back() == '/') relative.pop_back();
            // From the process's cgroup up to the mount's top: the tightest limit holds.
            for (;;) {
                const double limit = limitIn(root + m.point + relative, m.v2);
                if (limit > 0) least = least > 0 ? std::min(least, limit) : limit;
                if (relative.empty()) break;
                const size_t slash = relative.rfind('/');
                relative.erase(slash == std::string::npos ? 0 : slash);  // (a path without a slash: nonsense, stop)
            }
        }
    return least;
}

double processCpuMs() {
    timespec t{};
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return 0;
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

double CpuLimitWatch::cores() {
    const auto now = std::chrono::steady_clock::now();
    if (!m_read || now - m_readAt >= kRereadEvery) {
        m_cores = cpuLimitCores();
        m_readAt = now;
        m_read = true;
    }
    return m_cores;
}

}  // namespace syncscope::engine
