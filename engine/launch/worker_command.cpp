// workerCommandEnvironment, evaluatorCommandEnvironment (see worker_command.h).
#include "engine/launch/worker_command.h"

#include <algorithm>

namespace syncscope::engine {

WorkerPlace workerPlace(const wire::RunPlan& plan, const std::string& connect, const std::string& credentials,
                        const std::string& dataPlane) {
    const wire::RunLayout& layout = plan.layout();
    WorkerPlace place;
    place.seed = plan.spec().seed();
    place.connect = connect;
    if (!credentials.empty()) place.credentials = credentials, place.dataPlane = dataPlane;
    place.worldSize = layout.workers();
    place.threads = std::max(1u, layout.worker_threads());
    return place;
}

namespace {

std::string entry(const char* name, const std::string& value) { return std::string(name) + "=" + value; }

/// Where the run is: the endpoint, and the keys and data plane (or --insecure).
std::vector<std::string> connectionEnvironment(const WorkerPlace& place) {
    std::vector<std::string> environment{entry(kConnectVariable, place.connect),
                                         entry(kSeedVariable, std::to_string(place.seed))};
    for (const char* threads : kThreadsVariables) environment.push_back(entry(threads, std::to_string(place.threads)));
    if (place.credentials.empty()) {
        environment.push_back(entry(kInsecureVariable, "1"));
    } else {
        environment.push_back(entry(kCredentialsVariable, place.credentials));
        environment.push_back(entry(kDataPlaneVariable, place.dataPlane));
    }
    return environment;
}

}  // namespace

std::vector<std::string> workerCommandEnvironment(const WorkerPlace& place) {
    std::vector<std::string> environment = connectionEnvironment(place);
    environment.insert(environment.end(), {entry(kRankVariable, std::to_string(place.rank)),
                                           entry(kLocalRankVariable, std::to_string(place.localRank)),
                                           entry(kWorldSizeVariable, std::to_string(place.worldSize))});
    return environment;
}

std::vector<std::string> evaluatorCommandEnvironment(const WorkerPlace& place) { return connectionEnvironment(place); }

}  // namespace syncscope::engine
