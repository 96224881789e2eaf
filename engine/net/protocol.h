// Protocol constants shared by every peer: version, size limits, and socket conventions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace syncscope::engine {

/// A peer with another major version is refused; minor versions only add optional fields.
constexpr uint32_t kProtocolMajor = 1;
constexpr uint32_t kProtocolMinor = 15;  // 1: grouped, ksync, kasync, elastic, auto; SetGroups
                                         // 2: typed events, auto decisions, the catalogue, advice,
                                         //    session tokens, roles and authentication in snapshots
                                         // 3: checkpoints: rollback, change ids, resumed/rollback
                                         //    events, Error.code (NOT_REGISTERED)
                                         // 4: external models: Register.role, parameter_count,
                                         //    train_examples and initial parameters; EvaluationReport;
                                         //    RunSpec.train_examples, eval_interval_seconds
                                         // 5: group aggregators: ROLE_AGGREGATOR, Envelope.route,
                                         //    GradientSum, ParamsFanout, Params.group/reduce/move_to
                                         // 6: parameter shards: ROLE_SHARD, ShardAssignment, ShardPush,
                                         //    SlicesReceived, ShardUpdate, ShardPull, ShardParams,
                                         //    Welcome.parameter_shards, Push.sequence, Params.from_shards
                                         // 7: RecordingHeader.writer (recordings and checkpoints name
                                         //    the release that wrote them); ShardPull.worker_id gone
                                         // 8: ShardUpdate.pin/unpin (grouped and auto on shards); a
                                         //    ShardAssignment to a registered shard restores its range
                                         // 9: Error.LAYOUT_CHANGED (a lost shard replaced: workers
                                         //    register again); a shard registering to a full run waits
                                         // 10: an external model's buffers: RunSpec, Register and
                                         //    ShardAssignment.buffer_count, GradientTerm.batch_size;
                                         //    RunLayout.worker_command
                                         // 11: what-if predictions: Tick.what_if, WhatIf,
                                         //    AutoCandidate.seconds_to_target
                                         // 12: elastic's hand-off of a late worker's batch:
                                         //    ModeSettings.elastic_wait_for_late, EVENT_HAND_OFF
                                         // 13: Tick.applied_samples (the what-if checks measure applied
                                         //    samples exactly); CheckpointState.applied/effective_samples
                                         // 14: Push.cpu_ms and cpu_limit, WorkerStats.cpu_limit (a
                                         //    worker's CPU quota bounds its sustained iteration time)
                                         // 15: the end of a run reaches a worker whose stop was lost:
                                         //    HeartbeatAck.run_over/version, Heartbeat.leaving,
                                         //    Error.RUN_OVER

/// Longest hostname and backend name a registering process may report (the rest is cut).
constexpr size_t kMaxHostnameBytes = 255, kMaxBackendBytes = 32;

/// Most parameters a model may have (8 GiB of float32): bounds every tensor a peer announces.
constexpr uint64_t kMaxParameters = 1ULL << 31;

/// Largest training set a run may declare (an external model's workers say theirs).
constexpr uint64_t kMaxTrainExamples = 1ULL << 40;

/// Largest protobuf metadata frame accepted (a Snapshot reply can be large; requests are tiny).
constexpr size_t kMaxEnvelopeBytes = 1 << 20;
/// The longest ProcessReport frame a starting process reads from a child (process_report.h, and the
/// Python package's coordinator.py through its generated syncscope_protocol module).
constexpr uint32_t kMaxProcessReportBytes = 1u << 20;
/// Largest control-plane request accepted.
constexpr size_t kMaxControlBytes = 64 << 10;

/// Telemetry topic prefix of Tick messages.
constexpr const char* kTickTopic = "tick";
/// Elastic batch sizes stay within [run batch / kElasticBatchRange, run batch x kElasticBatchRange];
/// a worker sizes its buffers for the largest.
constexpr uint32_t kElasticBatchRange = 8;

}  // namespace syncscope::engine
