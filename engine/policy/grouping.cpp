// Grouping (see grouping.h).
#include "engine/policy/grouping.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "engine/plan/mode_catalog.h"

namespace syncscope::engine {

std::map<uint32_t, uint32_t> assignGroups(const WorkerRegistry& workers, uint32_t count, wire::GroupBy by,
                                          const google::protobuf::Map<uint32_t, uint32_t>& assignment) {
    std::vector<uint32_t> ids = workers.participantIds();
    std::map<uint32_t, uint32_t> groups;
    if (ids.empty()) return groups;
    count = plannedGroupCount(count, by, assignment);
    const uint32_t g = std::max<uint32_t>(1, std::min<uint32_t>(count, static_cast<uint32_t>(ids.size())));
    if (by == wire::GROUP_BY_SPEED) {
        // Fastest first; cut where the ratio between neighbours is largest (unknown speed: fast).
        auto speed = [&](uint32_t id) {
            const double s = workers.all().at(id).sustainedSpeed();
            return s > 0 ? s : 1e12;
        };
        std::stable_sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) { return speed(a) > speed(b); });
        std::vector<std::pair<double, size_t>> gaps;  // (ratio, cut before index)
        for (size_t i = 1; i < ids.size(); ++i) gaps.push_back({speed(ids[i - 1]) / speed(ids[i]), i});
        std::stable_sort(gaps.begin(), gaps.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        std::vector<size_t> cuts;
        for (uint32_t i = 0; i + 1 < g; ++i) cuts.push_back(gaps[i].second);
        std::sort(cuts.begin(), cuts.end());
        uint32_t group = 0;
        for (size_t i = 0; i < ids.size(); ++i) {
            if (group < cuts.size() && i == cuts[group]) ++group;
            groups[ids[i]] = group;
        }
        return groups;
    }
    uint32_t next = 0;
    for (uint32_t id : ids) {
        auto it = by == wire::GROUP_EXPLICIT ? assignment.find(id) : assignment.end();
        groups[id] = it != assignment.end() ? std::min(it->second, g - 1) : next++ % g;
    }
    return groups;
}

uint32_t plannedGroupCount(uint32_t count, wire::GroupBy by, const google::protobuf::Map<uint32_t, uint32_t>& assignment) {
    if (by == wire::GROUP_EXPLICIT && count == 0)
        for (const auto& [worker, group] : assignment) count = std::max(count, group + 1);
    if (count == 0) count = static_cast<uint32_t>(findParameter(modeCatalog(), "group_count")->default_value());
    return count;
}

uint32_t ownGroup(uint32_t id, uint32_t groups, wire::GroupBy by, const google::protobuf::Map<uint32_t, uint32_t>& assignment) {
    groups = std::max<uint32_t>(1, groups);
    if (by == wire::GROUP_EXPLICIT)
        if (auto it = assignment.find(id); it != assignment.end()) return std::min(it->second, groups - 1);
    return id % groups;
}

uint32_t newcomerGroup(uint32_t id, const std::vector<size_t>& sizes, wire::GroupBy by,
                       const google::protobuf::Map<uint32_t, uint32_t>& assignment) {
    if (sizes.empty()) return 0;
    const uint32_t own = ownGroup(id, static_cast<uint32_t>(sizes.size()), by, assignment);
    if (by == wire::GROUP_EXPLICIT && assignment.count(id)) return own;
    const auto smallest = static_cast<uint32_t>(std::min_element(sizes.begin(), sizes.end()) - sizes.begin());
    return sizes[own] == sizes[smallest] ? own : smallest;
}

double speedSeparation(const WorkerRegistry& workers, const std::map<uint32_t, uint32_t>& groups) {
    std::map<uint32_t, std::pair<double, double>> range;  // group -> (slowest, fastest)
    for (const auto& [id, group] : groups) {
        const double s = workers.all().at(id).sustainedSpeed();
        if (!(s > 0)) return 0;
        auto [it, fresh] = range.try_emplace(group, s, s);
        if (!fresh) it->second = {std::min(it->second.first, s), std::max(it->second.second, s)};
    }
    if (range.size() < 2) return 0;
    std::vector<std::pair<double, double>> ordered;
    for (const auto& [group, r] : range) ordered.push_back(r);
    std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    double separation = std::numeric_limits<double>::infinity();
    for (size_t i = 1; i < ordered.size(); ++i) separation = std::min(separation, ordered[i - 1].first / ordered[i].second);
    return separation;
}

std::map<uint32_t, uint32_t> currentGroups(const WorkerRegistry& workers) {
    std::map<uint32_t, uint32_t> groups;
    for (uint32_t id : workers.participantIds()) groups[id] = workers.all().at(id).group;
    return groups;
}

std::string describeGroups(const WorkerRegistry& workers) { return describeAssignment(currentGroups(workers)); }

std::string describeAssignment(const std::map<uint32_t, uint32_t>& groups) {
    std::map<uint32_t, std::vector<uint32_t>> members;
    for (const auto& [id, group] : groups) members[group].push_back(id);
    std::string text;
    for (const auto& [group, ids] : members) {
        text += text.empty() ? "[" : " [";
        for (size_t i = 0; i < ids.size(); ++i) {
            if (i) text += ' ';
            text += std::to_string(ids[i]);
        }
        text += "]";
    }
    return text;
}

}  // namespace syncscope::engine
