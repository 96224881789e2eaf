// Grouping: which group each worker is in, for the grouped mode (and auto's choice of it).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/proto/syncscope.pb.h"
#include "engine/policy/worker_registry.h"

namespace syncscope::engine {

/// Worker id -> group (0..G-1) for the participating workers. Round robin over ids; by speed:
/// sorted by measured speed (WorkerRecord::sustainedSpeed: a CPU quota counts) and cut at the G-1 largest speed ratios between neighbours, so a
/// straggler gets a group of its own; explicit: the given map, unnamed workers round robin.
/// G is plannedGroupCount clamped to the number of workers.
std::map<uint32_t, uint32_t> assignGroups(const WorkerRegistry& workers, uint32_t count, wire::GroupBy by,
                                          const google::protobuf::Map<uint32_t, uint32_t>& assignment);

/// The number of groups asked for: `count`; when it is 0, with an explicit assignment the largest
/// group named + 1, else the catalog's default group_count.
uint32_t plannedGroupCount(uint32_t count, wire::GroupBy by, const google::protobuf::Map<uint32_t, uint32_t>& assignment);

/// The group worker `id` belongs in by the settings alone: the group its explicit assignment names
/// (clamped to the `groups` there are), else its round-robin group, id mod `groups`.
uint32_t ownGroup(uint32_t id, uint32_t groups, wire::GroupBy by, const google::protobuf::Map<uint32_t, uint32_t>& assignment);

/// The group of worker `id` when it starts taking part after the groups were formed, `sizes` being
/// the members each group has or will have (workers still starting counted in their ownGroup): a
/// named worker's group; else its own group when that is one of the smallest, else the first
/// smallest. So workers that start in any order (a PyTorch worker imports torch at its own pace)
/// end where their ids put them, and a late joiner still evens the groups out.
uint32_t newcomerGroup(uint32_t id, const std::vector<size_t>& sizes, wire::GroupBy by,
                       const google::protobuf::Map<uint32_t, uint32_t>& assignment);

/// How cleanly `groups` split the participating workers by measured speed: with the groups in
/// order of their fastest member, the smallest ratio between one group's slowest member and the
/// next group's fastest (below 1: their speeds overlap). 0 with fewer than 2 groups or a worker
/// not yet measured. For the by-speed assignment it is the smallest of the gaps it cut at.
double speedSeparation(const WorkerRegistry& workers, const std::map<uint32_t, uint32_t>& groups);

/// Worker id -> WorkerRecord::group for the participating workers.
std::map<uint32_t, uint32_t> currentGroups(const WorkerRegistry& workers);

/// "[0 1 2] [3]" from WorkerRecord::group of the participating workers.
std::string describeGroups(const WorkerRegistry& workers);
/// "[0 1 2] [3]" from a worker -> group map.
std::string describeAssignment(const std::map<uint32_t, uint32_t>& groups);

}  // namespace syncscope::engine
