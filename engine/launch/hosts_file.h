// The hosts file of `launch --hosts FILE`: one host per line, `HOST [WORKERS]` (1 worker when the
// count is left out), `#` comments and blank lines ignored. Every mistake names FILE:LINE and what
// to write instead.
#pragma once

#include <string>
#include <vector>

#include "engine/core/status.h"

namespace syncscope::engine {

struct HostEntry {
    std::string host;      ///< what ssh is given: a name from ssh_config, HOST or USER@HOST
    unsigned workers = 1;  ///< worker processes to start there
    unsigned line = 0;     ///< where the file says so (1-based)
};

/// Parses a hosts file's text; `fileName` names it in messages.
Result<std::vector<HostEntry>> parseHostsFile(const std::string& text, const std::string& fileName);
/// Reads and parses the file at `path`.
Result<std::vector<HostEntry>> readHostsFile(const std::string& path);
/// The workers of all hosts together.
unsigned totalWorkers(const std::vector<HostEntry>& hosts);

}  // namespace syncscope::engine
