// TensorBoard export of a recording: TFRecord event files (tfrecord.h) of Event/Summary protos
// (engine/proto/tensorboard_event.proto). The output folder is a TensorBoard log dir with one run
// for the whole job and one per worker, so TensorBoard overlays the workers in one chart:
//   DIR/            loss/train, accuracy/test, throughput/updates_per_s, throughput/samples_per_s,
//                   staleness/mean, and every control event as a text summary under events/control
//   DIR/worker_N/   worker/samples_per_s, worker/staleness_mean, worker/compute_ms, worker/comm_ms,
//                   worker/wait_ms
// Steps are model versions (updates applied); wall times are the recording's own clock.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/telemetry/recording_sink.h"

namespace syncscope::tensorboard {
class Event;
}

namespace syncscope::engine {

class TfEventsFile;

class TfEventsSink final : public RecordingSink {
public:
    /// Writes into `folder`, created if missing; existing event files of the same recording are replaced.
    explicit TfEventsSink(std::string folder);
    ~TfEventsSink() override;

    Status begin(const wire::RecordingHeader& header) override;
    Status add(const wire::Record& record) override;
    Status finish() override;

    /// The event files written so far (paths) and how many events they hold in all.
    std::vector<std::string> files() const;
    uint64_t eventCount() const { return m_events; }

private:
    Status addTick(const wire::Tick& tick);
    Status addEvent(const wire::Event& event);
    Result<TfEventsFile*> run(const std::string& name);  // "" is the job's own run
    Status write(const std::string& runName, const tensorboard::Event& event);

    std::string m_folder;
    std::string m_fileName;
    uint64_t m_startUnixMs = 0;
    uint64_t m_lastTestVersion = UINT64_MAX;
    uint64_t m_events = 0;
    std::map<std::string, std::unique_ptr<TfEventsFile>> m_runs;
};

}  // namespace syncscope::engine
