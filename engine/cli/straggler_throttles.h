// StragglerThrottles: `run --cpu-quota WORKER:SHARE`: once worker WORKER has joined (its pid comes
// in its worker_joined event), the kernel limits that process to SHARE of a CPU (CpuThrottle). A
// replacement process that takes the id over is limited again. A --worker-command worker's process is
// the user's script, which may run as a child of the `sh -c` that `run` started: it is limited too.
#pragma once

#include <sys/types.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/cpu_throttle.h"
#include "engine/proto/syncscope.pb.h"

namespace syncscope::engine {

class StragglerThrottles {
public:
    /// The plan's shares (RunLayout.cpu_quotas: worker id -> share of one CPU, validated).
    explicit StragglerThrottles(const wire::RunLayout& layout) : m_wanted(layout.cpu_quotas().begin(), layout.cpu_quotas().end()) {}
    bool empty() const { return m_wanted.empty(); }

    /// Applies a limit when `event` is the join of a worker that should have one and whose process
    /// is one of `ours` or descends from one (nobody else's process is ever limited). Returns what it did or why not.
    std::string onEvent(const wire::Event& event, const std::vector<pid_t>& ours);

private:
    std::map<uint32_t, double> m_wanted;
    std::map<uint32_t, std::unique_ptr<CpuThrottle>> m_applied;
};

}  // namespace syncscope::engine
