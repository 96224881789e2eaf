// Checkpointing: what the coordinator saves of a run and how it gets it back. It takes periodic
// checkpoints and one before every control change (so the change can be rolled back), restores a
// run that restarts with --resume (its model, optimiser, mode, workers, totals and clocks, and its
// history from the recording it continues), and rolls a change back in a running run.
//
// A checkpoint captures the coordinator's state at the current version and gathers the model of that
// version from the ModelStore (at once where the coordinator holds it; where parameter shards do, a
// pull of every range that follows every update sent, in order); it is written, as one file, when the
// whole model has come. A resume or a rollback puts the model back through the same store: a resumed
// run's shards get their ranges as they register (so their count may differ from the crashed run's),
// a rolled-back run's live shards get theirs at once.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/checkpoint/checkpoint_store.h"
#include "engine/coordinator/coordinator_state.h"
#include "engine/coordinator/event_log.h"
#include "engine/coordinator/model_store.h"
#include "engine/coordinator/telemetry_publisher.h"

namespace syncscope::engine {

class Checkpointing {
public:
    /// Serves the run (its data plane) until the function says done, or 10 s; a rollback waits so
    /// for the checkpoint it needs while that checkpoint's model is still being gathered.
    using ServeUntil = std::function<void(const std::function<bool()>& done)>;

    Checkpointing(CoordinatorState& state, EventLog& events, PolicyContext& policyContext, ModelStore& model,
                  ServeUntil serveUntil)
        : m_state(state), m_events(events), m_policyContext(policyContext), m_model(model),
          m_serveUntil(std::move(serveUntil)), m_lastPeriodic(Clock::now()) {}

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

    /// Parameter shards were lost (`lost` says which and how): the model goes back to the newest
    /// checkpoint of this run (its mode and learning rate too), or to the model it started from where
    /// none was written yet, as the next version; gradients computed before it are dropped. The
    /// event says how many updates were lost.
    Status restoreAfterLostShard(const std::string& lost);

    /// Restores the newest checkpoint that reads back whole into the state (a run restarting);
    /// `description` says which one, and which were skipped.
    Status resume(std::string* description);
    /// Writes what is queued (at the end of the run).
    void flush();
    /// Storage news for the event log ("checkpoints cannot be written ...").
    std::optional<std::string> takeNews() { return m_store ? m_store->takeNews() : std::nullopt; }
    bool failing() const { return m_store && m_store->failing(); }

private:
    /// The coordinator's state now, without the model (writeWhenGathered adds it).
    CheckpointData capture(const std::string& reason, uint64_t changeId) const;
    /// Writes `data` once the model of its version has been gathered.
    void writeWhenGathered(CheckpointData data);
    void restoreWorkers(const wire::CheckpointState& state);
    /// Puts `parameters` and `momentum` back as the next version, with the policy of `mode` made afresh
    /// at `learningRate`; returns that version.
    Result<uint64_t> restoreAsNextVersion(const std::vector<float>& parameters, const std::vector<float>& momentum,
                                          float learningRate, const wire::ModeSettings& mode);

    CoordinatorState& m_state;
    EventLog& m_events;
    PolicyContext& m_policyContext;
    ModelStore& m_model;
    ServeUntil m_serveUntil;
    std::unique_ptr<CheckpointStore> m_store;
    int m_gathering = 0;  ///< checkpoints captured, waiting for the model of their version
    Clock::time_point m_lastPeriodic;
};

}  // namespace syncscope::engine
