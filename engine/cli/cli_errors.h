// printError: how the engine's commands report a failure: one "error: ..." line on stderr (the
// Status message says what was wrong and how to fix it), and the exit code to return.
#pragma once

#include <cstdio>

#include "engine/core/status.h"

namespace syncscope::engine {

inline int printError(const Status& status, int exitCode = 2) {
    std::fprintf(stderr, "error: %s\n", status.message().c_str());
    return exitCode;
}

/// The engine's data errors name the file and the fix; on the command line the folder is a flag.
inline Status withDataFlag(const Status& status) {
    if (status.code() != StatusCode::NotFound && status.code() != StatusCode::DataLoss) return status;
    return Status(status.code(), status.message() + " (the data folder is given with --data DIR)");
}

/// The engine names values, not flags; where the command line gave the value, say which flag it was.
inline Status withFlagHint(const Status& status, const char* hint) {
    if (status) return status;
    return Status(status.code(), status.message() + " (" + hint + ")");
}

}  // namespace syncscope::engine
