// Run flags: registration, validation and hand-over to a child coordinator.
#include "engine/cli/run_options.h"

#include <cstdio>

#include <fmt/format.h>

#include "engine/cli/cli_validators.h"
#include "engine/model/fashion_mnist.h"
#include "engine/model/model_zoo.h"
#include "engine/net/protocol.h"
#include "engine/ps/mode_catalog.h"

namespace syncscope::engine {

namespace {

std::string numberText(double value) { return fmt::format("{}", value); }  // shortest exact

void addCheckpointOptions(CLI::App& cmd, RunOptions& o) {
    cmd.add_option("--checkpoint-dir", o.checkpointDir,
                   "Folder for checkpoints (made 0700): periodic ones and one before every control change, "
                   "so a crash can be resumed and a change rolled back");
    cmd.add_option("--checkpoint-seconds", o.checkpointSeconds, "Seconds between periodic checkpoints")
        ->check(CLI::Range(0.1, 1e6))->capture_default_str();
    cmd.add_option("--keep-checkpoints", o.keepCheckpoints, "Periodic checkpoints kept (the newest)")
        ->check(CLI::Range(size_t{1}, size_t{1000}))->capture_default_str();
    cmd.add_option("--keep-change-checkpoints", o.keepChangeCheckpoints,
                   "Checkpoints taken before control changes kept (how far back a rollback reaches)")
        ->check(CLI::Range(size_t{1}, size_t{10000}))->capture_default_str();
    cmd.add_option("--resume", o.resumeDir,
                   "Restart a crashed run from the newest valid checkpoint in this folder (the run's "
                   "--checkpoint-dir), continuing its --record file");
    cmd.add_option("--on-storage-failure", o.onStorageFailure,
                   "When the recording or checkpoints cannot be written (a full disk): go on, or pause "
                   "until writing works again")
        ->check(CLI::IsMember({"continue", "pause"}))->capture_default_str();
}

// --mode and one flag per catalogue parameter, with its default, range or choices, and help.
void addModeOptions(CLI::App& cmd, RunOptions& o) {
    const wire::Catalog& catalog = modeCatalog();
    std::vector<std::string> modes;
    std::string modeHelp = "Sync mode (see docs/sync-modes.md):";
    for (const auto& m : catalog.modes()) {
        modes.push_back(m.name());
        modeHelp += " " + m.name();
    }
    cmd.add_option("--mode", o.mode, modeHelp)->check(CLI::IsMember(modes))->capture_default_str();
    for (const auto& spec : catalog.parameters()) {
        std::string users;
        for (const auto& m : catalog.modes())
            for (const auto& u : m.parameters())
                if (u.field() == spec.field() && users.find(m.name()) == std::string::npos) {
                    if (!users.empty()) users += ", ";
                    users += m.name();
                    if (!u.zero_means().empty()) users += " (0: " + u.zero_means() + ")";
                }
        std::string& value = o.modeParameters[spec.field()];
        CLI::Option* option = cmd.add_option("--" + spec.flag(), value, users + ": " + spec.help());
        if (spec.type() == wire::ParameterSpec::CHOICE) {
            std::vector<std::string> names;
            for (const auto& c : spec.choices())
                if (!c.needs_assignment()) names.push_back(c.name());  // the command line cannot assign
            value = names.at(static_cast<size_t>(spec.default_value()));
            option->check(CLI::IsMember(names));
        } else {
            value = numberText(spec.default_value());
            option->check(CLI::Range(spec.minimum(), spec.maximum()));
        }
        option->capture_default_str();
    }
}

}  // namespace

void addRunOptions(CLI::App& cmd, RunOptions& o) {
    if (o.data.empty()) o.data = defaultFashionMnistDir();
    cmd.add_option("--workers", o.workers, "Workers to wait for before training starts")
        ->check(CLI::Range(1u, runLimits().max_workers()))->capture_default_str();
    std::vector<std::string> models = modelNames();
    models.push_back(kExternalModel);
    cmd.add_option("--model", o.model,
                   std::string("Model to train; ") + kExternalModel +
                       ": one the workers bring (Python workers, see python/), with --parameters")
        ->check(CLI::IsMember(models))->capture_default_str();
    cmd.add_option("--parameters", o.parameters,
                   std::string("With --model ") + kExternalModel +
                       ": the model's parameter count (its first worker brings the initial values)")
        ->check(CLI::Range(uint64_t(1), kMaxParameters));
    cmd.add_option("--batch", o.batch, "Mini-batch size per worker")->check(positive("--batch"))->capture_default_str();
    cmd.add_option("--lr", o.lr, "Learning rate")->check(positive("--lr"))->capture_default_str();
    cmd.add_option("--momentum", o.momentum, "SGD momentum")->check(halfOpen("--momentum", 0, 1))->capture_default_str();
    cmd.add_option("--weight-decay", o.weightDecay, "L2 weight decay")->check(halfOpen("--weight-decay", 0, 1))->capture_default_str();
    cmd.add_option("--schedule", o.schedule, "Learning-rate schedule over --epochs (constant without --epochs)")
        ->check(CLI::IsMember({"constant", "cosine"}))->capture_default_str();
    cmd.add_option("--seed", o.seed, "Seed for initialisation and shuffling")->capture_default_str();
    cmd.add_option("--data", o.data, "Folder with the Fashion-MNIST IDX .gz files")->capture_default_str();
    addModeOptions(cmd, o);
    cmd.add_option("--epochs", o.epochs, "Stop after this many passes over the training set (all workers together)")->check(CLI::Range(0.0, 1e6));
    cmd.add_option("--max-seconds", o.maxSeconds, "Stop after this many seconds")->check(CLI::Range(0.0, 1e7));
    cmd.add_option("--target-accuracy", o.targetAccuracy, "Stop once test accuracy reaches this percentage")->check(CLI::Range(0.0, 100.0));
    cmd.add_flag("--until-stopped", o.untilStopped,
                 "No stop condition: train until a stop command (the console's Stop, Ctrl-C); without it and "
                 "without --epochs, --max-seconds and --target-accuracy a run stops after 5 epochs");
    cmd.add_option("--record", o.record, "Write a run recording to this file");
    cmd.add_option("--eval-interval", o.evalInterval, "Seconds between test-set evaluations")->check(positive("--eval-interval"))->capture_default_str();
    cmd.add_option("--tick-hz", o.tickHz, "Telemetry ticks per second")->check(CLI::Range(0.5, 100.0))->capture_default_str();
    cmd.add_option("--heartbeat-timeout", o.heartbeatTimeout, "Seconds of silence before a worker counts as lost")->check(CLI::Range(0.2, 600.0))->capture_default_str();
    cmd.add_option("--slowdown", o.slowdowns, "Straggler: WORKER:FACTOR[:EXTRA_MS[:P:TRANSIENT_FACTOR]], e.g. 0:3 (repeatable)");
    cmd.add_flag("--paused", o.paused, "Wait for a start command instead of starting when the workers are in");
    cmd.add_option("--spare-workers", o.spareWorkers, "Workers admitted beyond --workers at once (replacements)")
        ->check(CLI::Range(0u, runLimits().max_workers()))->capture_default_str();
    cmd.add_option("--max-gradient-norm", o.maxGradientNorm,
                   "Drop a gradient whose L2 norm exceeds this, as a recorded drop (0: no limit)")
        ->check(CLI::Range(0.0, 1e30))->capture_default_str();
    cmd.add_option("--shards", o.shards,
                   "Keep the model on this many parameter shard processes, split by contiguous range as in "
                   "ps-lite, so its bytes do not all pass through the coordinator (0: in the coordinator); serve "
                   "waits for them (`syncscope-engine shard --connect ...`), run starts them")
        ->check(CLI::Range(0u, ShardLinks::kMaxShards))->capture_default_str();
    addCheckpointOptions(cmd, o);
}

namespace {

Result<std::pair<uint32_t, wire::Slowdown>> parseSlowdown(const std::string& text) {
    unsigned worker = 0;
    double factor = 1, fixed = 0, probability = 0, transient = 1;
    const int fields =
        std::sscanf(text.c_str(), "%u:%lf:%lf:%lf:%lf", &worker, &factor, &fixed, &probability, &transient);
    wire::Slowdown s;
    s.set_factor(factor);
    s.set_fixed_delay_ms(fixed);
    s.set_transient_probability(probability);
    s.set_transient_factor(transient);
    const Status valid = fields < 2 ? invalidArgument("it has no FACTOR") : validateSlowdown(s);
    if (!valid)
        return invalidArgument("--slowdown '" + text + "': " + valid.message() +
                               "; expected WORKER:FACTOR[:EXTRA_MS[:P:TRANSIENT_FACTOR]], e.g. --slowdown 0:3 or "
                               "--slowdown 1:1:0:0.1:5");
    return std::make_pair(static_cast<uint32_t>(worker), s);
}

}  // namespace

Result<wire::ModeSettings> toModeSettings(const RunOptions& o) {
    auto mode = parseSyncMode(o.mode);
    if (!mode) return mode.status();
    wire::ModeSettings settings = defaultModeSettings(*mode);
    for (const auto& spec : modeCatalog().parameters()) {
        auto given = o.modeParameters.find(spec.field());
        if (given == o.modeParameters.end() || given->second.empty()) continue;
        Status s;
        if (spec.type() == wire::ParameterSpec::CHOICE) {
            s = setParameterChoice(settings, spec, given->second);
        } else {
            double value = 0;
            s = CLI::detail::lexical_cast(given->second, value)
                    ? setParameter(settings, spec, value)
                    : invalidArgument("--" + spec.flag() + " '" + given->second + "' is not a number");
        }
        if (!s) return invalidArgument("--" + spec.flag() + ": " + s.message());
    }
    if (Status s = validateModeSettings(settings); !s) return s;
    return settings;
}

Result<CoordinatorOptions> toCoordinatorOptions(const RunOptions& o) {
    CoordinatorOptions c;
    const bool external = o.model == kExternalModel;
    if (external && o.parameters == 0)
        return invalidArgument(std::string("--model ") + kExternalModel +
                               " needs --parameters N, the parameter count of the model the workers bring");
    if (!external && o.parameters != 0)
        return invalidArgument("--parameters " + std::to_string(o.parameters) + " is for --model " + kExternalModel +
                               "; the " + o.model + " model's size is the engine's own: leave --parameters out");
    c.externalParameters = o.parameters;
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
    auto mode = toModeSettings(o);
    if (!mode) return mode.status();
    c.mode = *mode;
    c.maxEpochs = o.epochs;
    c.cosineSchedule = o.schedule == "cosine";
    c.maxSeconds = o.maxSeconds;
    c.targetAccuracy = o.targetAccuracy / 100.0;
    c.recordPath = o.record;
    c.evalIntervalSeconds = o.evalInterval;
    c.tickHz = o.tickHz;
    c.heartbeatTimeoutSeconds = o.heartbeatTimeout;
    c.spareWorkers = o.spareWorkers;
    c.maxGradientNorm = o.maxGradientNorm;
    c.parameterShards = o.shards;
    if (!o.resumeDir.empty() && !o.checkpointDir.empty() && o.resumeDir != o.checkpointDir)
        return invalidArgument("--resume '" + o.resumeDir + "' and --checkpoint-dir '" + o.checkpointDir +
                               "' differ: a resumed run goes on checkpointing into the folder it resumes from; "
                               "give one of them");
    c.checkpointDir = o.resumeDir.empty() ? o.checkpointDir : o.resumeDir;
    c.resume = !o.resumeDir.empty();
    c.checkpointSeconds = o.checkpointSeconds;
    c.keepCheckpoints = o.keepCheckpoints;
    c.keepChangeCheckpoints = o.keepChangeCheckpoints;
    c.pauseOnStorageFailure = o.onStorageFailure == "pause";
    for (const auto& text : o.slowdowns) {
        auto s = parseSlowdown(text);
        if (!s) return s.status();
        c.slowdowns[s->first] = s->second;
    }
    if (o.untilStopped && (o.epochs > 0 || o.maxSeconds > 0 || o.targetAccuracy > 0))
        return invalidArgument("--until-stopped and a stop condition (--epochs, --max-seconds, --target-accuracy) "
                               "contradict each other: give one or the other");
    if (o.epochs <= 0 && o.maxSeconds <= 0 && o.targetAccuracy <= 0 && !o.untilStopped)
        c.maxEpochs = 5;  // a run needs an end unless asked for none: --epochs, --max-seconds, --target-accuracy or --until-stopped
    return c;
}

std::vector<std::string> toServeArguments(const RunOptions& o) {
    std::vector<std::string> a{"--workers", std::to_string(o.workers), "--model", o.model, "--batch",
                               std::to_string(o.batch), "--lr", numberText(o.lr), "--momentum",
                               numberText(o.momentum), "--weight-decay", numberText(o.weightDecay),
                               "--seed", std::to_string(o.seed), "--data", o.data, "--mode", o.mode,
                               "--schedule", o.schedule,
                               "--epochs", numberText(o.epochs), "--max-seconds", numberText(o.maxSeconds),
                               "--target-accuracy", numberText(o.targetAccuracy), "--eval-interval",
                               numberText(o.evalInterval), "--tick-hz", numberText(o.tickHz),
                               "--heartbeat-timeout", numberText(o.heartbeatTimeout)};
    for (const auto& spec : modeCatalog().parameters())
        if (auto it = o.modeParameters.find(spec.field()); it != o.modeParameters.end() && !it->second.empty())
            a.insert(a.end(), {"--" + spec.flag(), it->second});
    if (o.parameters != 0) a.insert(a.end(), {"--parameters", std::to_string(o.parameters)});
    if (!o.record.empty()) a.insert(a.end(), {"--record", o.record});
    for (const auto& s : o.slowdowns) a.insert(a.end(), {"--slowdown", s});
    if (o.paused) a.push_back("--paused");
    if (o.untilStopped) a.push_back("--until-stopped");
    if (!o.checkpointDir.empty()) a.insert(a.end(), {"--checkpoint-dir", o.checkpointDir});
    if (!o.resumeDir.empty()) a.insert(a.end(), {"--resume", o.resumeDir});
    a.insert(a.end(), {"--checkpoint-seconds", numberText(o.checkpointSeconds), "--keep-checkpoints",
                       std::to_string(o.keepCheckpoints), "--keep-change-checkpoints",
                       std::to_string(o.keepChangeCheckpoints), "--on-storage-failure", o.onStorageFailure});
    a.insert(a.end(), {"--spare-workers", std::to_string(o.spareWorkers), "--max-gradient-norm", numberText(o.maxGradientNorm)});
    if (o.shards) a.insert(a.end(), {"--shards", std::to_string(o.shards)});
    return a;
}

}  // namespace syncscope::engine
