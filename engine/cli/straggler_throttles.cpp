// StragglerThrottles (see straggler_throttles.h).
#include "engine/cli/straggler_throttles.h"

#include "engine/core/process_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

namespace syncscope::engine {

std::string StragglerThrottles::onEvent(const wire::Event& event, const std::vector<pid_t>& ours) {
    if (event.kind() != wire::EVENT_WORKER_JOINED && event.kind() != wire::EVENT_WORKER_REJOINED) return {};
    auto wanted = m_wanted.find(event.worker_id());
    if (wanted == m_wanted.end()) return {};
    // A revival (a silent worker heard again) names no process: the throttle it had still holds.
    if (!event.has_process()) return {};
    const pid_t pid = static_cast<pid_t>(event.process().pid());
    // A --worker-command worker may be a child of the `sh -c` this cluster started.
    if (!isOrDescendsFrom(pid, ours))
        return fmt::format("worker {} (pid {}@{}) is not a process of this cluster; not limited", event.worker_id(),
                           event.process().pid(), event.process().host());
    m_applied.erase(event.worker_id());  // a replacement: the old process is gone
    auto throttle = CpuThrottle::apply(pid_t(pid), wanted->second);
    if (!throttle) return fmt::format("worker {}: {}", event.worker_id(), throttle.status().message());
    const std::string how = (*throttle)->how();
    m_applied[event.worker_id()] = std::move(*throttle);
    return fmt::format("worker {} (pid {}) limited to {:.0f}% of a CPU: {}", event.worker_id(), pid,
                       100 * wanted->second, how);
}

}  // namespace syncscope::engine
