// Checkpointing: what the coordinator saves of a run and how it gets it back. It takes periodic
// checkpoints and one before every control change (so the change can be rolled back), restores a
// run that restarts with --resume (its model, optimiser, mode, workers, totals and clocks, and its
// history from the recording it continues), and rolls a change back in a running run.
//
// Where the model lives on parameter shards, a periodic checkpoint captures the coordinator's state
// at the current version and asks every shard for its range and momentum at that version (the pull
// follows every update sent, in order); it is written, as one file, when the whole model of that
// version has come. A resumed run hands each shard its range of the restored model as it registers,
// so the shard count may differ from the crashed run's. Rollback is refused there: the live shards
// would need the restored ranges.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "engine/checkpoint/checkpoint_store.h"
#include "engine/coordinator/coordinator_state.h"
#include "engine/coordinator/event_log.h"
#include "engine/coordinator/shard_links.h"
#include "engine/coordinator/telemetry_publisher.h"

namespace syncscope::engine {

class Checkpointing {
public:
    Checkpointing(CoordinatorState& state, EventLog& events, PolicyContext& policyContext, ShardLinks& shards)
        : m_state(state), m_events(events), m_policyContext(policyContext), m_shards(shards),
          m_lastPeriodic(Clock::now()) {}

    /// Opens the checkpoint folder (none configured: checkpointing is off).
    Status open();
    bool enabled() const { return m_store != nullptr; }

    /// A periodic checkpoint when one is due (called every tick).
    void onTick();
    /// Numbers the control change about to be made, checkpoints the state before it, and stamps
    /// the change's events with its number until endChange().
    void beginChange(const std::string& what);
    void endChange() { m_state.currentChange = 0; }
    /// Restores the state before change `changeId` (model, optimiser, learning rate, mode) as the
    /// next version, and drops gradients computed before it.
    Status rollback(uint64_t changeId);

    /// Restores the newest checkpoint that reads back whole into the state (a run restarting);
    /// `description` says which one, and which were skipped.
    Status resume(std::string* description);
    /// A model gathered from the shards: writes the checkpoint that waits for its version, if any.
    void takeGathered(const ShardLinks::GatheredModel& model);
    /// Writes what is queued (at the end of the run).
    void flush();
    /// Storage news for the event log ("checkpoints cannot be written ...").
    std::optional<std::string> takeNews() { return m_store ? m_store->takeNews() : std::nullopt; }
    bool failing() const { return m_store && m_store->failing(); }

private:
    CheckpointData capture(const std::string& reason, uint64_t changeId) const;
    void restoreWorkers(const wire::CheckpointState& state);

    CoordinatorState& m_state;
    EventLog& m_events;
    PolicyContext& m_policyContext;
    ShardLinks& m_shards;
    std::unique_ptr<CheckpointStore> m_store;
    std::optional<CheckpointData> m_awaitingModel;  ///< captured, waiting for the shards' model of its version
    Clock::time_point m_lastPeriodic;
};

}  // namespace syncscope::engine
