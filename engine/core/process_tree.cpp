// parentOf, isOrDescendsFrom (see process_tree.h).
#include "engine/core/process_tree.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace syncscope::engine {

std::optional<pid_t> parentOf(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    if (!in || !std::getline(in, stat)) return std::nullopt;
    // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses, so read after the last ')'.
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) return std::nullopt;
    std::istringstream rest(stat.substr(close + 1));
    char state = 0;
    long parent = -1;
    if (!(rest >> state >> parent) || parent < 0) return std::nullopt;
    return static_cast<pid_t>(parent);
}

bool isOrDescendsFrom(pid_t pid, const std::vector<pid_t>& ancestors, int maxDepth) {
    for (int depth = 0; depth <= maxDepth && pid > 1; ++depth) {
        if (std::find(ancestors.begin(), ancestors.end(), pid) != ancestors.end()) return true;
        auto parent = parentOf(pid);
        if (!parent) return false;
        pid = *parent;
    }
    return false;
}

}  // namespace syncscope::engine
