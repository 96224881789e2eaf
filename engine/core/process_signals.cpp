// Process signals (see process_signals.h).
#include "engine/core/process_signals.h"

#include <sys/prctl.h>

namespace syncscope::engine {
namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler may only touch lock-free atomics");

}  // namespace

const std::atomic<bool>& catchInterrupts() {
    static const bool installed = [] {
        std::signal(SIGINT, [](int) { g_interrupted.store(true); });
        std::signal(SIGTERM, [](int) { g_interrupted.store(true); });
        return true;
    }();
    (void)installed;
    return g_interrupted;
}

void allowOutlivingParent() {
    // prctl is a plain system call: safe in a handler.
    std::signal(kOutliveParentSignal, [](int) { prctl(PR_SET_PDEATHSIG, 0); });
}

}  // namespace syncscope::engine
