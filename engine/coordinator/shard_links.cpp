// ShardLinks (see shard_links.h).
#include "engine/coordinator/shard_links.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/core/printable.h"
#include "engine/net/endpoints_line.h"

namespace syncscope::engine {

wire::Envelope ShardLinks::assignment(const wire::ShardRange& range, uint64_t version) const {
    wire::Envelope envelope;
    wire::ShardAssignment* a = envelope.mutable_shard_assignment();
    *a->mutable_range() = range;
    a->set_count(m_expected);
    a->set_parameter_count(m_state.store.size());
    a->set_version(version);
    a->set_momentum(m_state.store.sgd().momentum);
    a->set_weight_decay(m_state.store.sgd().weightDecay);
    a->set_buffer_count(m_state.store.size() - m_state.store.bufferBegin());
    return envelope;
}

zmq::message_t ShardLinks::rangeFrame(const wire::ShardRange& range, const std::vector<float>& parameters,
                                      const std::vector<float>& momentum) const {
    const auto begin = static_cast<std::ptrdiff_t>(range.begin()), end = static_cast<std::ptrdiff_t>(range.end());
    auto values = std::make_shared<std::vector<float>>(parameters.begin() + begin, parameters.begin() + end);
    values->insert(values->end(), momentum.begin() + begin, momentum.begin() + end);
    return sharedFloatsFrame(std::move(values));
}

ShardLinks::ShardLinks(CoordinatorState& state, ServerEndpoint& endpoint, EventLog& events)
    : m_state(state),
      m_endpoint(endpoint),
      m_events(events),
      m_expected(state.options.plan.layout().shards()),
      m_replicas(shardReplicas(state.options.plan.layout())) {
    m_ranges.resize(m_expected);
}

wire::ShardRange ShardLinks::rangeOf(const Link& link) const {
    wire::ShardRange range = m_ranges[link.index];
    range.set_endpoint(link.endpoint);
    return range;
}

std::vector<wire::ShardRange> ShardLinks::ranges() const {
    std::vector<const Link*> live;
    for (const auto& [identity, link] : m_links) live.push_back(&link);
    std::sort(live.begin(), live.end(), [](const Link* a, const Link* b) { return a->slot() < b->slot(); });
    std::vector<wire::ShardRange> out;
    for (const Link* link : live) out.push_back(rangeOf(*link));
    return out;
}

bool ShardLinks::covered() const {
    std::vector<bool> has(m_expected, false);
    for (const auto& [identity, link] : m_links) has[link.index] = true;
    return std::all_of(has.begin(), has.end(), [](bool b) { return b; });
}

void ShardLinks::markFirstCopies() {
    for (auto& [identity, link] : m_links) link.answersPulls = firstCopy(link.index)->first == identity;
}

std::map<std::string, ShardLinks::Link>::const_iterator ShardLinks::firstCopy(uint32_t index) const {
    auto best = m_links.end();
    for (auto it = m_links.begin(); it != m_links.end(); ++it)
        if (it->second.index == index && (best == m_links.end() || it->second.copy < best->second.copy)) best = it;
    return best;
}

void ShardLinks::handleRegister(const InboundMessage& message) {
    const wire::Register& reg = message.envelope.register_();
    if (!enabled())
        return m_endpoint.refuse(message, "this run keeps its model in the coordinator; `serve --shards S` starts one "
                                          "that keeps it on S parameter shards");
    if (!message.route.empty()) return m_endpoint.refuse(message, "a parameter shard connects to the coordinator itself");
    if (!plausibleEndpoint(reg.endpoint()))
        return m_endpoint.refuse(message, "a parameter shard registers with the tcp:// or ipc:// endpoint its workers "
                                          "connect to");
    if (isShard(message.identity) || findStandby(message.identity))
        return m_endpoint.refuse(message, "this parameter shard has registered already");
    if (ready()) {
        if (!m_replaceable)
            return m_endpoint.refuse(message, fmt::format("this run has its {} parameter shards already (a run that "
                                                          "keeps checkpoints, --checkpoint-dir, keeps more as standbys)",
                                                          m_expected));
        if (m_standby.size() >= m_expected)
            return m_endpoint.refuse(message, fmt::format("this run has its {} parameter shards and {} standby ones already",
                                                          m_expected, m_standby.size()));
        // Answered when a place falls vacant (or never: the shard gives up after its registration timeout).
        m_events.raise(wire::EVENT_SHARDS, fmt::format("a parameter shard (pid {}@{}) waits as a standby for a place",
                                                       reg.pid(), printable(reg.hostname(), 255)));
        m_standby.push_back({{message.identity, message.userId, message.route, message.envelope, std::nullopt}, Clock::now()});
        return;
    }
    const auto [index, copy] = freePlace();
    const uint64_t count = m_state.store.size();
    const uint64_t begin = count * index / m_expected, end = count * (index + 1) / m_expected;
    wire::ShardRange& range = m_ranges[index];
    range.set_index(index);
    range.set_begin(begin);
    range.set_end(end);
    Link& link = m_links[message.identity];
    link.index = index;
    link.copy = copy;
    link.endpoint = reg.endpoint();
    link.describe = fmt::format("parameter shard {}{} (pid {}@{}, parameters [{}, {}))", index,
                                m_replicas > 1 ? fmt::format(" copy {}", copy + 1) : "", reg.pid(),
                                printable(reg.hostname(), 255), begin, end);
    link.lastSeen = Clock::now();
    // Its range of the current model and momentum (version 0, or the resumed run's version).
    std::vector<float> parameters, momentum;
    m_state.store.exportState(&parameters, &momentum);
    wire::Envelope envelope = assignment(rangeOf(link), m_state.store.version());
    zmq::message_t tensor = rangeFrame(range, parameters, momentum);
    m_endpoint.send(message.identity, envelope, &tensor);
    markFirstCopies();
    m_started = m_started || m_links.size() == places();
    m_vacant = m_vacant && !ready();
    m_events.raise(wire::EVENT_SHARDS, fmt::format("{} serves workers at {}{}", link.describe, reg.endpoint(),
                                                   ready() ? fmt::format("; all {} are ready", places()) : ""));
}

std::pair<uint32_t, uint32_t> ShardLinks::freePlace() const {
    // At the start every copy of every range; later (a range whose copies were all lost) its first.
    const uint32_t copies = m_started ? 1 : m_replicas;
    for (uint32_t copy = 0; copy < copies; ++copy)
        for (uint32_t index = 0; index < m_expected; ++index) {
            const bool taken = std::any_of(m_links.begin(), m_links.end(), [&](const auto& entry) {
                return entry.second.index == index && (m_started || entry.second.copy == copy);
            });
            if (!taken) return {index, copy};
        }
    return {0, 0};  // unreachable: called only while a place is free (!ready())
}

void ShardLinks::fillVacancies() {
    dropSilentStandbys(Clock::now());
    while (!ready() && !m_standby.empty()) {
        InboundMessage next = std::move(m_standby.front().registration);
        m_standby.erase(m_standby.begin());
        handleRegister(next);
    }
}

ShardLinks::Standby* ShardLinks::findStandby(const std::string& identity) {
    for (Standby& standby : m_standby)
        if (standby.registration.identity == identity) return &standby;
    return nullptr;
}

bool ShardLinks::noteStandbyHeartbeat(const std::string& identity) {
    Standby* standby = findStandby(identity);
    if (standby) standby->lastSeen = Clock::now();
    return standby != nullptr;
}

void ShardLinks::dropSilentStandbys(Clock::time_point now) {
    const double timeout = m_state.options.plan.heartbeat_timeout_seconds();
    const auto silent = [&](const Standby& standby) {
        if (now - standby.lastSeen < std::chrono::duration<double>(timeout)) return false;
        const wire::Register& reg = standby.registration.envelope.register_();
        m_events.raise(wire::EVENT_SHARDS, fmt::format("the standby parameter shard (pid {}@{}) sent nothing for {:g} s "
                                                       "and is passed over",
                                                       reg.pid(), printable(reg.hostname(), 255), timeout));
        return true;
    };
    m_standby.erase(std::remove_if(m_standby.begin(), m_standby.end(), silent), m_standby.end());
}

void ShardLinks::handleShardMessage(InboundMessage& message, const Completion& complete) {
    Link& link = m_links.at(message.identity);
    link.lastSeen = Clock::now();
    const wire::Envelope& envelope = message.envelope;
    switch (envelope.body_case()) {
        case wire::Envelope::kSlicesReceived:
            for (const wire::SliceReceived& slice : envelope.slices_received().slices()) acknowledge(slice, link, complete);
            return;
        case wire::Envelope::kShardParams: return takeParams(message, link);
        case wire::Envelope::kHeartbeat: {  // answered: the shard gives up a coordinator that stays silent
            wire::Envelope ack;
            ack.mutable_heartbeat_ack();
            return m_endpoint.send(message.identity, ack);
        }
        case wire::Envelope::kError: return fail(link.describe + " stopped: " + printable(envelope.error().message(), 1000));
        default:
            return m_endpoint.refuse(message, "a parameter shard sends what it received, parameters it was asked for, "
                                              "heartbeats and errors");
    }
}

void ShardLinks::acknowledge(const wire::SliceReceived& slice, const Link& link, const Completion& complete) {
    const ArrivalKey key{slice.worker_id(), slice.session_token(), slice.sequence()};
    auto [it, fresh] = m_arrivals.try_emplace(key);
    Arrival& a = it->second;
    if (fresh) a.since = Clock::now();
    const uint32_t slot = link.slot();
    if (std::find(a.ackedBy.begin(), a.ackedBy.end(), slot) != a.ackedBy.end())
        return;  // a range sent twice: the shard kept the last one
    a.ackedBy.push_back(slot);
    // The checks of the values add up over the ranges: one copy of each counts.
    if (link.answersPulls) {
        a.finite = a.finite && slice.finite();
        a.sumOfSquares += slice.sum_of_squares();
    }
    if (a.ackedBy.size() < m_links.size() || !a.pushed) return;
    complete(a, slice.session_token());
    m_arrivals.erase(it);
}

void ShardLinks::handlePush(InboundMessage& message, uint64_t sessionToken, const Completion& complete) {
    const wire::Push& push = message.envelope.push();
    const ArrivalKey key{push.worker_id(), sessionToken, push.sequence()};
    auto [it, fresh] = m_arrivals.try_emplace(key);
    Arrival& a = it->second;
    if (a.pushed) return m_endpoint.refuse(message, fmt::format("gradient {} was pushed already", push.sequence()));
    if (fresh) a.since = Clock::now();
    a.push = std::move(message);
    a.pushed = true;
    if (a.ackedBy.size() < m_links.size()) return;
    complete(a, sessionToken);
    m_arrivals.erase(it);
}

void ShardLinks::broadcast(wire::Envelope& envelope) {
    for (const auto& [identity, link] : m_links) m_endpoint.send(identity, envelope);
}

void ShardLinks::accept(uint32_t worker, uint64_t sequence, uint64_t sessionToken) {
    m_accepted[{worker, sequence}] = sessionToken;
}

void ShardLinks::applyUpdate(std::vector<wire::GradientTerm> terms, float lr, uint64_t version) {
    wire::Envelope envelope;
    wire::ShardUpdate* update = envelope.mutable_shard_update();
    update->set_version(version);
    update->set_learning_rate(lr);
    for (wire::GradientTerm& term : terms) {
        auto accepted = m_accepted.find({term.worker_id(), term.sequence()});
        SS_CHECK(accepted != m_accepted.end(), "an update of gradients the coordinator accepted");
        term.set_session_token(accepted->second);
        m_accepted.erase(accepted);
        *update->add_terms() = std::move(term);
    }
    update->set_released(m_releasedAtCurrent);
    for (wire::GradientTerm& term : m_forget) *update->add_forget() = std::move(term);
    addPins(update);  // a pin of this version reaches the shards before the update that ends it
    if (m_replicas == 1) {
        broadcast(envelope);
    } else {
        // Workers pull from the first copy of each range: the others keep no version for them (they
        // would keep every one), and serve the current one to workers that register again.
        wire::Envelope unpulled = envelope;
        unpulled.mutable_shard_update()->set_released(0);
        for (const auto& [identity, link] : m_links)
            m_endpoint.send(identity, link.answersPulls ? envelope : unpulled);
    }
    m_releasedAtCurrent = 0;
    m_forget.clear();
}

void ShardLinks::forget(uint32_t worker, uint64_t sequence) {
    auto accepted = m_accepted.find({worker, sequence});
    SS_CHECK(accepted != m_accepted.end(), "a drop of a gradient the coordinator accepted");
    forgetRanges(worker, accepted->second, sequence);
    m_accepted.erase(accepted);
}

void ShardLinks::forgetRanges(uint32_t worker, uint64_t sessionToken, uint64_t sequence) {
    wire::GradientTerm term;
    term.set_worker_id(worker);
    term.set_session_token(sessionToken);
    term.set_sequence(sequence);
    m_forget.push_back(std::move(term));
}

void ShardLinks::flush() {
    wire::Envelope envelope;
    wire::ShardUpdate* update = envelope.mutable_shard_update();
    for (wire::GradientTerm& term : m_forget) *update->add_forget() = std::move(term);
    m_forget.clear();
    if (addPins(update) || update->forget_size() > 0) broadcast(envelope);
}

std::shared_ptr<const void> ShardLinks::pin(uint64_t version) {
    ++m_pins->holds[version];
    std::weak_ptr<Pins> pins = m_pins;
    // A hold that owns the version's number (not null: a PinnedModel's hold says whether it is pinned).
    return std::shared_ptr<const uint64_t>(new uint64_t(version), [pins](const uint64_t* pinned) {
        if (const auto table = pins.lock()) {
            auto it = table->holds.find(*pinned);
            if (it != table->holds.end() && --it->second == 0) table->holds.erase(it);
        }
        delete pinned;
    });
}

bool ShardLinks::addPins(wire::ShardUpdate* update) {
    bool any = false;
    for (const auto& [version, holds] : m_pins->holds)
        if (m_pinnedAtShards.insert(version).second) {
            update->add_pin(version);
            any = true;
        }
    for (auto it = m_pinnedAtShards.begin(); it != m_pinnedAtShards.end();) {
        if (m_pins->holds.count(*it)) {
            ++it;
            continue;
        }
        update->add_unpin(*it);
        it = m_pinnedAtShards.erase(it);
        any = true;
    }
    return any;
}

void ShardLinks::restore(const std::vector<float>& parameters, const std::vector<float>& momentum, uint64_t version) {
    flush();  // what was decided on the old model is sent first
    for (const auto& [identity, link] : m_links) {
        wire::Envelope envelope = assignment(rangeOf(link), version);
        zmq::message_t tensor = rangeFrame(m_ranges[link.index], parameters, momentum);
        m_endpoint.send(identity, envelope, &tensor);
    }
    m_releasedAtCurrent = 0;
    // A shard lets go of its pins when it is restored; holds still alive are of the model before,
    // and must never pin a version on the restored shards.
    m_pinnedAtShards.clear();
    m_pins->holds.clear();
}

bool ShardLinks::gather(bool withMomentum, ModelStore::Gathered done) {
    if (!ready() || !m_failure.empty()) return false;
    const size_t count = m_state.store.size();
    const uint64_t requestId = m_nextRequest++;
    m_gathers[requestId] = Gather{std::vector<float>(withMomentum ? 2 * count : count),
                                  std::vector<bool>(m_expected, false), 0, m_state.store.version(), withMomentum,
                                  std::move(done)};
    flush();  // the order the shards see: drops and pins, then the pull
    // Every live copy is asked at once, and the first answer per range is taken: each copy answers at
    // this version, as its pull follows the same updates. (A copy asked only once another was lost
    // would answer at the version of then, a later one where updates went on meanwhile.) The price: a
    // gather moves each range once per copy.
    wire::Envelope envelope;
    envelope.mutable_shard_pull()->set_request_id(requestId);
    envelope.mutable_shard_pull()->set_with_momentum(withMomentum);
    broadcast(envelope);
    return true;
}

void ShardLinks::takeParams(const InboundMessage& message, const Link& link) {
    const wire::ShardParams& params = message.envelope.shard_params();
    auto it = m_gathers.find(params.request_id());
    if (it == m_gathers.end()) return;  // an answer to a request given up
    Gather& gather = it->second;
    if (gather.answeredRange[link.index]) return;  // another copy of its range answered first
    const wire::ShardRange& range = m_ranges[link.index];
    const size_t count = static_cast<size_t>(range.end() - range.begin());
    const size_t floats = gather.withMomentum ? 2 * count : count;
    if (!message.tensor || message.tensor->size() != floats * sizeof(float) || params.version() != gather.version)
        return fail(fmt::format("{} answered a pull with version {} ({} bytes) where the coordinator is at version {} "
                                "({} floats): the shards are out of step",
                                link.describe, params.version(), message.tensor ? message.tensor->size() : 0,
                                gather.version, floats));
    const auto* values = static_cast<const float*>(message.tensor->data());
    const auto begin = static_cast<std::ptrdiff_t>(range.begin());
    std::copy(values, values + count, gather.values.begin() + begin);
    if (gather.withMomentum)  // the momentum half of the gather starts after the whole model
        std::copy(values + count, values + floats,
                  gather.values.begin() + static_cast<std::ptrdiff_t>(m_state.store.size()) + begin);
    gather.answeredRange[link.index] = true;
    if (++gather.answered < m_expected) return;
    GatheredModel model;
    model.version = gather.version;
    std::vector<float>& all = gather.values;
    if (gather.withMomentum) {
        const auto half = all.begin() + static_cast<std::ptrdiff_t>(m_state.store.size());
        model.momentum.assign(half, all.end());
        all.erase(half, all.end());
    }
    model.parameters = std::make_shared<const std::vector<float>>(std::move(all));
    ModelStore::Gathered done = std::move(gather.done);
    m_gathers.erase(it);
    done(std::move(model));
}

std::string ShardLinks::check() {
    const auto now = Clock::now();
    dropSilentStandbys(now);  // first: a place that falls vacant below must not go to a dead one
    const auto timeout = std::chrono::duration<double>(m_state.options.plan.heartbeat_timeout_seconds());
    for (auto it = m_links.begin(); it != m_links.end();) {
        const auto link = it++;
        if (now - link->second.lastSeen < timeout) continue;
        const std::string silent = fmt::format("{} sent nothing for {:g} s", link->second.describe,
                                               m_state.options.plan.heartbeat_timeout_seconds());
        const uint32_t index = link->second.index;
        if (std::count_if(m_links.begin(), m_links.end(), [&](const auto& e) { return e.second.index == index; }) > 1) {
            dropCopy(link, silent);
            continue;
        }
        if (m_replaceable) {
            vacate(link, silent);
            continue;
        }
        fail(silent + ": its part of the model is lost with it, so the run stops (a run that keeps checkpoints, "
                      "--checkpoint-dir, goes on from the newest one when another shard takes its place; this one "
                      "can resume from its checkpoints with serve --resume DIR, if it keeps them)");
    }
    for (auto it = m_arrivals.begin(); it != m_arrivals.end();) {
        if (now - it->second.since < kArrivalTimeout) {
            ++it;
            continue;
        }
        const auto& [worker, token, sequence] = it->first;
        if (it->second.pushed)
            m_endpoint.refuse(it->second.push,
                              fmt::format("gradient {} reached {} of the {} parameter shards within {} s",
                                          sequence, it->second.ackedBy.size(), m_links.size(), kArrivalTimeout.count()));
        forgetRanges(worker, token, sequence);
        it = m_arrivals.erase(it);
    }
    flush();
    return m_failure;
}

void ShardLinks::vacate(std::map<std::string, Link>::iterator link, const std::string& why) {
    m_losses.push_back(why);
    m_links.erase(link);
    markFirstCopies();
    m_vacant = true;
    // What needed its range cannot complete: gathers are given up (their callers see gather() false
    // until the place is taken again), and the gradients whose ranges were arriving are let go.
    m_gathers.clear();
    for (const auto& [key, arrival] : m_arrivals) {
        const auto& [worker, token, sequence] = key;
        forgetRanges(worker, token, sequence);
    }
    m_arrivals.clear();
}

void ShardLinks::dropCopy(std::map<std::string, Link>::iterator link, const std::string& why) {
    m_copyLosses.push_back(fmt::format("{}; its range is served by its other copies, nothing is lost", why));
    m_links.erase(link);
    markFirstCopies();
    // The workers register again for the copies left (Coordinator::onTick): what they pushed meanwhile
    // belongs to sessions that end, and is let go.
    for (const auto& [key, arrival] : m_arrivals) {
        const auto& [worker, token, sequence] = key;
        forgetRanges(worker, token, sequence);
    }
    m_arrivals.clear();
    // Gathers waiting for its range need nothing more: its range's other copies were asked with it.
}

void ShardLinks::fail(const std::string& why) {
    if (!m_failure.empty()) return;
    m_failure = why;
    m_events.raise(wire::EVENT_ERROR, why);
}

void ShardLinks::stopAll() {
    flush();
    wire::Envelope envelope;
    envelope.mutable_params()->set_stop(true);
    envelope.mutable_params()->set_version(m_state.store.version());
    broadcast(envelope);
}

}  // namespace syncscope::engine
