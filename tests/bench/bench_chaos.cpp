// bench_chaos: the chaos soak (issue 27, point 5). A real run of real processes: `serve` (checkpoints,
// a recording) with 2 parameter shards, 2 group aggregators and 32 mlp workers (`work --retry`), and
// optionally an attached console. Every --kill-every seconds one process of a kind drawn at random
// (worker, aggregator, shard, coordinator, console) is SIGKILLed and started again as a user or Slurm
// would: a new worker, aggregator or shard (the coordinator puts a lost shard's range back from its
// newest checkpoint); a coordinator resumed from its checkpoints on the same ports (its relays give
// it up and are started again; workers rejoin by themselves). Checked throughout: pushed = applied +
// dropped + pending at every event; at the end, versions in the recording rising with at most one gap
// per coordinator kill. Prints a table and `BENCH_SUMMARY {json}`. A benchmark, not a CI test.
#include <signal.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <numeric>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "tests/integration/engine_cluster.h"
#include "tests/bench/process_memory.h"
#include "tests/integration/recording_helpers.h"

using namespace syncscope::testing;
namespace engine = syncscope::engine;
namespace wire = syncscope::wire;
using Clock = std::chrono::steady_clock;

using syncscope::bench::rssMiB;

namespace {

struct Settings {
    double seconds = 1800, killEvery = 20;
    unsigned workers = 32, seed = 1;
    std::string console;  ///< the console binary; empty: no console among the processes
};

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

struct Chaos {
    std::map<std::string, unsigned> kills;
    unsigned unexpectedExits = 0;
    uint64_t events = 0, accountingErrors = 0, lastVersion = 0;
    std::vector<double> lostPerCoordinatorKill, lostPerShardKill, shardBackSeconds, coordinatorBackSeconds;
    double rssFirst = 0, rssMax = 0, rssLast = 0;
};

// Every event's accounting, and the updates a lost shard cost (its event says).
void checkTick(const wire::Tick& tick, Chaos& chaos) {
    chaos.lastVersion = tick.version();
    static const std::regex kLost(R"(\((\d+) updates? lost\))");
    for (const wire::Event& e : tick.events()) {
        ++chaos.events;
        if (e.pushed() != e.applied() + e.dropped() + e.pending()) {
            ++chaos.accountingErrors;
            std::fprintf(stderr, "ACCOUNTING: %s: pushed %llu != applied %llu + dropped %llu + pending %llu\n",
                         e.detail().c_str(), (unsigned long long)e.pushed(), (unsigned long long)e.applied(),
                         (unsigned long long)e.dropped(), (unsigned long long)e.pending());
        }
        std::smatch match;
        if (e.kind() == wire::EVENT_SHARDS && std::regex_search(e.detail(), match, kLost))
            chaos.lostPerShardKill.push_back(std::stod(match[1]));
    }
}

class ChaosRun {
public:
    ChaosRun(const Settings& settings, const std::string& folder) : m_settings(settings), m_folder(folder) {
        const int data = pickFreePort(), control = pickFreePort();
        m_serve = {"--model", "mlp", "--batch", "64", "--workers", std::to_string(settings.workers), "--mode", "asp",
                   "--lr-modulation", "dynsgd", "--until-stopped", "--shards", "2", "--heartbeat-timeout", "5",
                   "--eval-interval", "10", "--checkpoint-dir", folder + "/checkpoints", "--checkpoint-seconds", "2",
                   "--record", folder + "/run.ssrec", "--data-port", std::to_string(data), "--control-port",
                   std::to_string(control), "--telemetry-port", std::to_string(control + 1)};
    }

    bool start() {
        if (Status s = m_cluster.startCoordinator(m_serve); !s) return fail("serve: " + s.message());
        if (!startRelays()) return false;
        for (unsigned i = 0; i < m_settings.workers; ++i) startWorker();
        if (!m_settings.console.empty()) startConsole();
        return true;
    }

    /// One process of a kind drawn at random, SIGKILLed and started again.
    bool strike(std::mt19937& random, Chaos& chaos) {
        std::vector<std::string> kinds{"worker", "aggregator", "shard", "coordinator"};
        if (!m_settings.console.empty()) kinds.push_back("console");
        const std::string kind = kinds[std::uniform_int_distribution<size_t>(0, kinds.size() - 1)(random)];
        ++chaos.kills[kind];
        if (kind == "worker") {
            size_t& slot = m_workers[std::uniform_int_distribution<size_t>(0, m_workers.size() - 1)(random)];
            m_cluster.worker(slot).kill();
            slot = startWorker(false);
        } else if (kind == "aggregator" || kind == "shard") {
            std::vector<size_t>& slots = kind == "shard" ? m_shards : m_aggregators;
            size_t& slot = slots[std::uniform_int_distribution<size_t>(0, slots.size() - 1)(random)];
            (kind == "shard" ? m_cluster.shard(slot) : m_cluster.aggregator(slot)).kill();
            const auto since = Clock::now();
            if (!startRelay(kind, slot)) return false;
            if (kind == "shard") chaos.shardBackSeconds.push_back(std::chrono::duration<double>(Clock::now() - since).count());
        } else if (kind == "console") {
            m_console.kill();
            startConsole();
        } else {
            return restartCoordinator(chaos);
        }
        return true;
    }

    /// Starts again whatever ended by itself (an error, not a kill); returns how many.
    unsigned restartExited() {
        unsigned exited = 0;
        for (size_t& slot : m_workers)
            if (!m_cluster.worker(slot).running()) {
                report("worker", m_cluster.worker(slot).stderrText());
                slot = startWorker(false);
                ++exited;
            }
        for (const char* kind : {"shard", "aggregator"})
            for (size_t& slot : std::string(kind) == "shard" ? m_shards : m_aggregators) {
                EngineChild& child = std::string(kind) == "shard" ? m_cluster.shard(slot) : m_cluster.aggregator(slot);
                if (child.running()) continue;
                report(kind, child.stderrText());
                ++exited;
                if (!startRelay(kind, slot)) return exited;
            }
        return exited;
    }

    EngineCluster& cluster() { return m_cluster; }
    const std::string& failure() const { return m_failure; }

private:
    bool fail(const std::string& why) {
        m_failure = why;
        return false;
    }
    void report(const std::string& kind, const std::string& stderrText) {
        const size_t at = stderrText.rfind("error");
        std::fprintf(stderr, "a %s ended by itself: %s\n", kind.c_str(),
                     at == std::string::npos ? "(no error printed)" : stderrText.substr(at, 200).c_str());
    }
    size_t startWorker(bool initial = true) {
        m_cluster.startWorker({"--retry", "--coordinator-timeout", "5", "--threads", "1"});
        if (initial) m_workers.push_back(m_workerCount);
        return m_workerCount++;
    }
    bool startRelay(const std::string& kind, size_t& slot) {
        const Args relay{"--coordinator-timeout", "5"};
        const std::string endpoint = kind == "shard" ? m_cluster.startShard(relay) : m_cluster.startAggregator(relay);
        slot = kind == "shard" ? m_shardCount++ : m_aggregatorCount++;
        if (endpoint.empty()) return fail("a new " + kind + " did not start:\n" + m_cluster.logs().substr(0, 4000));
        return true;
    }
    bool startRelays() {
        for (std::vector<size_t>* slots : {&m_shards, &m_aggregators}) {
            const std::string kind = slots == &m_shards ? "shard" : "aggregator";
            slots->assign(2, 0);
            for (size_t& slot : *slots)
                if (!startRelay(kind, slot)) return false;
        }
        return true;
    }
    void startConsole() {
        ChildOptions options;
        options.stderrPath = m_folder + "/console.err";
        const std::string control = m_cluster.endpoints().control;
        m_console.start(m_settings.console,
                        {"--attach", control, "--credentials", m_cluster.credentialsPath()}, options);
    }
    bool restartCoordinator(Chaos& chaos) {
        m_cluster.coordinator().kill();
        const auto since = Clock::now();
        // Its relays give it up after --coordinator-timeout; a user (or Slurm) starts them again with it.
        for (size_t slot : m_shards)
            if (!m_cluster.shard(slot).waitForExit(15'000)) m_cluster.shard(slot).kill();
        for (size_t slot : m_aggregators)
            if (!m_cluster.aggregator(slot).waitForExit(15'000)) m_cluster.aggregator(slot).kill();
        if (Status s = m_cluster.startCoordinator(m_serve + Args{"--resume", m_folder + "/checkpoints"}); !s)
            return fail("serve --resume: " + s.message());
        if (!startRelays()) return false;
        chaos.coordinatorBackSeconds.push_back(std::chrono::duration<double>(Clock::now() - since).count());
        if (!m_settings.console.empty() && !m_console.running()) startConsole();
        return true;
    }

    const Settings& m_settings;
    std::string m_folder, m_failure;
    Args m_serve;
    EngineCluster m_cluster;
    ChildProcess m_console;
    std::vector<size_t> m_workers, m_shards, m_aggregators;  ///< indices in the cluster of the current ones
    size_t m_workerCount = 0, m_shardCount = 0, m_aggregatorCount = 0;
};

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    CLI::App app{"bench_chaos: a sharded, aggregated run with a random process SIGKILLed every 20 s"};
    app.add_option("--seconds", s.seconds, "How long (the issue's soak: 1800)")->capture_default_str();
    app.add_option("--kill-every", s.killEvery, "Seconds between kills")->capture_default_str();
    app.add_option("--workers", s.workers, "Worker processes (mlp, one thread each)")->capture_default_str();
    app.add_option("--seed", s.seed, "Seed of the draws")->capture_default_str();
    app.add_option("--console", s.console, "The console binary: an attached console is among the processes killed");
    CLI11_PARSE(app, argc, argv);
    ::setenv("QT_QPA_PLATFORM", "offscreen", 0);  // an attached console needs no display here

    TempDir dir;
    ChaosRun run(s, dir.path());
    if (!run.start()) {
        std::fprintf(stderr, "bench_chaos: %s\n", run.failure().c_str());
        return 1;
    }
    Chaos chaos;
    std::mt19937 random(s.seed);
    const auto start = Clock::now();
    auto nextKill = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s.killEvery));
    auto nextSample = start;
    const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    while (elapsed() < s.seconds) {
        run.cluster().telemetry().waitForTick([&](const wire::Tick& t) { checkTick(t, chaos); return false; }, 250);
        if (Clock::now() >= nextSample) {
            nextSample += std::chrono::seconds(5);
            chaos.unexpectedExits += run.restartExited();
            const double mib = rssMiB(run.cluster().coordinator().pid());
            if (chaos.rssFirst == 0) chaos.rssFirst = mib;
            chaos.rssMax = std::max(chaos.rssMax, mib);
            chaos.rssLast = mib;
        }
        if (Clock::now() < nextKill) continue;
        nextKill += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s.killEvery));
        if (!run.strike(random, chaos)) {
            std::fprintf(stderr, "bench_chaos: the run did not survive: %s\n", run.failure().c_str());
            return 1;
        }
        unsigned total = 0;
        for (const auto& [kind, n] : chaos.kills) total += n;
        std::fprintf(stderr, "%6.0f s: %u kills, version %llu, %u unexpected exits, %llu accounting errors\n", elapsed(),
                     total, (unsigned long long)chaos.lastVersion, chaos.unexpectedExits,
                     (unsigned long long)chaos.accountingErrors);
    }
    wire::ControlRequest stop;
    stop.set_stop(true);
    (void)run.cluster().control().request(stop);
    const bool ended = run.cluster().coordinator().waitForExit(60'000);
    const std::string out = run.cluster().coordinator().stdoutText();
    std::smatch match;
    const double accuracy = std::regex_search(out, match, std::regex(R"(final test accuracy: ([0-9.]+)%)")) ? std::stod(match[1]) : -1;

    // The recording: versions rising; a gap is a resumed or restored model's own version.
    const engine::Recording recording = loadRecording(dir.path() + "/run.ssrec");
    // Updates lost per coordinator kill: the last version recorded before each resume, less the
    // version of the checkpoint it resumed from.
    uint64_t last = 0, gaps = 0, backwards = 0, updates = 0;
    for (const auto& record : recording.records) {
        unsigned long long from = 0;
        if (record.has_event() && record.event().kind() == wire::EVENT_RESUMED &&
            std::sscanf(record.event().detail().c_str(), "resumed from the checkpoint of version %llu", &from) == 1)
            chaos.lostPerCoordinatorKill.push_back(double(last > from ? last - from : 0));
        if (!record.has_update()) continue;
        const uint64_t v = record.update().version();
        backwards += v <= last;
        gaps += v > last + 1;
        last = std::max(last, v);
        ++updates;
    }
    const unsigned coordinatorKills = chaos.kills["coordinator"], shardKills = chaos.kills["shard"];
    std::printf("chaos soak: %.0f s, a kill every %.0f s, %u workers, 2 shards, 2 aggregators%s\n", s.seconds, s.killEvery,
                s.workers, s.console.empty() ? "" : ", a console");
    std::printf("| kind | kills |\n|---|---|\n");
    for (const auto& [kind, n] : chaos.kills) std::printf("| %s | %u |\n", kind.c_str(), n);
    std::printf("run ended cleanly: %s; final test accuracy %.2f%% at the last of %llu recorded updates\n",
                ended && run.cluster().coordinator().exitCode() == 0 ? "yes" : "no", accuracy, (unsigned long long)updates);
    std::printf("processes that ended by themselves (restarted): %u\n", chaos.unexpectedExits);
    std::printf("updates lost per coordinator kill: median %.0f, max %.0f; back in median %.1f s\n",
                median(chaos.lostPerCoordinatorKill),
                chaos.lostPerCoordinatorKill.empty() ? 0.0 : *std::max_element(chaos.lostPerCoordinatorKill.begin(), chaos.lostPerCoordinatorKill.end()),
                median(chaos.coordinatorBackSeconds));
    std::printf("updates lost per shard kill: median %.0f, max %.0f; a new shard had its place in median %.1f s\n",
                median(chaos.lostPerShardKill),
                chaos.lostPerShardKill.empty() ? 0.0 : *std::max_element(chaos.lostPerShardKill.begin(), chaos.lostPerShardKill.end()),
                median(chaos.shardBackSeconds));
    std::printf("accounting errors: %llu in %llu events; recording: %llu versions going back, %llu gaps (at most %u: "
                "coordinator and shard kills)\n",
                (unsigned long long)chaos.accountingErrors, (unsigned long long)chaos.events,
                (unsigned long long)backwards, (unsigned long long)gaps, coordinatorKills + shardKills);
    std::printf("coordinator memory: %.0f MiB first, %.0f MiB at most, %.0f MiB last\n", chaos.rssFirst, chaos.rssMax,
                chaos.rssLast);
    std::printf("BENCH_SUMMARY {\"seconds\": %.0f, \"kills\": %u, \"coordinator_kills\": %u, \"shard_kills\": %u, "
                "\"unexpected_exits\": %u, \"accounting_errors\": %llu, \"versions_back\": %llu, \"gaps\": %llu, "
                "\"final_accuracy\": %.2f, \"rss_max_mib\": %.0f}\n",
                s.seconds, unsigned(std::accumulate(chaos.kills.begin(), chaos.kills.end(), 0u,
                                                    [](unsigned a, const auto& k) { return a + k.second; })),
                coordinatorKills, shardKills, chaos.unexpectedExits, (unsigned long long)chaos.accountingErrors,
                (unsigned long long)backwards, (unsigned long long)gaps, accuracy, chaos.rssMax);
    const bool held = ended && chaos.accountingErrors == 0 && backwards == 0 && gaps <= coordinatorKills + shardKills;
    return held ? 0 : 1;
}
