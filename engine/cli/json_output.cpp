// --json (see json_output.h).
#include "engine/cli/json_output.h"

namespace syncscope::engine {

void addJsonFlag(CLI::App& command, bool& json) {
    command.add_flag("--json", json,
                     "Print the results as one JSON object on standard output (progress stays on standard error)");
}

void printJson(const nlohmann::json& result) {
    // Invalid UTF-8 (a file name) is replaced rather than thrown on.
    std::fputs(result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

}  // namespace syncscope::engine
