// Hosts files (see hosts_file.h).
#include "engine/launch/hosts_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "engine/plan/mode_catalog.h"

namespace syncscope::engine {
namespace {

constexpr const char* kFormat = "write one host per line as HOST [WORKERS], e.g. 'node3 4'";

Result<unsigned> parseWorkers(const std::string& text, const std::string& where, const std::string& host) {
    const unsigned limit = runLimits().max_workers();
    if (text.find_first_not_of("0123456789") != std::string::npos)
        return invalidArgument(fmt::format("{}: '{}' is not a worker count for {}; {}", where, text, host, kFormat));
    if (text.size() > 9 || std::stoul(text) > limit)
        return invalidArgument(fmt::format("{}: {} workers for {} is more than a run may have ({})", where, text,
                                           host, limit));
    const unsigned workers = static_cast<unsigned>(std::stoul(text));
    if (workers == 0)
        return invalidArgument(fmt::format("{}: 0 workers for {}; give 1 or more, or remove the line (or put # "
                                           "before it)", where, host));
    return workers;
}

}  // namespace

Result<std::vector<HostEntry>> parseHostsFile(const std::string& text, const std::string& fileName) {
    std::vector<HostEntry> hosts;
    std::istringstream lines(text);
    std::string line;
    for (unsigned number = 1; std::getline(lines, line); ++number) {
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::vector<std::string> fields;
        for (std::string word; words >> word;) fields.push_back(word);
        if (fields.empty()) continue;
        const std::string where = fmt::format("{}:{}", fileName, number);
        if (fields.size() > 2)
            return invalidArgument(fmt::format("{}: '{}' has {} fields; {}", where, fields.front(), fields.size(), kFormat));
        HostEntry entry{fields[0], 1, number};
        // A leading '-' would reach ssh as an option (-oProxyCommand=...), not as a host.
        if (entry.host.front() == '-')
            return invalidArgument(fmt::format("{}: '{}' is not a host name; {}", where, entry.host, kFormat));
        if (fields.size() == 2) {
            auto workers = parseWorkers(fields[1], where, entry.host);
            if (!workers) return workers.status();
            entry.workers = *workers;
        }
        for (const HostEntry& earlier : hosts)
            if (earlier.host == entry.host)
                return invalidArgument(fmt::format("{}: {} is listed again (first on line {}); give it once, with "
                                                   "all its workers", where, entry.host, earlier.line));
        hosts.push_back(entry);
    }
    if (hosts.empty())
        return invalidArgument(fmt::format("{} lists no hosts; {} (a line without a count starts 1 worker)", fileName,
                                           kFormat));
    if (totalWorkers(hosts) > runLimits().max_workers())
        return invalidArgument(fmt::format("{} lists {} workers in all, more than a run may have ({})", fileName,
                                           totalWorkers(hosts), runLimits().max_workers()));
    return hosts;
}

Result<std::vector<HostEntry>> readHostsFile(const std::string& path) {
    std::ifstream file(path);
    if (!file)
        return notFound(fmt::format("cannot read the hosts file {} ({}); {} (--hosts FILE)", path,
                                    std::strerror(errno), kFormat));
    std::ostringstream text;
    text << file.rdbuf();
    return parseHostsFile(text.str(), path);
}

unsigned totalWorkers(const std::vector<HostEntry>& hosts) {
    unsigned total = 0;
    for (const HostEntry& h : hosts) total += h.workers;
    return total;
}

}  // namespace syncscope::engine
