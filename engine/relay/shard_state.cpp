// ShardState (see shard_state.h).
#include "engine/relay/shard_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "engine/model/gradient_checks.h"

namespace syncscope::engine {

ShardState::ShardState(const std::vector<float>& parameters, const std::vector<float>& momentum, uint64_t version,
                       SgdSettings sgd)
    : m_store(parameters, sgd) {
    m_store.restore(parameters, momentum, version);
}

wire::SliceReceived ShardState::addSlice(const wire::ShardPush& push, zmq::message_t values) {
    const auto* floats = static_cast<const float*>(values.data());
    wire::SliceReceived received;
    received.set_worker_id(push.worker_id());
    received.set_session_token(push.session_token());
    received.set_sequence(push.sequence());
    received.set_base_version(push.base_version());
    const GradientSquares checked = gradientSquares(floats, size(), m_store.bufferBegin());
    received.set_finite(checked.finite);
    received.set_sum_of_squares(checked.squares);
    const SliceKey key{push.worker_id(), push.session_token(), push.sequence()};
    auto [it, fresh] = m_slices.insert_or_assign(key, std::move(values));
    (void)it;
    if (fresh) {
        std::deque<SliceKey>& order = m_slicesByWorker[push.worker_id()];
        order.push_back(key);
        if (order.size() > kMaxPendingPerWorker) evictOldestOf(push.worker_id());
    }
    ++m_stats.slices;
    return received;
}

void ShardState::evictOldestOf(uint32_t worker) {
    std::deque<SliceKey>& order = m_slicesByWorker[worker];
    m_slices.erase(order.front());
    order.pop_front();
    ++m_stats.evicted;
}

Status ShardState::apply(const wire::ShardUpdate& update, std::vector<Answer>* answers) {
    const auto take = [this](const wire::GradientTerm& term) -> std::optional<zmq::message_t> {
        const SliceKey key{term.worker_id(), term.session_token(), term.sequence()};
        auto it = m_slices.find(key);
        if (it == m_slices.end()) return std::nullopt;
        zmq::message_t values = std::move(it->second);
        m_slices.erase(it);
        std::deque<SliceKey>& order = m_slicesByWorker[term.worker_id()];
        order.erase(std::find(order.begin(), order.end(), key));
        if (order.empty()) m_slicesByWorker.erase(term.worker_id());
        return values;
    };
    for (const wire::GradientTerm& term : update.forget())
        if (take(term)) ++m_stats.forgotten;
    for (uint64_t pinned : update.pin()) {
        if (pinned != version())
            return invalidArgument(fmt::format("the coordinator pinned version {} at a shard at version {}", pinned,
                                               version()));
        m_pinned[pinned] = m_store.snapshot();
        m_stats.mostVersionsKept = std::max(m_stats.mostVersionsKept, m_kept.size() + m_pinned.size());
    }
    for (uint64_t unpinned : update.unpin()) m_pinned.erase(unpinned);
    if (update.terms().empty()) return Status::ok();
    if (update.version() != version() + 1)
        return invalidArgument(fmt::format("the coordinator sent update {} to a shard at version {}", update.version(),
                                           version()));
    std::vector<zmq::message_t> ranges;
    for (const wire::GradientTerm& term : update.terms()) {
        auto values = take(term);
        if (!values)
            return invalidArgument(fmt::format("update {} needs worker {}'s gradient {}, which this shard does not hold",
                                               update.version(), term.worker_id(), term.sequence()));
        ranges.push_back(std::move(*values));
    }
    // Released workers that have not pulled the current version yet find it kept.
    if (update.released() > m_pulledCurrent) {
        Kept& kept = m_kept[version()];
        kept.values = m_store.snapshot();
        kept.owed += update.released() - m_pulledCurrent;
        kept.since = Clock::now();
        m_stats.mostVersionsKept = std::max(m_stats.mostVersionsKept, m_kept.size() + m_pinned.size());
    }
    const float* gradient = static_cast<const float*>(ranges[0].data());
    if (ranges.size() > 1 || update.terms(0).scale() != 1.0f) {
        // The gradients' scaled sum; the buffers' batch-weighted mean (as GradientAccumulator's).
        const size_t buffers = m_store.bufferBegin();
        double batches = 0;
        for (const wire::GradientTerm& term : update.terms()) batches += term.batch_size();
        m_scratch.assign(size(), 0.0f);
        for (size_t t = 0; t < ranges.size(); ++t) {
            const auto* values = static_cast<const float*>(ranges[t].data());
            const wire::GradientTerm& term = update.terms(static_cast<int>(t));
            const float scale = term.scale();
            for (size_t i = 0; i < buffers; ++i) m_scratch[i] += scale * values[i];
            const float weight = batches > 0 ? float(term.batch_size() / batches) : 1.0f / float(ranges.size());
            for (size_t i = buffers; i < m_scratch.size(); ++i) m_scratch[i] += weight * values[i];
        }
        gradient = m_scratch.data();
    }
    m_store.apply(gradient, update.learning_rate());
    m_pulledCurrent = 0;
    ++m_stats.updates;
    m_stats.terms += ranges.size();
    auto ready = std::partition(m_waiting.begin(), m_waiting.end(), [this](const Pull& p) { return p.version > version(); });
    for (auto it = ready; it != m_waiting.end(); ++it)
        if (auto done = pull(*it)) answers->push_back(std::move(*done));
    m_waiting.erase(ready, m_waiting.end());
    return Status::ok();
}

ShardState::Answer ShardState::answer(const Pull& pull, uint64_t version, SharedFloats values) {
    if (version == pull.version)
        ++m_stats.pullsExact;
    else
        ++m_stats.pullsOther;
    return {pull.identity, version, pull.requestId, std::move(values)};
}

std::optional<ShardState::Answer> ShardState::pull(Pull pull) {
    if (pull.version > version()) {  // its update is on its way from the coordinator
        ++m_stats.pullsWaited;
        m_waiting.push_back(std::move(pull));
        return std::nullopt;
    }
    if (pull.version == version()) {
        ++m_pulledCurrent;
        return answer(pull, version(), m_store.snapshot());
    }
    // Kept for released workers first (each pull settles one of them), then pinned for later ones.
    if (auto kept = m_kept.find(pull.version); kept != m_kept.end()) {
        Answer done = answer(pull, pull.version, kept->second.values);
        if (--kept->second.owed == 0) m_kept.erase(kept);
        return done;
    }
    if (auto pinned = m_pinned.find(pull.version); pinned != m_pinned.end())
        return answer(pull, pull.version, pinned->second);
    return answer(pull, version(), m_store.snapshot());
}

void ShardState::expire(Clock::time_point now, std::vector<Answer>* answers) {
    for (auto it = m_kept.begin(); it != m_kept.end();)
        it = now - it->second.since > kKeepFor ? m_kept.erase(it) : std::next(it);
    auto late = std::partition(m_waiting.begin(), m_waiting.end(),
                               [now](const Pull& p) { return now - p.since <= kKeepFor; });
    for (auto it = late; it != m_waiting.end(); ++it) answers->push_back(answer(*it, version(), m_store.snapshot()));
    m_waiting.erase(late, m_waiting.end());
}

void ShardState::restore(const std::vector<float>& parameters, const std::vector<float>& momentum, uint64_t version,
                         std::vector<Answer>* answers) {
    m_store.restore(parameters, momentum, version);
    m_kept.clear();
    m_pinned.clear();
    m_pulledCurrent = 0;
    auto ready = std::partition(m_waiting.begin(), m_waiting.end(), [version](const Pull& p) { return p.version > version; });
    for (auto it = ready; it != m_waiting.end(); ++it) answers->push_back(answer(*it, version, m_store.snapshot()));
    m_waiting.erase(ready, m_waiting.end());
}

SharedFloats ShardState::currentWithMomentum() const {
    std::vector<float> parameters, momentum;
    m_store.exportState(&parameters, &momentum);
    parameters.insert(parameters.end(), momentum.begin(), momentum.end());
    return std::make_shared<const std::vector<float>>(std::move(parameters));
}

}  // namespace syncscope::engine
