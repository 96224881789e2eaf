// Run flags: registration, and the run plan they describe.
#include "engine/cli/run_options.h"

#include <cstdio>

#include <fmt/format.h>

#include "engine/cli/cli_validators.h"
#include "engine/model/fashion_mnist.h"
#include "engine/model/model_zoo.h"
#include "engine/net/protocol.h"
#include "engine/plan/mode_catalog.h"
#include "engine/plan/run_plan.h"

namespace syncscope::engine {

namespace {

std::string numberText(double value) { return fmt::format("{}", value); }  // shortest exact

/// The run flags' names (for --plan, which excludes them).
std::vector<CLI::Option*> runFlags(CLI::App& cmd, size_t before) {
    std::vector<CLI::Option*> added;
    const std::vector<CLI::Option*> all = cmd.get_options();
    for (size_t i = before; i < all.size(); ++i) added.push_back(all[i]);
    return added;
}

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

RunOptions::RunOptions() {
    const wire::RunPlan& d = defaultRunPlan();
    model = d.spec().model();
    mode = syncModeName(d.mode().mode());
    schedule = d.stop().cosine_schedule() ? "cosine" : "constant";
    batch = d.spec().batch_size();
    workers = d.layout().workers();
    lr = d.spec().learning_rate();
    momentum = d.spec().momentum();
    weightDecay = d.spec().weight_decay();
    seed = d.spec().seed();
    evalInterval = d.spec().eval_interval_seconds();
    tickHz = d.tick_hz();
    heartbeatTimeout = d.heartbeat_timeout_seconds();
    spareWorkers = d.layout().spare_workers();
    maxGradientNorm = d.max_gradient_norm();
    shards = d.layout().shards();
    shardReplicas = engine::shardReplicas(d.layout());
    checkpointSeconds = d.checkpoints().seconds();
    keepCheckpoints = d.checkpoints().keep_periodic();
    keepChangeCheckpoints = d.checkpoints().keep_before_changes();
}

void addPlacementOptions(CLI::App& cmd, RunOptions& o) {
    cmd.add_option("--aggregators", o.aggregators,
                   "Group aggregators as processes between the workers and the coordinator (0: none); grouped "
                   "mode sends group g's workers to aggregator g mod this, other modes deal workers out by id")
        ->capture_default_str();
    cmd.add_option("--backend", o.workerBackend, "Workers' compute backend")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
    cmd.add_option("--threads-per-worker", o.workerThreads, "CPU threads per worker")
        ->check(CLI::Range(1u, 1024u))->capture_default_str();
    cmd.add_option("--cpu-quota", o.cpuQuotas,
                   "A real straggler: the kernel limits worker WORKER's process to SHARE of a CPU "
                   "(WORKER:SHARE, e.g. 0:0.25; cgroup v1 CPU quota, else cpulimit; repeatable; a --worker-command "
                   "worker's own process too)");
    addWorkerCommandOption(cmd, o);
    cmd.add_option("--evaluator-command", o.evaluatorCommand,
                   "--model external: start the run's evaluator as this shell command (a script running "
                   "syncscope.Evaluator, e.g. \"python3 train.py --evaluate\"); it finds the run in the same "
                   "environment as a --worker-command, and its test accuracy is the run's");
}

void addWorkerCommandOption(CLI::App& cmd, RunOptions& o) {
    cmd.add_option("--worker-command", o.workerCommand,
                   "Start each worker as this shell command (a PyTorch script using python/syncscope, e.g. "
                   "\"python3 train.py --epochs 2\") instead of syncscope-engine work; it finds the coordinator in "
                   "SYNCSCOPE_CONNECT, its keys in SYNCSCOPE_CREDENTIALS and its place in RANK, LOCAL_RANK and "
                   "WORLD_SIZE, as under torchrun (syncscope.Worker() reads them)");
}

void addRunOptions(CLI::App& cmd, RunOptions& o, bool planFlag) {
    if (o.data.empty()) o.data = defaultFashionMnistDir();
    const size_t before = planFlag ? 0 : cmd.get_options().size();  // --plan excludes the placement too
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
                       ": the model's parameter count, its floating-point buffers included (syncscope.parameter_count(model); "
                       "its first worker brings the initial values)")
        ->check(CLI::Range(uint64_t(1), kMaxParameters));
    cmd.add_option("--buffers", o.buffers,
                   std::string("With --model ") + kExternalModel +
                       ": how many of the --parameters are buffers, such as BatchNorm's running statistics "
                       "(syncscope.buffer_count(model)): each update sets them to the batch-weighted mean of its "
                       "workers' values")
        ->check(CLI::Range(uint64_t(0), kMaxParameters));
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
    cmd.add_option("--eval-interval", o.evalInterval, "Seconds between test-set evaluations (a model due while the evaluator is still busy is skipped; the run says when that happens)")->check(positive("--eval-interval"))->capture_default_str();
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
        ->check(CLI::Range(0u, kMaxParameterShards))->capture_default_str();
    cmd.add_option("--shard-replicas", o.shardReplicas,
                   "Copies of each shard's range, on as many shard processes (S x R in all): every copy gets each "
                   "gradient and update, and a lost copy leaves the others serving at once, with no rollback")
        ->check(CLI::Range(1u, kMaxShardReplicas))->capture_default_str();
    addCheckpointOptions(cmd, o);
    if (!planFlag) return;
    CLI::Option* plan = cmd.add_option(
        "--plan", o.planFile,
        "The whole run from a run plan file (what `run` and the console hand their coordinator; protobuf "
        "text, engine/plan/run_plan.h) instead of the flags above");
    for (CLI::Option* flag : runFlags(cmd, before))
        if (flag != plan && flag->get_name() != "--help" && !flag->get_name().empty() && flag->get_name()[0] == '-' &&
            flag->nonpositional())
            plan->excludes(flag);
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

Result<wire::RunPlan> toRunPlan(const RunOptions& o) {
    if (!o.planFile.empty()) return readRunPlan(o.planFile);
    wire::RunPlan p = defaultRunPlan();
    wire::RunSpec& spec = *p.mutable_spec();
    spec.set_model(o.model);
    spec.set_batch_size(o.batch);
    spec.set_seed(o.seed);
    spec.set_data_dir(o.data);
    spec.set_learning_rate(o.lr);
    spec.set_momentum(o.momentum);
    spec.set_weight_decay(o.weightDecay);
    spec.set_eval_interval_seconds(o.evalInterval);
    p.set_external_parameters(o.parameters);
    spec.set_buffer_count(o.buffers);
    auto mode = toModeSettings(o);
    if (!mode) return mode.status();
    *p.mutable_mode() = *mode;
    wire::StopConditions& stop = *p.mutable_stop();
    stop.set_max_epochs(o.epochs);
    stop.set_max_seconds(o.maxSeconds);
    stop.set_target_accuracy(o.targetAccuracy / 100.0);
    stop.set_until_stopped(o.untilStopped);
    stop.set_cosine_schedule(o.schedule == "cosine");
    if (o.epochs <= 0 && o.maxSeconds <= 0 && o.targetAccuracy <= 0 && !o.untilStopped)
        stop.set_max_epochs(5);  // a run needs an end unless asked for none
    wire::RunLayout& layout = *p.mutable_layout();
    layout.set_workers(o.workers);
    layout.set_spare_workers(o.spareWorkers);
    layout.set_shards(o.shards);
    layout.set_shard_replicas(o.shardReplicas);
    layout.set_aggregators(o.aggregators);
    layout.set_worker_backend(o.workerBackend);
    layout.set_worker_threads(o.workerThreads);
    for (const std::string& text : o.cpuQuotas) {
        unsigned worker = 0;
        double share = 0;
        char extra = 0;
        if (std::sscanf(text.c_str(), "%u:%lf%c", &worker, &share, &extra) != 2 || !(share >= 0.01 && share <= 1.0))
            return invalidArgument("--cpu-quota '" + text +
                                   "': expected WORKER:SHARE with SHARE in 0.01..1, e.g. --cpu-quota 0:0.25 (a quarter "
                                   "of a CPU for worker 0)");
        (*layout.mutable_cpu_quotas())[worker] = share;
    }
    *layout.mutable_placement() = o.placement;
    layout.set_worker_command(o.workerCommand);
    layout.set_evaluator_command(o.evaluatorCommand);
    if (!o.resumeDir.empty() && !o.checkpointDir.empty() && o.resumeDir != o.checkpointDir)
        return invalidArgument("--resume '" + o.resumeDir + "' and --checkpoint-dir '" + o.checkpointDir +
                               "' differ: a resumed run goes on checkpointing into the folder it resumes from; "
                               "give one of them");
    wire::CheckpointPlan& checkpoints = *p.mutable_checkpoints();
    checkpoints.set_folder(o.resumeDir.empty() ? o.checkpointDir : o.resumeDir);
    checkpoints.set_resume(!o.resumeDir.empty());
    checkpoints.set_seconds(o.checkpointSeconds);
    checkpoints.set_keep_periodic(static_cast<uint32_t>(o.keepCheckpoints));
    checkpoints.set_keep_before_changes(static_cast<uint32_t>(o.keepChangeCheckpoints));
    checkpoints.set_pause_on_storage_failure(o.onStorageFailure == "pause");
    p.set_record_path(o.record);
    p.set_tick_hz(o.tickHz);
    p.set_heartbeat_timeout_seconds(o.heartbeatTimeout);
    p.set_max_gradient_norm(o.maxGradientNorm);
    p.set_start_paused(o.paused);
    for (const auto& text : o.slowdowns) {
        auto s = parseSlowdown(text);
        if (!s) return s.status();
        (*p.mutable_slowdowns())[s->first] = s->second;
    }
    if (Status s = validateRunPlan(p); !s) return s;
    return p;
}

CoordinatorOptions coordinatorOptionsFor(const wire::RunPlan& p) {
    CoordinatorOptions c;
    c.plan = p;
    wire::RunSpec& spec = *c.plan.mutable_spec();
    if (spec.data_dir().empty()) spec.set_data_dir(defaultFashionMnistDir());
    spec.set_shard_count(p.layout().workers());
    return c;
}

}  // namespace syncscope::engine
