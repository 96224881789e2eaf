// The endpoints line (see endpoints_line.h).
#include "engine/net/endpoints_line.h"

#include <sstream>

#include "engine/core/printable.h"

namespace syncscope::engine {

bool plausibleEndpoint(const std::string& endpoint) {
    return endpoint.size() <= 255 && (endpoint.rfind("tcp://", 0) == 0 || endpoint.rfind("ipc://", 0) == 0) &&
           printable(endpoint, 255) == endpoint;
}

std::string formatEndpointsLine(const CoordinatorEndpoints& e) {
    return "endpoints data=" + e.data + " control=" + e.control + " telemetry=" + e.telemetry;
}

Result<CoordinatorEndpoints> parseEndpointsLine(const std::string& line) {
    std::istringstream in(line);
    std::string word;
    CoordinatorEndpoints e;
    in >> word;
    if (word != "endpoints") return invalidArgument("not an endpoints line: " + line);
    while (in >> word) {
        const auto eq = word.find('=');
        if (eq == std::string::npos) continue;
        const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
        if (key == "data") e.data = value;
        else if (key == "control") e.control = value;
        else if (key == "telemetry") e.telemetry = value;
    }
    if (e.data.empty() || e.control.empty() || e.telemetry.empty())
        return invalidArgument("incomplete endpoints line: " + line);
    return e;
}

std::string onHost(const std::string& endpoint, const std::string& host) {
    return "tcp://" + host + endpoint.substr(endpoint.rfind(':'));
}

}  // namespace syncscope::engine
