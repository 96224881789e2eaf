// StragglerThrottles: `run --cpu-quota WORKER:SHARE`: once worker WORKER has joined (its pid comes
// in its worker_joined event), the kernel limits that process to SHARE of a CPU (CpuThrottle). A
// replacement process that takes the id over is limited again.
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
    /// Parses "WORKER:SHARE" flags (share in 0.01..1); the error names the flag and the fix.
    static Result<StragglerThrottles> parse(const std::vector<std::string>& flags);
    bool empty() const { return m_wanted.empty(); }

    /// Applies a limit when `event` is the join of a worker that should have one and whose process
    /// is one of `ours` (nobody else's process is ever limited). Returns what it did or why not.
    std::string onEvent(const wire::Event& event, const std::vector<pid_t>& ours);

private:
    std::map<uint32_t, double> m_wanted;
    std::map<uint32_t, std::unique_ptr<CpuThrottle>> m_applied;
};

}  // namespace syncscope::engine
