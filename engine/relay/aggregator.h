// Aggregator: a group parameter server as its own process (`syncscope-engine aggregate`), after
// Basu et al. Workers connect to it instead of the coordinator; it relays their messages (each
// tagged with the worker's route) and the coordinator's answers. In the modes that average a round
// of gradients on one version (bsp, grouped with bsp inside groups; the coordinator says so with
// each release), it sums the gradients of its workers' round (sum of batch x gradient) and sends
// the coordinator one GradientSum instead of one push each; the coordinator sends it one copy of
// the parameters for all its workers (ParamsFanout). The coordinator keeps every decision (who is
// in a round, when it closes, what is applied or dropped); an aggregator only does the arithmetic
// and the copying, which is what grows with the number of workers.
#pragma once

#include <zmq.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/status.h"
#include "engine/net/credentials.h"
#include "engine/net/endpoint.h"
#include "engine/net/zap_authenticator.h"
#include "engine/relay/relay_process.h"

namespace syncscope::engine {

/// What an aggregator did, printed when it ends.
struct AggregatorStats {
    uint64_t relayed = 0;         ///< messages passed on either way, one by one
    uint64_t summed = 0;          ///< gradients that went into sums
    uint64_t sums = 0, partialSums = 0;  ///< GradientSums sent; of them, sent before every member arrived
    uint64_t fanouts = 0, fannedOut = 0;  ///< ParamsFanouts received, parameters sent from them
};

class Aggregator {
public:
    /// A round's sum waits this long for its slowest member before it goes without (the member's
    /// gradient follows in a later sum; the coordinator adds them up). Only a stalled or lost
    /// worker makes a sum wait this long.
    static constexpr std::chrono::milliseconds kPartialSumAfter{50};
    /// It tells the coordinator it is alive this often (it is dropped after the run's heartbeat
    /// timeout of silence, and no worker is sent to it any more).
    static constexpr std::chrono::milliseconds kHeartbeatEvery{250};

    explicit Aggregator(RelayOptions options);
    ~Aggregator();
    Aggregator(const Aggregator&) = delete;
    Aggregator& operator=(const Aggregator&) = delete;

    /// Binds the workers' endpoint and registers with the coordinator; then endpoint() is valid.
    Status start();
    /// The endpoint its workers connect to.
    const std::string& endpoint() const { return m_advertised; }
    /// Relays and sums until the coordinator says the run is over, or `interrupted`.
    Status run();
    const AggregatorStats& stats() const { return m_stats; }

private:
    /// The last parameters relayed to a worker, which its next gradient is computed on.
    struct Release {
        uint32_t group = 0;
        uint64_t version = 0;
        bool reduce = false;
    };
    /// One group's round on one version: the gradients summed so far and the workers still out.
    struct Round {
        std::shared_ptr<std::vector<float>> sum;
        wire::GradientSum message;
        std::set<std::string> outstanding;
        std::chrono::steady_clock::time_point firstArrival;
    };
    using RoundKey = std::pair<uint32_t, uint64_t>;  ///< (group, version)

    void fromWorker(InboundMessage& message);
    /// Adds a worker's gradient to its round's sum; false when it must go on its own.
    bool addToRound(const InboundMessage& message);
    void relayUp(InboundMessage& message);
    /// A coordinator's message; false when the run is over.
    bool fromCoordinator(InboundMessage& message);
    void noteRelease(const std::string& route, const wire::Params& params, bool carriesParameters);
    /// The worker's earlier release is used up (it pushed, moved or stopped).
    void forget(const std::string& route);
    void sendRound(const RoundKey& key, bool partial);
    void sendDueRounds();
    std::chrono::milliseconds untilNextDue() const;
    void heartbeatIfDue();

    RelayOptions m_options;
    zmq::context_t m_context{2};
    std::unique_ptr<ZapAuthenticator> m_zap;  // before the workers' endpoint binds
    ServerEndpoint m_workers;
    ClientEndpoint m_coordinator;
    std::string m_advertised;
    size_t m_parameterCount = 0;
    size_t m_bufferBegin = 0;  ///< an external model's buffers from here on (RunSpec.buffer_count)
    double m_maxGradientNorm = 0;
    std::map<std::string, Release> m_released;  ///< by the worker's route
    std::map<RoundKey, Round> m_rounds;
    AggregatorStats m_stats;
    std::chrono::steady_clock::time_point m_lastHeartbeat;
    CoordinatorWatch m_watch{m_options};
};

}  // namespace syncscope::engine
