// ParameterStore: the coordinator's copy of the model, one flat float buffer with a version that
// only ever goes up, updated by SGD with momentum; readers get immutable per-version snapshots. The
// buffer's tail may hold an external model's buffers (RunSpec.buffer_count), which an update sets
// rather than steps.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/backend/device_buffer.h"
#include "engine/model/sgd_optimizer.h"
#include "engine/net/tensor_frame.h"

namespace syncscope::engine {

class ParameterStore {
public:
    ParameterStore(std::vector<float> initial, SgdSettings sgd);

    uint64_t version() const { return m_version; }
    size_t size() const { return m_params.size(); }
    /// Where the buffers begin (size() when there are none): values before it are trained by SGD.
    size_t bufferBegin() const { return m_bufferBegin; }
    /// The last `count` values are buffers (count < size()).
    void setBufferCount(size_t count);
    SgdSettings& sgd() { return m_optimizer.settings(); }
    const SgdSettings& sgd() const { return m_optimizer.settings(); }

    /// Applies one averaged gradient at learning rate lr and moves to the next version: an SGD step
    /// before bufferBegin(); from there on, `gradient` holds the buffers' new values, copied in.
    void apply(const float* gradient, float lr);
    /// Moves to the next version where parameter shards apply the update (a sharded run's
    /// coordinator keeps the version here, and the model it started from).
    void advanceVersion() { ++m_version; }
    /// The parameters of the current version, shared by every reply that carries them.
    SharedFloats snapshot();
    /// Copies of the parameters and the optimiser's momentum (for a checkpoint).
    void exportState(std::vector<float>* parameters, std::vector<float>* momentum) const;
    /// Puts parameters and momentum back and sets the version (a resume, or a rollback's next version).
    void restore(const std::vector<float>& parameters, const std::vector<float>& momentum, uint64_t version);

private:
    // Buffers whose last reader (a reply ZeroMQ has finished sending) let go come back here, so an
    // asp run does not allocate and fault in a fresh snapshot per version. Shared with the deleters,
    // which run on ZeroMQ's I/O thread, hence the mutex.
    struct SnapshotPool {
        std::mutex mutex;
        std::vector<std::unique_ptr<std::vector<float>>> free;
    };

    CpuBackend m_backend{0};
    std::shared_ptr<SnapshotPool> m_pool = std::make_shared<SnapshotPool>();
    DeviceBuffer<float> m_params;
    SgdOptimizer m_optimizer;
    uint64_t m_version = 0;
    size_t m_bufferBegin;
    SharedFloats m_snapshot;  // of m_snapshotVersion
    uint64_t m_snapshotVersion = ~0ULL;
};

}  // namespace syncscope::engine
