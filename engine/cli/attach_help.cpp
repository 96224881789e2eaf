// Attach help (see attach_help.h).
#include "engine/cli/attach_help.h"

#include <cstdio>

namespace syncscope::engine {

void printConsoleAttach(const std::string& host, const CoordinatorEndpoints& bound, const SecurityFlags& security) {
    const std::string control = onHost(bound.control, host);
    if (security.insecure) {
        std::printf("attach a console: syncscope --attach %s --insecure\n", control.c_str());
        return;
    }
    std::printf("attach a console: syncscope --attach %s --credentials %s (telemetry: %s)\n", control.c_str(),
                security.credentials.c_str(), onHost(bound.telemetry, host).c_str());
    std::printf("  or give a console only its role: syncscope-engine keygen --credentials %s --role steer|view "
                "--out FILE\n",
                security.credentials.c_str());
}

}  // namespace syncscope::engine
