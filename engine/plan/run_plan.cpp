// Run plans (see run_plan.h): defaults, validation, the plan file.
#include "engine/plan/run_plan.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "engine/net/protocol.h"
#include "engine/plan/mode_catalog.h"

namespace syncscope::engine {
namespace {

wire::RunPlan makeDefaultPlan() {
    wire::RunPlan p;
    wire::RunSpec& spec = *p.mutable_spec();
    spec.set_model("mlp");
    spec.set_batch_size(64);
    spec.set_seed(1);
    spec.set_learning_rate(0.05f);
    spec.set_momentum(0.9f);
    spec.set_weight_decay(5e-4f);
    spec.set_eval_interval_seconds(1.0);
    *p.mutable_mode() = defaultModeSettings(wire::BSP);
    p.mutable_stop()->set_cosine_schedule(true);
    p.mutable_layout()->set_workers(1);
    p.mutable_layout()->set_spare_workers(2);
    wire::CheckpointPlan& checkpoints = *p.mutable_checkpoints();
    checkpoints.set_seconds(30);
    checkpoints.set_keep_periodic(3);
    checkpoints.set_keep_before_changes(20);
    p.set_tick_hz(10);
    p.set_heartbeat_timeout_seconds(2);
    return p;
}

Status outside(const char* flag, double value, const char* range) {
    return invalidArgument(fmt::format("{} {:g} is outside {}", flag, value, range));
}

Status validateSpec(const wire::RunPlan& p) {
    const wire::RunSpec& s = p.spec();
    if (s.model().empty()) return invalidArgument("--model is empty: name a model (mlp, cnn) or external");
    const bool external = s.model() == kExternalModel;
    if (external && p.external_parameters() == 0)
        return invalidArgument(std::string("--model ") + kExternalModel +
                               " needs --parameters N, the parameter count of the model the workers bring");
    if (!external && p.external_parameters() != 0)
        return invalidArgument(fmt::format("--parameters {} is for --model {}; the {} model's size is the engine's "
                                           "own: leave --parameters out",
                                           p.external_parameters(), kExternalModel, s.model()));
    if (p.external_parameters() > kMaxParameters)
        return outside("--parameters", double(p.external_parameters()), "1..2^31");
    if (!external && s.buffer_count() != 0)
        return invalidArgument(fmt::format("--buffers {} is for --model {}; the {} model has none: leave --buffers out",
                                           s.buffer_count(), kExternalModel, s.model()));
    if (!external && !p.layout().evaluator_command().empty())
        return invalidArgument(fmt::format("--evaluator-command is for --model {}: the coordinator tests the {} model "
                                           "itself; leave --evaluator-command out",
                                           kExternalModel, s.model()));
    if (external && s.buffer_count() >= p.external_parameters())
        return invalidArgument(fmt::format("--buffers {} leaves none of the {} --parameters to train: the buffers are "
                                           "counted among the parameters (syncscope.parameter_count and buffer_count)",
                                           s.buffer_count(), p.external_parameters()));
    if (s.batch_size() == 0) return invalidArgument("--batch 0: a mini-batch needs at least one example");
    if (!(s.learning_rate() > 0 && s.learning_rate() <= runLimits().max_learning_rate()))
        return outside("--lr", s.learning_rate(), fmt::format("(0, {:g}]", runLimits().max_learning_rate()).c_str());
    if (!(s.momentum() >= 0 && s.momentum() < 1)) return outside("--momentum", s.momentum(), "[0, 1)");
    if (!(s.weight_decay() >= 0 && s.weight_decay() < 1)) return outside("--weight-decay", s.weight_decay(), "[0, 1)");
    if (!(s.eval_interval_seconds() > 0)) return outside("--eval-interval", s.eval_interval_seconds(), "(0, inf)");
    return Status::ok();
}

Status validateStop(const wire::StopConditions& s) {
    if (!(s.max_epochs() >= 0 && s.max_epochs() <= 1e6)) return outside("--epochs", s.max_epochs(), "[0, 1e6]");
    if (!(s.max_seconds() >= 0 && s.max_seconds() <= 1e7)) return outside("--max-seconds", s.max_seconds(), "[0, 1e7]");
    if (!(s.target_accuracy() >= 0 && s.target_accuracy() <= 1))
        return outside("--target-accuracy", 100 * s.target_accuracy(), "[0, 100]");
    const bool condition = s.max_epochs() > 0 || s.max_seconds() > 0 || s.target_accuracy() > 0;
    if (s.until_stopped() && condition)
        return invalidArgument("--until-stopped and a stop condition (--epochs, --max-seconds, --target-accuracy) "
                               "contradict each other: give one or the other");
    if (!s.until_stopped() && !condition)
        return invalidArgument("the run has no end: give --epochs, --max-seconds or --target-accuracy, or "
                               "--until-stopped to train until a stop command");
    return Status::ok();
}

// Workers on other hosts: the counts add up to the run's, and the relays (which run where the plan
// is launched) have no hosts of their own yet.
Status validatePlacement(const wire::RunLayout& l) {
    const wire::Placement& place = l.placement();
    if (place.kind() != wire::Placement::PLACE_HOSTS) {
        if (place.hosts_size() > 0) return invalidArgument("hosts are given for a run that does not place workers on hosts");
        return Status::ok();
    }
    if (place.hosts_size() == 0) return invalidArgument("no hosts to start the workers on: the hosts file names none");
    uint64_t workers = 0;
    for (const wire::HostWorkers& h : place.hosts()) {
        if (h.host().empty()) return invalidArgument("a host without a name: give each line HOST [WORKERS]");
        if (h.workers() == 0) return invalidArgument("host " + h.host() + " runs 0 workers: give it 1 or more, or leave it out");
        workers += h.workers();
    }
    if (workers != l.workers())
        return invalidArgument(fmt::format("--workers {} disagrees with the {} workers of the hosts; leave --workers out, "
                                           "or change the counts in the hosts file", l.workers(), workers));
    if (l.aggregators() || l.shards())
        return invalidArgument(fmt::format(
            "--{} with --hosts: relays are placed in a Slurm step's tasks or on this machine (run); with --hosts, "
            "start `syncscope-engine {} --connect tcp://THIS_HOST:PORT --bind 0.0.0.0` on the hosts that should run "
            "them (docs/cluster.md)", l.shards() ? "shards" : "aggregators", l.shards() ? "shard" : "aggregate"));
    if (!l.cpu_quotas().empty())
        return invalidArgument("--cpu-quota throttles workers of this machine; with --hosts the workers run elsewhere");
    if (!l.evaluator_command().empty())
        return invalidArgument("--evaluator-command starts the evaluator on this machine, and --hosts places the run "
                               "elsewhere: evaluate in one worker's script instead (if syncscope.rank() == 0: a thread "
                               "running syncscope.Evaluator, python/syncscope/launched.py)");
    return Status::ok();
}

Status validateLayout(const wire::RunPlan& p) {
    const wire::RunLayout& l = p.layout();
    const uint32_t maxWorkers = runLimits().max_workers();
    if (l.workers() < 1 || l.workers() > maxWorkers)
        return outside("--workers", l.workers(), fmt::format("1..{}", maxWorkers).c_str());
    if (l.spare_workers() > maxWorkers)
        return outside("--spare-workers", l.spare_workers(), fmt::format("0..{}", maxWorkers).c_str());
    if (l.shards() > kMaxParameterShards)
        return outside("--shards", l.shards(), fmt::format("0..{}", kMaxParameterShards).c_str());
    if (l.shard_replicas() > kMaxShardReplicas)
        return outside("--shard-replicas", l.shard_replicas(), fmt::format("1..{}", kMaxShardReplicas).c_str());
    if (l.shard_replicas() > 1 && l.shards() == 0)
        return invalidArgument(fmt::format("--shard-replicas {} copies parameter shards, and this run has none: add "
                                           "--shards S", l.shard_replicas()));
    if (l.aggregators() > l.workers())
        return invalidArgument(fmt::format("--aggregators {} is more than the {} workers they would serve",
                                           l.aggregators(), l.workers()));
    const std::string& backend = l.worker_backend();
    if (!backend.empty() && backend != "auto" && backend != "cpu" && backend != "cuda")
        return invalidArgument("--backend '" + backend + "': expected auto, cpu or cuda");
    if (l.worker_threads() > 1024) return outside("--threads-per-worker", l.worker_threads(), "1..1024");
    for (const auto& [worker, share] : l.cpu_quotas())
        if (!(share >= 0.01 && share <= 1.0))
            return invalidArgument(fmt::format("--cpu-quota {}:{:g}: the share of a CPU must be in 0.01..1", worker, share));
    return validatePlacement(l);
}

Status validateCheckpoints(const wire::CheckpointPlan& c) {
    if (c.resume() && c.folder().empty())
        return invalidArgument("--resume needs the folder to resume from: --resume DIR (the run's --checkpoint-dir)");
    if (!(c.seconds() >= 0.1 && c.seconds() <= 1e6)) return outside("--checkpoint-seconds", c.seconds(), "[0.1, 1e6]");
    if (c.keep_periodic() < 1 || c.keep_periodic() > 1000)
        return outside("--keep-checkpoints", c.keep_periodic(), "1..1000");
    if (c.keep_before_changes() < 1 || c.keep_before_changes() > 10000)
        return outside("--keep-change-checkpoints", c.keep_before_changes(), "1..10000");
    return Status::ok();
}

// Collects the text parser's complaints, with their line, instead of printing them.
class PlanErrors : public google::protobuf::io::ErrorCollector {
public:
    void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override {
        if (m_text.empty()) m_text = fmt::format("line {}, column {}: {}", line + 1, column + 1, message);
    }
    const std::string& text() const { return m_text; }

private:
    std::string m_text;
};

}  // namespace

const wire::RunPlan& defaultRunPlan() {
    static const wire::RunPlan plan = makeDefaultPlan();
    return plan;
}

Status validateRunPlan(const wire::RunPlan& plan) {
    if (Status s = validateSpec(plan); !s) return s;
    if (Status s = validateModeSettings(plan.mode()); !s) return s;
    if (Status s = validateStop(plan.stop()); !s) return s;
    if (Status s = validateLayout(plan); !s) return s;
    if (Status s = validateCheckpoints(plan.checkpoints()); !s) return s;
    if (!(plan.tick_hz() >= 0.5 && plan.tick_hz() <= 100)) return outside("--tick-hz", plan.tick_hz(), "[0.5, 100]");
    if (!(plan.heartbeat_timeout_seconds() >= 0.2 && plan.heartbeat_timeout_seconds() <= 600))
        return outside("--heartbeat-timeout", plan.heartbeat_timeout_seconds(), "[0.2, 600]");
    if (!(plan.max_gradient_norm() >= 0 && plan.max_gradient_norm() <= 1e30))
        return outside("--max-gradient-norm", plan.max_gradient_norm(), "[0, 1e30]");
    for (const auto& [worker, slowdown] : plan.slowdowns())
        if (Status s = validateSlowdown(slowdown); !s)
            return invalidArgument(fmt::format("--slowdown for worker {}: {}", worker, s.message()));
    return Status::ok();
}

Status writeRunPlan(const std::string& path, const wire::RunPlan& plan) {
    std::string text;
    if (!google::protobuf::TextFormat::PrintToString(plan, &text))
        return invalidArgument("the run plan could not be written as text");
    text = "# A SyncScope run plan (wire.RunPlan, engine/plan/run_plan.h), read by `syncscope-engine serve --plan`\n" +
           text;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return unavailable(fmt::format("cannot write the run plan '{}': {}", path, std::strerror(errno)));
    size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int error = errno;
            ::close(fd);
            return unavailable(fmt::format("cannot write the run plan '{}': {}", path, std::strerror(error)));
        }
        written += size_t(n);
    }
    if (::close(fd) != 0)
        return unavailable(fmt::format("cannot write the run plan '{}': {}", path, std::strerror(errno)));
    return Status::ok();
}

Result<wire::RunPlan> readRunPlan(const std::string& path) {
    std::ifstream in(path);
    if (!in) return notFound(fmt::format("cannot read the run plan '{}': {}", path, std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    wire::RunPlan plan;
    google::protobuf::TextFormat::Parser parser;
    PlanErrors errors;
    parser.RecordErrorsTo(&errors);
    if (!parser.ParseFromString(text.str(), &plan))
        return invalidArgument(fmt::format("the run plan '{}' is not one: {}; write it with `syncscope-engine run` or "
                                           "the console, or fix that line",
                                           path, errors.text().empty() ? "it does not parse" : errors.text()));
    if (Status s = validateRunPlan(plan); !s)
        return invalidArgument(fmt::format("the run plan '{}': {}", path, s.message()));
    return plan;
}

}  // namespace syncscope::engine
