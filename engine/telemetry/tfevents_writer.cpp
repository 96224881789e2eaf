// TfEventsSink (see tfevents_writer.h): ticks become scalars, Event records text summaries.
#include "engine/telemetry/tfevents_writer.h"
#include "engine/telemetry/event_kind.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "engine/proto/tensorboard_event.pb.h"
#include "engine/telemetry/tfrecord.h"

namespace syncscope::engine {

namespace fs = std::filesystem;

/// One event file: TFRecords appended to a stream, the first holding the file version.
class TfEventsFile {
public:
    Status open(const std::string& path, double wallTime) {
        m_path = path;
        m_out.open(path, std::ios::binary | std::ios::trunc);
        if (!m_out)
            return unavailable("cannot create '" + path + "': " + std::strerror(errno) +
                               "; check that the folder is writable");
        tensorboard::Event version;
        version.set_wall_time(wallTime);
        version.set_file_version("brain.Event:2");  // what TensorBoard expects first
        return write(version);
    }
    Status write(const tensorboard::Event& event) {
        m_out << encodeTfRecord(event.SerializeAsString());
        if (m_out) return Status::ok();
        return unavailable("writing '" + m_path + "' failed (is the disk full?)");
    }
    Status close() {
        m_out.close();
        if (m_out) return Status::ok();
        return unavailable("closing '" + m_path + "' failed (is the disk full?)");
    }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    std::ofstream m_out;
};

namespace {

tensorboard::Event summaryEvent(double wallTime, uint64_t step) {
    tensorboard::Event event;
    event.set_wall_time(wallTime);
    event.set_step(static_cast<int64_t>(step));
    return event;
}

void addScalar(tensorboard::Event& event, const std::string& tag, double value) {
    tensorboard::Summary::Value* v = event.mutable_summary()->add_value();
    v->set_tag(tag);
    v->set_simple_value(static_cast<float>(value));
}

// A text summary as TensorBoard's text plugin writes it: a scalar string tensor.
void addText(tensorboard::Event& event, const std::string& tag, const std::string& text) {
    tensorboard::Summary::Value* v = event.mutable_summary()->add_value();
    v->set_tag(tag);
    v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("text");
    v->mutable_metadata()->set_data_class(tensorboard::DATA_CLASS_TENSOR);
    v->mutable_tensor()->set_dtype(tensorboard::DT_STRING);
    v->mutable_tensor()->mutable_tensor_shape();
    v->mutable_tensor()->add_string_val(text);
}

}  // namespace

TfEventsSink::TfEventsSink(std::string folder) : m_folder(std::move(folder)) {}
TfEventsSink::~TfEventsSink() = default;

Status TfEventsSink::begin(const wire::RecordingHeader& header) {
    m_startUnixMs = header.start_unix_ms();
    char name[96];
    // Named after the recording, so exporting it again replaces the files instead of doubling them.
    std::snprintf(name, sizeof name, "events.out.tfevents.%010" PRIu64 ".syncscope-%016" PRIx64,
                  m_startUnixMs / 1000, header.run_id());
    m_fileName = name;
    std::error_code error;
    fs::create_directories(m_folder, error);
    if (error)
        return unavailable("cannot create the folder '" + m_folder + "': " + error.message() +
                           "; pick another output folder");
    return run("").status();
}

Result<TfEventsFile*> TfEventsSink::run(const std::string& name) {
    auto it = m_runs.find(name);
    if (it != m_runs.end()) return it->second.get();
    const fs::path folder = name.empty() ? fs::path(m_folder) : fs::path(m_folder) / name;
    std::error_code error;
    fs::create_directories(folder, error);
    if (error) return unavailable("cannot create the folder '" + folder.string() + "': " + error.message());
    auto file = std::make_unique<TfEventsFile>();
    if (Status s = file->open((folder / m_fileName).string(), m_startUnixMs / 1000.0); !s) return s;
    ++m_events;
    return m_runs.emplace(name, std::move(file)).first->second.get();
}

Status TfEventsSink::write(const std::string& runName, const tensorboard::Event& event) {
    auto file = run(runName);
    if (!file) return file.status();
    ++m_events;
    return (*file)->write(event);
}

Status TfEventsSink::add(const wire::Record& record) {
    if (record.has_tick()) return addTick(record.tick());
    if (record.has_event()) return addEvent(record.event());  // a Tick's own copies are not written twice
    return Status::ok();
}

Status TfEventsSink::addTick(const wire::Tick& tick) {
    const double wallTime = tick.unix_ms() / 1000.0;
    // Steps only grow within a run (TensorBoard drops points behind a step that went back), so an
    // evaluation is written at the tick's version, not at the older version it evaluated.
    tensorboard::Event job = summaryEvent(wallTime, tick.version());
    if (tick.test_accuracy() >= 0 && tick.test_version() != m_lastTestVersion) {  // each evaluation once
        m_lastTestVersion = tick.test_version();
        addScalar(job, "accuracy/test", tick.test_accuracy());
    }
    const bool running = tick.state() == wire::RUN_RUNNING;  // paused or waiting: nothing new to plot
    if (running) {
        double samplesPerSecond = 0, staleness = 0;
        for (const wire::WorkerStats& w : tick.workers()) {
            samplesPerSecond += w.samples_per_s();
            staleness += w.staleness_mean();
        }
        addScalar(job, "loss/train", tick.train_loss());
        addScalar(job, "throughput/updates_per_s", tick.updates_per_s());
        addScalar(job, "throughput/samples_per_s", samplesPerSecond);
        if (tick.workers_size() > 0) addScalar(job, "staleness/mean", staleness / tick.workers_size());
    }
    if (job.summary().value_size() > 0)
        if (Status s = write("", job); !s) return s;
    if (!running) return Status::ok();
    for (const wire::WorkerStats& w : tick.workers()) {
        tensorboard::Event worker = summaryEvent(wallTime, tick.version());
        addScalar(worker, "worker/samples_per_s", w.samples_per_s());
        addScalar(worker, "worker/staleness_mean", w.staleness_mean());
        addScalar(worker, "worker/compute_ms", w.compute_ms());
        addScalar(worker, "worker/comm_ms", w.comm_ms());
        addScalar(worker, "worker/wait_ms", w.wait_ms());
        if (Status s = write("worker_" + std::to_string(w.worker_id()), worker); !s) return s;
    }
    return Status::ok();
}

Status TfEventsSink::addEvent(const wire::Event& event) {
    const double wallTime = event.unix_ms() > 0 ? event.unix_ms() / 1000.0 : m_startUnixMs / 1000.0 + event.time_s();
    tensorboard::Event text = summaryEvent(wallTime, event.version());
    char when[64];
    std::snprintf(when, sizeof when, " (%.2f s, model version %" PRIu64 ")", event.time_s(), event.version());
    addText(text, "events/control", "**" + eventKindName(eventKindOf(event)) + "**: " + event.detail() + when);
    return write("", text);
}

Status TfEventsSink::finish() {
    for (auto& [name, file] : m_runs)
        if (Status s = file->close(); !s) return s;
    return Status::ok();
}

std::vector<std::string> TfEventsSink::files() const {
    std::vector<std::string> paths;
    for (const auto& [name, file] : m_runs) paths.push_back(file->path());
    return paths;
}

}  // namespace syncscope::engine
