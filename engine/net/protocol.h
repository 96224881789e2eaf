// Protocol constants shared by every peer: version, size limits, and socket conventions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace syncscope::engine {

/// A peer with another major version is refused; minor versions only add optional fields.
constexpr uint32_t kProtocolMajor = 1;
constexpr uint32_t kProtocolMinor = 3;  // 1: grouped, ksync, kasync, elastic, auto; SetGroups
                                        // 2: typed events, auto decisions, the catalogue, advice,
                                        //    session tokens, roles and authentication in snapshots
                                        // 3: checkpoints: rollback, change ids, resumed/rollback
                                        //    events, Error.code (NOT_REGISTERED)

/// Largest protobuf metadata frame accepted (a Snapshot reply can be large; requests are tiny).
constexpr size_t kMaxEnvelopeBytes = 1 << 20;
/// Largest control-plane request accepted.
constexpr size_t kMaxControlBytes = 64 << 10;

/// Telemetry topic prefix of Tick messages.
constexpr const char* kTickTopic = "tick";
/// Elastic batch sizes stay within [run batch / kElasticBatchRange, run batch x kElasticBatchRange];
/// a worker sizes its buffers for the largest.
constexpr uint32_t kElasticBatchRange = 8;

}  // namespace syncscope::engine
