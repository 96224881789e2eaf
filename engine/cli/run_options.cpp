// Run flags: registration, validation and hand-over to a child coordinator.
#include "engine/cli/run_options.h"

#include <cstdio>

#include "engine/cli/cli_validators.h"
#include "engine/model/fashion_mnist.h"

namespace syncscope::engine {

void addRunOptions(CLI::App& cmd, RunOptions& o) {
    if (o.data.empty()) o.data = defaultFashionMnistDir();
    cmd.add_option("--workers", o.workers, "Workers to wait for before training starts")->check(CLI::Range(1, 1024))->capture_default_str();
    cmd.add_option("--model", o.model, "Model to train")->check(CLI::IsMember({"mlp", "cnn"}))->capture_default_str();
    cmd.add_option("--batch", o.batch, "Mini-batch size per worker")->check(positive("--batch"))->capture_default_str();
    cmd.add_option("--lr", o.lr, "Learning rate")->check(positive("--lr"))->capture_default_str();
    cmd.add_option("--momentum", o.momentum, "SGD momentum")->check(halfOpen("--momentum", 0, 1))->capture_default_str();
    cmd.add_option("--weight-decay", o.weightDecay, "L2 weight decay")->check(halfOpen("--weight-decay", 0, 1))->capture_default_str();
    cmd.add_option("--schedule", o.schedule, "Learning-rate schedule over --epochs (constant without --epochs)")
        ->check(CLI::IsMember({"constant", "cosine"}))->capture_default_str();
    cmd.add_option("--seed", o.seed, "Seed for initialisation and shuffling")->capture_default_str();
    cmd.add_option("--data", o.data, "Folder with the Fashion-MNIST IDX .gz files")->capture_default_str();
    cmd.add_option("--mode", o.mode, "Sync mode (see docs/sync-modes.md)")
        ->check(CLI::IsMember({"bsp", "asp", "ssp", "grouped", "ksync", "kasync", "elastic", "auto"}))
        ->capture_default_str();
    cmd.add_option("--staleness", o.staleness, "Bound s (clocks) of ssp, grouped --intra-group ssp and elastic slack")
        ->check(CLI::Range(0, 1000))->capture_default_str();
    cmd.add_option("--groups", o.groups, "grouped: number of groups G")->check(CLI::Range(1, 1024))->capture_default_str();
    cmd.add_option("--group-by", o.groupBy, "grouped: how workers are grouped")
        ->check(CLI::IsMember({"round-robin", "speed"}))->capture_default_str();
    cmd.add_option("--intra-group", o.intraGroup, "grouped: synchronisation inside a group")
        ->check(CLI::IsMember({"bsp", "ssp"}))->capture_default_str();
    cmd.add_option("--k", o.k, "ksync: gradients per version (0: N-1, or N below 4 workers); kasync: gradients per update (0: N/2)")
        ->check(CLI::Range(0, 1024))->capture_default_str();
    cmd.add_option("--elastic-barrier", o.elasticBarrier, "elastic: enforced (bsp) or slack (ssp with --staleness)")
        ->check(CLI::IsMember({"enforced", "slack"}))->capture_default_str();
    cmd.add_option("--rebalance-seconds", o.rebalanceSeconds, "elastic: seconds between batch-size rebalancing")
        ->check(CLI::Range(0.1, 3600.0))->capture_default_str();
    cmd.add_option("--decision-seconds", o.decisionSeconds, "auto: seconds between the controller's decisions")
        ->check(CLI::Range(0.1, 3600.0))->capture_default_str();
    cmd.add_option("--lr-modulation", o.lrModulation, "Learning rate for stale gradients")
        ->check(CLI::IsMember({"none", "inverse", "dynsgd"}))->capture_default_str();
    cmd.add_option("--epochs", o.epochs, "Stop after this many passes over the training set (all workers together)")->check(CLI::Range(0.0, 1e6));
    cmd.add_option("--max-seconds", o.maxSeconds, "Stop after this many seconds")->check(CLI::Range(0.0, 1e7));
    cmd.add_option("--target-accuracy", o.targetAccuracy, "Stop once test accuracy reaches this percentage")->check(CLI::Range(0.0, 100.0));
    cmd.add_option("--record", o.record, "Write a run recording to this file");
    cmd.add_option("--eval-interval", o.evalInterval, "Seconds between test-set evaluations")->check(positive("--eval-interval"))->capture_default_str();
    cmd.add_option("--tick-hz", o.tickHz, "Telemetry ticks per second")->check(CLI::Range(0.5, 100.0))->capture_default_str();
    cmd.add_option("--heartbeat-timeout", o.heartbeatTimeout, "Seconds of silence before a worker counts as lost")->check(CLI::Range(0.2, 600.0))->capture_default_str();
    cmd.add_option("--slowdown", o.slowdowns, "Straggler: WORKER:FACTOR[:EXTRA_MS[:P:TRANSIENT_FACTOR]], e.g. 0:3 (repeatable)");
    cmd.add_flag("--paused", o.paused, "Wait for a start command instead of starting when the workers are in");
}

namespace {

Result<std::pair<uint32_t, wire::Slowdown>> parseSlowdown(const std::string& text) {
    unsigned worker = 0;
    double factor = 1, fixed = 0, probability = 0, transient = 1;
    const int fields =
        std::sscanf(text.c_str(), "%u:%lf:%lf:%lf:%lf", &worker, &factor, &fixed, &probability, &transient);
    if (fields < 2 || factor < 1 || factor > 100 || fixed < 0 || fixed > 60000 || probability < 0 || probability > 1 ||
        transient < 1 || transient > 100)
        return invalidArgument("--slowdown '" + text +
                               "': expected WORKER:FACTOR[:EXTRA_MS[:P:TRANSIENT_FACTOR]] with FACTOR and "
                               "TRANSIENT_FACTOR in [1, 100], EXTRA_MS in [0, 60000] and P in [0, 1], e.g. "
                               "--slowdown 0:3 or --slowdown 1:1:0:0.1:5");
    wire::Slowdown s;
    s.set_factor(factor);
    s.set_fixed_delay_ms(fixed);
    s.set_transient_probability(probability);
    s.set_transient_factor(transient);
    return std::make_pair(static_cast<uint32_t>(worker), s);
}

}  // namespace

Result<CoordinatorOptions> toCoordinatorOptions(const RunOptions& o) {
    CoordinatorOptions c;
    c.expectedWorkers = o.workers;
    c.startPaused = o.paused;
    c.spec.set_model(o.model);
    c.spec.set_batch_size(o.batch);
    c.spec.set_seed(o.seed);
    c.spec.set_data_dir(o.data);
    c.spec.set_shard_count(o.workers);
    c.spec.set_learning_rate(o.lr);
    c.spec.set_momentum(o.momentum);
    c.spec.set_weight_decay(o.weightDecay);
    auto mode = parseSyncMode(o.mode);
    if (!mode) return mode.status();
    auto modulation = parseLrModulation(o.lrModulation);
    if (!modulation) return modulation.status();
    c.mode.set_mode(*mode);
    c.mode.set_staleness_bound(o.staleness);
    c.mode.set_lr_modulation(*modulation);
    auto groupBy = parseGroupBy(o.groupBy);
    if (!groupBy) return groupBy.status();
    c.mode.set_group_count(o.groups);
    c.mode.set_group_by(*groupBy);
    c.mode.set_intra_group_ssp(o.intraGroup == "ssp");
    c.mode.set_k(o.k);
    c.mode.set_elastic_slack(o.elasticBarrier == "slack");
    c.mode.set_rebalance_seconds(o.rebalanceSeconds);
    c.mode.set_decision_seconds(o.decisionSeconds);
    if (Status s = validateModeSettings(c.mode); !s) return s;
    c.maxEpochs = o.epochs;
    c.cosineSchedule = o.schedule == "cosine";
    c.maxSeconds = o.maxSeconds;
    c.targetAccuracy = o.targetAccuracy / 100.0;
    c.recordPath = o.record;
    c.evalIntervalSeconds = o.evalInterval;
    c.tickHz = o.tickHz;
    c.heartbeatTimeoutSeconds = o.heartbeatTimeout;
    for (const auto& text : o.slowdowns) {
        auto s = parseSlowdown(text);
        if (!s) return s.status();
        c.slowdowns[s->first] = s->second;
    }
    if (o.epochs <= 0 && o.maxSeconds <= 0 && o.targetAccuracy <= 0)
        c.maxEpochs = 5;  // a run needs an end; --epochs, --max-seconds or --target-accuracy set it
    return c;
}

std::vector<std::string> toServeArguments(const RunOptions& o) {
    std::vector<std::string> a{"--workers", std::to_string(o.workers), "--model", o.model, "--batch",
                               std::to_string(o.batch), "--lr", std::to_string(o.lr), "--momentum",
                               std::to_string(o.momentum), "--weight-decay", std::to_string(o.weightDecay),
                               "--seed", std::to_string(o.seed), "--data", o.data, "--mode", o.mode,
                               "--staleness", std::to_string(o.staleness), "--lr-modulation", o.lrModulation, "--schedule", o.schedule,
                               "--epochs", std::to_string(o.epochs), "--max-seconds", std::to_string(o.maxSeconds),
                               "--target-accuracy", std::to_string(o.targetAccuracy), "--eval-interval",
                               std::to_string(o.evalInterval), "--tick-hz", std::to_string(o.tickHz),
                               "--heartbeat-timeout", std::to_string(o.heartbeatTimeout), "--groups",
                               std::to_string(o.groups), "--group-by", o.groupBy, "--intra-group", o.intraGroup,
                               "--k", std::to_string(o.k), "--elastic-barrier", o.elasticBarrier,
                               "--rebalance-seconds", std::to_string(o.rebalanceSeconds), "--decision-seconds",
                               std::to_string(o.decisionSeconds)};
    if (!o.record.empty()) a.insert(a.end(), {"--record", o.record});
    for (const auto& s : o.slowdowns) a.insert(a.end(), {"--slowdown", s});
    if (o.paused) a.push_back("--paused");
    return a;
}

}  // namespace syncscope::engine
