// WorkerRegistry: ids are handed out in order and never reused, so a recording stays unambiguous.
#include "engine/policy/worker_registry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace syncscope::engine {

void WorkerRecord::recordStaleness(uint64_t tau) {
    ++stalenessHistogram[std::min<uint64_t>(tau, WorkerRegistry::kStalenessBuckets - 1)];
    stalenessSum += static_cast<double>(tau);
}

namespace {

/// Puts `value` into the ring (at most `window` long, `next` the slot to overwrite) and returns the
/// ring's median.
double ringMedian(std::vector<double>& ring, size_t& next, size_t window, double value) {
    if (ring.size() < window)
        ring.push_back(value);
    else
        ring[next] = value;
    next = (next + 1) % window;
    std::vector<double> sorted = ring;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    return sorted[sorted.size() / 2];
}

}  // namespace

void WorkerRecord::recordCompute(uint32_t batch, double ms) {
    compute.record(batch, ms);
    computeSpeed = compute.samplesPerSecond();
}

void WorkerRecord::recordCpu(uint32_t batch, double cpuMs, double limit) {
    cpu.record(batch, cpuMs);  // 0 (a worker before 1.14, or its first push) is not recorded
    cpuLimit = limit > 0 && std::isfinite(limit) ? limit : 0.0;
}

double WorkerRecord::batchWithin(double ms) const {
    const double batch = (ms - compute.fixedMs() - typicalCommMs) / compute.perSampleMs();
    if (!(quotaBoundMs(1) > 0)) return batch;
    return std::min(batch, (ms * cpuLimit - cpu.fixedMs()) / cpu.perSampleMs());  // quotaBoundMs(b) <= ms
}

void WorkerRecord::recordComm(double ms) { typicalCommMs = ringMedian(recentComm, nextComm, kSpeedWindow, ms); }

uint32_t WorkerRecord::takeReleaseBatch(Clock::time_point now) {
    assignedBatch = handOffBatch ? handOffBatch : batchSize;
    handOffBatch = 0;
    releasedAt = now;
    return assignedBatch;
}

WorkerRecord& WorkerRegistry::add(const std::string& identity, const std::string& route, uint32_t batchSize) {
    const uint32_t id = m_nextId++;
    WorkerRecord& record = m_workers[id];
    record.id = id;
    record.identity = identity;
    record.route = route;
    record.lastSeen = Clock::now();
    record.batchSize = batchSize;
    record.slowdown.set_factor(1.0);
    record.stalenessHistogram.assign(kStalenessBuckets, 0);
    m_byIdentity[{identity, route}] = id;
    return record;
}

void WorkerRegistry::reroute(WorkerRecord& worker, const std::string& identity, const std::string& route) {
    auto it = m_byIdentity.find({worker.identity, worker.route});
    if (it != m_byIdentity.end() && it->second == worker.id) m_byIdentity.erase(it);
    worker.identity = identity;
    worker.route = route;
    m_byIdentity[{identity, route}] = worker.id;
}

WorkerRecord& WorkerRegistry::restore(uint32_t id, const std::string& identity) {
    WorkerRecord& record = m_workers[id];
    record.id = id;
    record.identity = identity;
    record.lastSeen = Clock::now();
    record.state = record.stateBeforeLoss = wire::WORKER_LOST;  // until it registers again
    record.stalenessHistogram.assign(kStalenessBuckets, 0);
    record.slowdown.set_factor(1.0);
    if (!identity.empty()) m_byIdentity[{identity, std::string()}] = id;
    m_nextId = std::max(m_nextId, id + 1);
    return record;
}

WorkerRecord* WorkerRegistry::find(uint32_t id) {
    auto it = m_workers.find(id);
    return it == m_workers.end() ? nullptr : &it->second;
}

WorkerRecord* WorkerRegistry::findByIdentity(const std::string& identity, const std::string& route) {
    auto it = m_byIdentity.find({identity, route});
    return it == m_byIdentity.end() ? nullptr : find(it->second);
}

WorkerRecord* WorkerRegistry::findByRoutingId(const std::string& routingId) {
    for (const auto& [key, id] : m_byIdentity)
        if ((key.first == routingId && key.second.empty()) || key.second == routingId) return find(id);
    return nullptr;
}

std::vector<uint32_t> WorkerRegistry::participantIds() const {
    std::vector<uint32_t> ids;
    for (const auto& [id, w] : m_workers)
        if (w.participating()) ids.push_back(id);
    return ids;
}

uint64_t WorkerRegistry::minParticipantClock() const {
    uint64_t least = std::numeric_limits<uint64_t>::max();
    for (const auto& [id, w] : m_workers)
        if (w.participating()) least = std::min(least, w.clock);
    return least == std::numeric_limits<uint64_t>::max() ? 0 : least;
}

void WorkerRegistry::clearGroups() {
    for (auto& [id, w] : m_workers) w.group = 0;
}

}  // namespace syncscope::engine
