// ShardClient (see shard_client.h).
#include "engine/worker/shard_client.h"

#include <fmt/format.h>

#include "engine/net/endpoints_line.h"
#include "engine/net/protocol.h"
#include "engine/net/tensor_frame.h"
#include "engine/net/wire_codec.h"

namespace syncscope::engine {

Status ShardClient::validate(const Ranges& ranges, uint64_t parameterCount) {
    // Each range in order, its copies (--shard-replicas) one after another with the same bounds.
    uint64_t next = 0;
    for (int i = 0; i < ranges.size(); ++i) {
        const wire::ShardRange& r = ranges[i];
        const bool copy = i > 0 && r.index() == ranges[i - 1].index() && r.begin() == ranges[i - 1].begin() &&
                          r.end() == ranges[i - 1].end();
        const uint32_t expected = i == 0 ? 0 : ranges[i - 1].index() + 1;
        if ((!copy && (r.index() != expected || r.begin() != next)) || r.end() <= r.begin() ||
            !plausibleEndpoint(r.endpoint()))
            return invalidArgument(fmt::format("the coordinator sent parameter shard {} as [{}, {}) at \"{}\"; is it "
                                               "a SyncScope coordinator of this release?",
                                               r.index(), r.begin(), r.end(), r.endpoint()));
        next = r.end();
    }
    if (next != parameterCount)
        return invalidArgument(fmt::format("the coordinator's parameter shards cover {} of the model's {} parameters",
                                           next, parameterCount));
    return Status::ok();
}

ShardClient::ShardClient(zmq::context_t& context, const Ranges& ranges, const EndpointSecurity& security,
                         uint32_t workerId, uint64_t sessionToken)
    : m_workerId(workerId), m_sessionToken(sessionToken) {
    for (const wire::ShardRange& range : ranges) {
        zmq::socket_t socket(context, zmq::socket_type::dealer);
        socket.set(zmq::sockopt::linger, 0);
        applySecurity(socket, security, false);
        socket.connect(range.endpoint());
        // Pulls go to the first copy of each range.
        if (m_pullFrom.empty() || m_shards[m_pullFrom.back()].range.index() != range.index())
            m_pullFrom.push_back(m_shards.size());
        m_shards.push_back({range, std::move(socket), security.makeSeal(false)});
        if (m_shards.back().seal) m_shards.back().seal->start(m_shards.back().socket);
    }
}

void ShardClient::awaitHandshake(Shard& shard) {
    // Copies only pushed to are never read otherwise: their handshake answers are read here, so a
    // gradient never waits in a queue for a read that does not come.
    const auto deadline = std::chrono::steady_clock::now() + kHandshakeWait;
    while (!shard.seal->ready() && std::chrono::steady_clock::now() < deadline) {
        zmq::pollitem_t item{shard.socket.handle(), 0, ZMQ_POLLIN, 0};
        pollSockets(&item, 1, std::chrono::milliseconds(50));
        while (receiveMessage(shard.socket, false, {kMaxEnvelopeBytes, 0}, nullptr, shard.seal.get())) {}
    }
}

void ShardClient::push(const float* gradient, uint64_t sequence, uint64_t baseVersion, std::atomic<int>& inFlight) {
    for (Shard& shard : m_shards) {
        if (shard.seal && !shard.seal->ready()) awaitHandshake(shard);
        wire::Envelope envelope;
        wire::ShardPush* push = envelope.mutable_shard_push();
        push->set_worker_id(m_workerId);
        push->set_session_token(m_sessionToken);
        push->set_sequence(sequence);
        push->set_base_version(baseVersion);
        const size_t count = static_cast<size_t>(shard.range.end() - shard.range.begin());
        zmq::message_t frame = borrowedFloatsFrame(gradient + shard.range.begin(), count, inFlight);
        sendMessage(shard.socket, nullptr, envelope, &frame, shard.seal.get());
    }
}

Result<PulledVersions> ShardClient::pull(uint64_t version,
                                         const std::function<void(const wire::ShardRange&, const float*)>& take,
                                         std::chrono::milliseconds timeout, const std::function<bool()>& keepWaiting) {
    const uint64_t request = m_nextRequest++;
    for (size_t k : m_pullFrom) {
        wire::Envelope envelope;
        wire::ShardPull* pull = envelope.mutable_shard_pull();
        pull->set_version(version);
        pull->set_request_id(request);
        sendMessage(m_shards[k].socket, nullptr, envelope, nullptr, m_shards[k].seal.get());
    }
    std::vector<bool> answered(m_shards.size(), false);
    size_t outstanding = m_pullFrom.size();
    PulledVersions versions{~0ULL, 0};
    const auto start = std::chrono::steady_clock::now(), deadline = start + timeout;
    std::vector<zmq::pollitem_t> items;
    for (size_t k : m_pullFrom) items.push_back({m_shards[k].socket.handle(), 0, ZMQ_POLLIN, 0});
    while (outstanding > 0) {
        if (std::chrono::steady_clock::now() > deadline || !keepWaiting()) {
            size_t silent = 0;
            while (answered[m_pullFrom[silent]]) ++silent;
            const wire::ShardRange& range = m_shards[m_pullFrom[silent]].range;
            const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            return unavailable(fmt::format("parameter shard {} at {} had not sent its part of version {} after {:.1f} s "
                                           "(is it running, and reachable from this node?)",
                                           range.index(), range.endpoint(), version, waited));
        }
        pollSockets(items.data(), items.size(), std::chrono::milliseconds(100));
        for (size_t k : m_pullFrom) {
            const wire::ShardRange& range = m_shards[k].range;
            const size_t count = static_cast<size_t>(range.end() - range.begin());
            auto message = receiveMessage(m_shards[k].socket, false, {kMaxEnvelopeBytes, count * sizeof(float)},
                                          nullptr, m_shards[k].seal.get());
            if (!message) continue;
            if (!*message) return message->status();
            const wire::Envelope& envelope = message->value().envelope;
            if (envelope.has_error())
                return unavailable(fmt::format("parameter shard {} refused this worker: {}", range.index(),
                                               envelope.error().message()));
            const auto& tensor = message->value().tensor;
            if (!envelope.has_shard_params() || envelope.shard_params().request_id() != request || answered[k]) continue;
            if (!tensor || tensor->size() != count * sizeof(float))
                return invalidArgument(fmt::format("parameter shard {} sent {} bytes for its {} parameters",
                                                   range.index(), tensor ? tensor->size() : 0, count));
            take(range, static_cast<const float*>(tensor->data()));
            answered[k] = true;
            --outstanding;
            versions.oldest = std::min(versions.oldest, envelope.shard_params().version());
            versions.newest = std::max(versions.newest, envelope.shard_params().version());
        }
    }
    return versions;
}

}  // namespace syncscope::engine
