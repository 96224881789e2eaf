// What a person can do about a failed write, by its errno: the recording and the checkpoints
// both report a disk that filled up or a path that stopped being writable in the middle of a run.
#pragma once

#include <cerrno>
#include <string>

namespace syncscope::engine {

/// "free disk space", "create the folder again", ...: the fix for a write that failed with `error`.
inline std::string storageFix(int error) {
    switch (error) {
        case ENOSPC:
        case EDQUOT: return "free disk space";
        case EFBIG: return "free disk space or raise the file-size limit (ulimit -f, a quota)";
        case ENOENT:
        case ENOTDIR: return "create the folder again (it was removed or replaced)";
        case EACCES:
        case EPERM:
        case EROFS: return "make the path writable again (its permissions, or a read-only mount)";
        default: return "check the disk and the path";
    }
}

}  // namespace syncscope::engine
