// Who started a process: its parent, read from /proc (Linux). `run` limits the CPU of its own
// workers only; a --worker-command worker is the user's script under `sh -c`, so the process that
// joins the run may be a child (or grandchild) of the one `run` started.
#pragma once

#include <sys/types.h>

#include <optional>
#include <vector>

namespace syncscope::engine {

/// The parent of `pid` (/proc/PID/stat); none when the process is gone or /proc cannot be read.
std::optional<pid_t> parentOf(pid_t pid);

/// Whether `pid` is one of `ancestors` or descends from one of them, within `maxDepth` generations.
bool isOrDescendsFrom(pid_t pid, const std::vector<pid_t>& ancestors, int maxDepth = 8);

}  // namespace syncscope::engine
