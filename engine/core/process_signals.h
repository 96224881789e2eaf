// The signals engine processes answer. SIGINT and SIGTERM: stop gracefully (one handler sets one
// flag, all a signal handler may safely do, and the loops poll it). SIGUSR1 from the parent that
// started a process: "keep running after I exit" (the launcher's children otherwise die with it).
#pragma once

#include <atomic>
#include <csignal>

namespace syncscope::engine {

/// Installs the SIGINT and SIGTERM handlers (once) and returns the flag they set.
const std::atomic<bool>& catchInterrupts();

/// The signal a launcher sends a child it lets outlive it (ProcessLauncher::release).
constexpr int kOutliveParentSignal = SIGUSR1;
/// Installs the handler that, on kOutliveParentSignal, cancels the death signal set at launch.
void allowOutlivingParent();

}  // namespace syncscope::engine
