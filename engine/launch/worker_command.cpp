// workerCommandEnvironment (see worker_command.h).
#include "engine/launch/worker_command.h"

#include <algorithm>

namespace syncscope::engine {

WorkerPlace workerPlace(const wire::RunLayout& layout, const std::string& connect, const std::string& credentials,
                        const std::string& dataPlane) {
    WorkerPlace place;
    place.connect = connect;
    if (!credentials.empty()) place.credentials = credentials, place.dataPlane = dataPlane;
    place.worldSize = layout.workers();
    place.threads = std::max(1u, layout.worker_threads());
    return place;
}

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
