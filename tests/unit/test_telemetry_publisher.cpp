// TelemetryPublisher's memory stays bounded however long a run goes and however many workers come
// and go: the snapshot history is thinned by tick count and by bytes, only its newest tick keeps
// the (cumulative) staleness histograms, and a worker lost for longer than
// kLostWorkerShownSeconds is left out of the ticks until it registers again.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/coordinator/event_log.h"
#include "engine/coordinator/run_recorder.h"
#include "engine/coordinator/telemetry_publisher.h"

using namespace syncscope::engine;
namespace wire = syncscope::wire;

namespace {

EndpointOptions telemetryOptions() {
    EndpointOptions options;
    options.role = "telemetry";
    return options;
}

struct Publisher {
    explicit Publisher(uint32_t workers) : state(CoordinatorOptions{}, std::vector<float>(16, 0.0f), 60000) {
        for (uint32_t i = 0; i < workers; ++i) {
            WorkerRecord& w = state.workers.add("worker-" + std::to_string(i), {}, 64);
            w.state = wire::WORKER_COMPUTING;
            w.stalenessHistogram[i % WorkerRegistry::kStalenessBuckets] = 1000 + i;
        }
    }
    zmq::context_t context{1};
    CoordinatorState state;
    PublisherEndpoint endpoint{context, telemetryOptions()};
    RunRecorder recorder;
    EventLog events{state, recorder};
    TelemetryPublisher publisher{state, endpoint, events, recorder};
};

}  // namespace

// 300 workers: the byte bound, not the tick count, thins the history; it stays under both.
TEST(TestTelemetryPublisher, historyIsBoundedInBytes) {
    Publisher p(300);
    size_t largest = 0;
    for (int i = 0; i < 3000; ++i) {
        p.publisher.tick(0);
        largest = std::max(largest, p.publisher.historyBytes());
    }
    const std::vector<wire::Tick> history = p.publisher.history();
    size_t bytes = 0;
    for (const wire::Tick& t : history) bytes += t.ByteSizeLong();
    ASSERT_TRUE(bytes >= p.publisher.historyBytes());  // the newest has its histograms too
    ASSERT_TRUE(largest <= TelemetryPublisher::kHistoryBytes) << "history reached " << largest << " bytes";
    ASSERT_TRUE(history.size() < TelemetryPublisher::kHistoryCap);
    ASSERT_TRUE(history.size() < 3000) << "the byte bound never thinned the history";
    ASSERT_EQ(history.back().workers_size(), 300);
    // The newest tick has every worker's histogram; older ones have none.
    ASSERT_EQ(history.back().workers(7).staleness_histogram(7), uint64_t(1007));
    for (size_t i = 0; i + 1 < history.size(); ++i)
        for (const wire::WorkerStats& w : history[i].workers()) ASSERT_EQ(w.staleness_histogram_size(), 0);
}

// A few workers: the count bound thins it (the first tick stays).
TEST(TestTelemetryPublisher, historyIsBoundedInTicks) {
    Publisher p(2);
    for (size_t i = 0; i < TelemetryPublisher::kHistoryCap + 10; ++i) p.publisher.tick(i);
    const std::vector<wire::Tick> history = p.publisher.history();
    ASSERT_TRUE(history.size() < TelemetryPublisher::kHistoryCap);
    ASSERT_EQ(history.front().bad_messages(), uint64_t(0));
    ASSERT_EQ(history.back().bad_messages(), uint64_t(TelemetryPublisher::kHistoryCap + 9));
}

// A worker lost a moment ago is shown as lost; one lost long ago is left out.
TEST(TestTelemetryPublisher, longLostWorkersAreLeftOut) {
    Publisher p(3);
    const auto ago = [](double seconds) {
        return Clock::now() - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    };
    WorkerRecord& recent = *p.state.workers.find(1);
    recent.state = wire::WORKER_LOST;
    recent.lastSeen = ago(5);
    WorkerRecord& old = *p.state.workers.find(2);
    old.state = wire::WORKER_LOST;
    old.lastSeen = ago(TelemetryPublisher::kLostWorkerShownSeconds + 1);
    p.publisher.tick(0);
    const wire::Tick tick = p.publisher.history().back();
    ASSERT_EQ(tick.workers_size(), 2);
    ASSERT_EQ(tick.workers(0).worker_id(), 0u);
    ASSERT_EQ(tick.workers(1).worker_id(), 1u);
    ASSERT_EQ(tick.workers(1).state(), wire::WORKER_LOST);
    old.state = wire::WORKER_COMPUTING;  // registered again
    old.lastSeen = Clock::now();
    p.publisher.tick(0);
    ASSERT_EQ(p.publisher.history().back().workers_size(), 3);
}
