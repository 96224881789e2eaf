// workerCommandEnvironment (see worker_command.h).
#include "engine/launch/worker_command.h"

namespace syncscope::engine {

std::vector<std::string> workerCommandEnvironment(const WorkerPlace& place) {
    const auto entry = [](const char* name, const std::string& value) { return std::string(name) + "=" + value; };
    std::vector<std::string> environment{entry(kConnectVariable, place.connect),
                                         entry(kRankVariable, std::to_string(place.rank)),
                                         entry(kLocalRankVariable, std::to_string(place.localRank)),
                                         entry(kWorldSizeVariable, std::to_string(place.worldSize)),
                                         entry(kThreadsVariable, std::to_string(place.threads))};
    if (place.credentials.empty()) {
        environment.push_back(entry(kInsecureVariable, "1"));
    } else {
        environment.push_back(entry(kCredentialsVariable, place.credentials));
        environment.push_back(entry(kDataPlaneVariable, place.dataPlane));
    }
    return environment;
}

}  // namespace syncscope::engine
