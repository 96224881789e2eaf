// Following a cluster's run (see cluster_run.h).
#include "engine/cli/cluster_run.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <optional>
#include <zmq.hpp>

#include <fmt/format.h>

#include "engine/cli/cli_errors.h"
#include "engine/cli/final_report.h"
#include "engine/cli/json_output.h"
#include "engine/cli/straggler_throttles.h"
#include "engine/core/process_signals.h"
#include "engine/core/progress_bar.h"
#include "engine/net/endpoint.h"
#include "engine/net/protocol.h"
#include "engine/net/wire_codec.h"

namespace syncscope::engine {
namespace {

constexpr int kHostFailureExit = 3;
/// How long every worker process may have ended with code 0 before the run counts as stalled: a run that
/// is over tells its workers first, and its next tick (10 Hz by default) says it stopped.
constexpr auto kCleanEndGrace = std::chrono::seconds(5);

std::string progressLine(const wire::Tick& t) {
    double samplesPerSecond = 0;
    for (const auto& w : t.workers()) samplesPerSecond += w.samples_per_s();
    char text[200];
    std::snprintf(text, sizeof text, "v%llu  loss %.3f  acc %s  %.0f samples/s  %zu workers",
                  static_cast<unsigned long long>(t.version()), t.train_loss(),
                  t.test_accuracy() < 0 ? "  -  " : fmt::format("{:.2f}%", 100 * t.test_accuracy()).c_str(),
                  samplesPerSecond, static_cast<size_t>(t.workers_size()));
    return text;
}

void requestStop(zmq::socket_t& control) {
    wire::Envelope envelope;
    envelope.mutable_control()->set_stop(true);
    sendMessage(control, nullptr, envelope);
}

std::string lowercase(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// The closing line, as serve prints it for people: "final test accuracy: 86.36% at model version 505".
std::string finalLine(const std::optional<wire::RunResult>& result) {
    if (!result) return "final test accuracy: unknown (the coordinator ended without a report)\n";
    if (!result->failure().empty()) return "final test accuracy: unknown (the run could not go on)\n";
    if (!result->evaluated()) return "final test accuracy: unknown (no evaluator reported on the final model)\n";
    return formatFinalReport(result->test_accuracy(), result->model_version());
}

// run --json: the coordinator's reported result, the last tick the run command saw, and the workers'
// speeds from the last tick of training (the closing ticks, after the stop, show none).
nlohmann::json resultJson(const std::optional<wire::RunResult>& result, const wire::Tick& last,
                          const wire::Tick& lastRunning, int exitCode) {
    const bool evaluated = result && result->evaluated();
    nlohmann::json workers = nlohmann::json::array();
    for (const wire::WorkerStats& w : lastRunning.workers())
        workers.push_back({{"id", w.worker_id()}, {"samples_per_s", w.samples_per_s()},
                           {"staleness_mean", w.staleness_mean()}, {"pushed", w.pushed()}, {"applied", w.applied()},
                           {"dropped", w.dropped()}, {"batch_size", w.batch_size()}, {"cpu_limit", w.cpu_limit()}});
    return {{"command", "run"},
            {"exit_code", exitCode},
            {"interrupted", catchInterrupts().load()},
            {"final_test_accuracy", evaluated ? nlohmann::json(result->test_accuracy()) : nlohmann::json()},
            {"model_version", evaluated ? result->model_version() : last.version()},
            {"mode", lowercase(wire::SyncMode_Name(last.mode().mode()))},
            {"time_s", last.time_s()},
            {"samples_total", last.samples_total()},
            {"samples_per_s", last.time_s() > 0 ? last.samples_total() / last.time_s() : 0.0},
            {"pushed", last.pushed()},
            {"applied", last.applied()},
            {"dropped", last.dropped()},
            {"workers", workers}};
}

}  // namespace

int runCluster(Cluster& cluster, const wire::RunPlan& plan, const ClusterRunSettings& settings) {
    StragglerThrottles throttles(plan.layout());
    const std::atomic<bool>& interrupted = catchInterrupts();
    if (Status s = cluster.startCoordinator(plan, settings.listen); !s) return printError(s);
    if (Status s = cluster.startProcesses(settings.workerArguments); !s) {
        cluster.stopAll(settings.stopGraceSeconds);  // the processes started so far, the hosts' sessions too
        return printError(s);
    }
    if (settings.onStarted) settings.onStarted(cluster);
    const bool json = settings.json;
    zmq::context_t context(1);
    zmq::socket_t telemetry(context, zmq::socket_type::sub), control(context, zmq::socket_type::dealer);
    telemetry.set(zmq::sockopt::linger, 0);
    control.set(zmq::sockopt::linger, 0);
    const EndpointSecurity steer = EndpointSecurity::client(cluster.credentials(), Role::Steer);
    applySecurity(telemetry, steer, false);
    applySecurity(control, steer, false);
    telemetry.set(zmq::sockopt::subscribe, kTickTopic);
    telemetry.connect(cluster.endpoints().telemetry);
    control.connect(cluster.endpoints().control);

    ProgressBar bar;
    wire::Tick last, lastRunning;
    bool stopSent = false, hostFailed = false;
    auto stopDeadline = std::chrono::steady_clock::now();
    int coordinatorExit = -1;
    std::optional<std::chrono::steady_clock::time_point> allEndedAt;  // when every worker process had ended
    while (cluster.coordinatorRunning(&coordinatorExit)) {
        zmq::pollitem_t item{telemetry.handle(), 0, ZMQ_POLLIN, 0};
        pollSockets(&item, 1, std::chrono::milliseconds(100));
        zmq::message_t topic, body;
        while (telemetry.recv(topic, zmq::recv_flags::dontwait)) {
            if (!topic.more() || !telemetry.recv(body, zmq::recv_flags::none)) continue;
            wire::Tick t;
            if (!t.ParseFromArray(body.data(), static_cast<int>(body.size()))) continue;
            bar.update(static_cast<long long>(1000 * t.progress()), 1000, progressLine(t));
            for (const wire::Event& event : t.events())
                if (const std::string note = throttles.onEvent(event, cluster.processes()); !note.empty())
                    bar.note(note);
            if (t.state() == wire::RUN_RUNNING) lastRunning = t;
            last = std::move(t);
        }
        if (!stopSent) {  // a lost shard's place is taken by a new one (the coordinator restores its range)
            auto restarted = cluster.restartEndedShards();
            if (!restarted) {
                bar.finish();
                printError(unavailable(restarted.status().message() + "; stopping the run"));
                hostFailed = true;
            } else {
                for (const std::string& line : *restarted) bar.note(line);
            }
        }
        Cluster::WorkerEnds ends;
        for (const std::string& line : cluster.endedWorkers(&ends)) bar.note(line);
        if (ends.allEnded && !allEndedAt) allEndedAt = std::chrono::steady_clock::now();
        // Nothing here can train on: say so rather than wait for ever. Where every worker returned 0,
        // they may have been told the run is over a moment before the ticks say it stopped.
        const bool stalled = ends.allEnded && (ends.failed > 0 || (last.state() != wire::RUN_STOPPED &&
                                                                    std::chrono::steady_clock::now() - *allEndedAt >
                                                                        kCleanEndGrace));
        if (stalled && !stopSent && !hostFailed) {
            bar.finish();
            printError(unavailable(
                ends.failed > 0 ? "every worker process of this run has ended, not all of them cleanly (their errors "
                                  "are above); stopping the run"
                                : "every worker process of this run has ended with code 0 while the run goes on (a "
                                  "--worker-command whose script returns before the run is over, e.g. a loop that "
                                  "does not end at opt.running turning false?); stopping the run"));
            hostFailed = true;
        }
        for (const RemoteWorkers::Failure& failure : cluster.pollHosts(std::chrono::milliseconds(0))) {
            bar.finish();
            printError(unavailable(failure.message + "; stopping the run"));
            hostFailed = true;
        }
        if ((interrupted.load() || hostFailed) && !stopSent) {
            bar.finish();
            std::fprintf(stderr, "stopping the cluster...\n");
            requestStop(control);
            stopSent = true;
            stopDeadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
        }
        if (stopSent && std::chrono::steady_clock::now() > stopDeadline) break;
    }
    bar.finish();
    const std::optional<wire::RunResult> result = cluster.coordinatorResult();
    cluster.stopAll(settings.stopGraceSeconds);
    std::fputs(finalLine(result).c_str(), textOutput(json));
    const int exitCode = coordinatorExit != 0 ? 3
                         : hostFailed         ? kHostFailureExit
                         : interrupted.load() ? settings.interruptedExit
                                              : 0;
    if (json) printJson(resultJson(result, last, lastRunning, exitCode));
    if (coordinatorExit != 0) std::fprintf(stderr, "error: the coordinator exited with code %d\n", coordinatorExit);
    return exitCode;
}

}  // namespace syncscope::engine
