// A small recording with known values for the export tests: 2 workers, ticks every 0.1 s for 1 s
// (loss, accuracy, per-worker speed and staleness), worker w released every 20·(w+1) ms after
// 2 ms held and 10·(w+1) ms of compute, an update per release, control events and a drop.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "engine/telemetry/recording_writer.h"

namespace synthetic {

namespace wire = syncscope::wire;

inline constexpr uint64_t kStartUnixMs = 1700000000000ULL;
inline constexpr int kWorkers = 2;
inline constexpr double kHeldMs = 2.0;
inline double computeMs(uint32_t worker) { return 10.0 * (worker + 1); }
inline double releasePeriod(uint32_t worker) { return 0.020 * (worker + 1); }
inline constexpr double kFirstRelease = 0.05;
inline constexpr double kEnd = 1.0;
inline const std::string kUnicodeDetail = "mode ssp s=3 → “fast” ü";

inline double lossAt(int tick) { return 2.0 / (1 + tick); }
inline double samplesPerSecond(int tick, uint32_t worker) { return 1000.0 + 10 * tick + worker; }

struct Run {
    wire::RecordingHeader header;
    std::vector<wire::Record> records;  // in time order
    int ticks = 0, events = 0, releases = 0, evaluations = 0;
};

inline wire::Record tickRecord(int i, int& evaluations) {
    wire::Record record;
    wire::Tick* tick = record.mutable_tick();
    tick->set_time_s(0.1 * i);
    tick->set_unix_ms(kStartUnixMs + 100 * i);
    tick->set_state(wire::RUN_RUNNING);
    tick->set_version(static_cast<uint64_t>(10 * i));
    tick->mutable_mode()->set_mode(wire::SSP);
    tick->set_train_loss(lossAt(i));
    tick->set_updates_per_s(50 + i);
    // Evaluated every other tick; the ticks between repeat the last evaluation.
    tick->set_test_accuracy(i < 2 ? -1.0 : 0.5 + 0.01 * (i / 2));
    tick->set_test_version(static_cast<uint64_t>(20 * (i / 2)));
    if (i >= 2 && i % 2 == 0) ++evaluations;
    for (uint32_t w = 0; w < kWorkers; ++w) {
        wire::WorkerStats* s = tick->add_workers();
        s->set_worker_id(w);
        s->set_samples_per_s(samplesPerSecond(i, w));
        s->set_staleness_mean(0.5 * w);
        s->set_compute_ms(computeMs(w));
    }
    return record;
}

inline Run make() {
    Run run;
    run.header.set_protocol_major(1);
    run.header.set_start_unix_ms(kStartUnixMs);
    run.header.set_run_id(0xABCDEFULL);
    run.header.mutable_spec()->set_model("mlp");
    std::vector<std::pair<double, wire::Record>> timed;
    for (int i = 0; i * 0.1 < kEnd; ++i, ++run.ticks) timed.emplace_back(0.1 * i, tickRecord(i, run.evaluations));
    uint64_t version = 0;
    for (uint32_t w = 0; w < kWorkers; ++w)
        for (int k = 0; kFirstRelease + k * releasePeriod(w) < kEnd; ++k, ++run.releases) {
            const double t = kFirstRelease + k * releasePeriod(w);
            wire::Record release;
            release.mutable_release()->set_time_s(t);
            release.mutable_release()->set_worker_id(w);
            release.mutable_release()->set_held_ms(kHeldMs);
            release.mutable_release()->set_compute_ms(k == 0 ? 0.0 : computeMs(w));
            timed.emplace_back(t, release);
            wire::Record update;
            update.mutable_update()->set_time_s(t - kHeldMs / 1000);
            update.mutable_update()->set_version(++version);
            update.mutable_update()->set_mode(wire::SSP);
            update.mutable_update()->add_contributions()->set_worker_id(w);
            if (k > 0) timed.emplace_back(t - kHeldMs / 1000, update);
        }
    for (const auto& [time, kind, detail] : {std::tuple{0.01, wire::EVENT_START, "training starts"},
                                             std::tuple{0.55, wire::EVENT_MODE, kUnicodeDetail.c_str()},
                                             std::tuple{0.95, wire::EVENT_STOP, "time limit reached"}}) {
        wire::Record event;
        event.mutable_event()->set_time_s(time);
        event.mutable_event()->set_unix_ms(kStartUnixMs + static_cast<uint64_t>(time * 1000));
        event.mutable_event()->set_kind(kind);
        event.mutable_event()->set_detail(detail);
        event.mutable_event()->set_version(static_cast<uint64_t>(100 * time));
        timed.emplace_back(time, event);
        ++run.events;
    }
    wire::Record drop;
    drop.mutable_drop()->set_time_s(0.33);
    drop.mutable_drop()->set_worker_id(1);
    drop.mutable_drop()->set_reason("too stale");
    timed.emplace_back(0.33, drop);
    std::stable_sort(timed.begin(), timed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [time, record] : timed) run.records.push_back(std::move(record));
    return run;
}

/// Writes `run` to `path`; false if the writer failed.
inline bool write(const Run& run, const std::string& path) {
    auto writer = syncscope::engine::RecordingWriter::create(path, run.header);
    if (!writer) return false;
    for (const wire::Record& record : run.records)
        if (!(*writer)->append(record)) return false;
    return static_cast<bool>((*writer)->flush());
}

}  // namespace synthetic
