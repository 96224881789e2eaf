// Slurm task variables and host lists (see slurm_task.h).
#include "engine/launch/slurm_task.h"

#include <cstdlib>
#include <vector>

namespace syncscope::engine {
namespace {

Result<unsigned> readCount(const std::function<const char*(const char*)>& getenv, const char* name) {
    const char* text = getenv(name);
    if (!text || !*text)
        return invalidArgument(std::string(name) +
                               " is not set: `launch --slurm` runs as a task of a Slurm job step; start it with "
                               "srun inside an allocation (salloc, or an sbatch script)");
    char* end = nullptr;
    const unsigned long value = std::strtoul(text, &end, 10);
    if (*end != '\0' || value > 1000000) return invalidArgument(std::string(name) + "='" + text + "' is not a task count");
    return static_cast<unsigned>(value);
}

std::vector<std::string> splitOnCommas(const std::string& text) {
    std::vector<std::string> parts(1);
    for (char c : text) {
        if (c == ',') parts.emplace_back();
        else parts.back() += c;
    }
    return parts;
}

}  // namespace

Result<std::string> firstHostOf(const std::string& nodeList) {
    std::string host;
    size_t i = 0;
    for (; i < nodeList.size() && nodeList[i] != ','; ++i) {
        if (nodeList[i] != '[') {
            host += nodeList[i];
            continue;
        }
        const size_t close = nodeList.find(']', i);
        if (close == std::string::npos) break;
        // The first entry of the bracket, and of its range: "07-09,12" -> "07" (zero padding kept).
        const std::string first = splitOnCommas(nodeList.substr(i + 1, close - i - 1)).front();
        const std::string start = first.substr(0, first.find('-'));
        if (start.empty() || start.find_first_not_of("0123456789") != std::string::npos) break;
        host += start;
        i = close;
    }
    if (host.empty() || (i < nodeList.size() && nodeList[i] != ','))
        return invalidArgument("cannot read the first host of the Slurm host list '" + nodeList +
                               "' (`scontrol show hostnames` expands it); please report this list");
    return host;
}

Result<SlurmTask> slurmTaskFromEnvironment(const std::function<const char*(const char*)>& getenvIn) {
    const std::function<const char*(const char*)> getenv =
        getenvIn ? getenvIn : [](const char* name) -> const char* { return std::getenv(name); };
    SlurmTask task;
    auto rank = readCount(getenv, "SLURM_PROCID");
    if (!rank) return rank.status();
    auto tasks = readCount(getenv, "SLURM_NTASKS");
    if (!tasks) return tasks.status();
    auto localId = readCount(getenv, "SLURM_LOCALID");
    if (!localId) return localId.status();
    if (*rank >= *tasks)
        return invalidArgument("SLURM_PROCID " + std::to_string(*rank) + " is not below SLURM_NTASKS " +
                               std::to_string(*tasks));
    task.rank = *rank;
    task.tasks = *tasks;
    task.localId = *localId;
    const char* nodeList = getenv("SLURM_STEP_NODELIST");
    if (!nodeList || !*nodeList) nodeList = getenv("SLURM_JOB_NODELIST");  // set by salloc/sbatch, not srun
    if (!nodeList || !*nodeList)
        return invalidArgument("SLURM_STEP_NODELIST is not set: start `launch --slurm` with srun inside an allocation");
    auto first = firstHostOf(nodeList);
    if (!first) return first.status();
    task.firstHost = *first;
    const auto text = [&](const char* name) { const char* v = getenv(name); return std::string(v ? v : ""); };
    task.nodeName = text("SLURMD_NODENAME");
    task.jobId = text("SLURM_JOB_ID");
    task.submitDir = text("SLURM_SUBMIT_DIR");
    return task;
}

std::optional<std::string> gpuForLocalTask(unsigned localId, const std::string& cudaVisibleDevices) {
    if (cudaVisibleDevices.empty()) return std::nullopt;
    const std::vector<std::string> devices = splitOnCommas(cudaVisibleDevices);
    if (devices.size() < 2) return std::nullopt;
    return devices[localId % devices.size()];
}

}  // namespace syncscope::engine
