// The mode catalogue (see mode_catalog.h): the tables, and reading and writing parameters by
// field name through protobuf reflection.
#include "engine/plan/mode_catalog.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

// Labels and help are English; the console translates them. Qt's lupdate finds them by this
// marker's name (it reads text, it links nothing), so the engine stays free of Qt.
#define QT_TRANSLATE_NOOP(context, text) text

namespace syncscope::engine {
namespace {

using google::protobuf::FieldDescriptor;
using Spec = wire::ParameterSpec;

struct ChoiceRow {
    const char* name;
    int value;
    const char* label;
    bool needsAssignment = false;
};

Spec parameter(const char* field, const char* flag, const char* label, const char* help, Spec::Type type,
               double fallback, double minimum, double maximum, std::initializer_list<ChoiceRow> choices = {}) {
    Spec p;
    p.set_field(field);
    p.set_flag(flag);
    p.set_label(label);
    p.set_help(help);
    p.set_type(type);
    p.set_default_value(fallback);
    p.set_minimum(minimum);
    p.set_maximum(maximum);
    for (const ChoiceRow& c : choices) {
        wire::ParameterChoice* choice = p.add_choices();
        choice->set_name(c.name);
        choice->set_value(c.value);
        choice->set_label(c.label);
        choice->set_needs_assignment(c.needsAssignment);
    }
    return p;
}

wire::ParameterUse use(const char* field, const char* whenField = "", int whenValue = 0, const char* zeroMeans = "") {
    wire::ParameterUse u;
    u.set_field(field);
    u.set_when_field(whenField);
    u.set_when_value(whenValue);
    u.set_zero_means(zeroMeans);
    return u;
}

void addParameters(wire::Catalog& c) {
    *c.add_parameters() = parameter("staleness_bound", "staleness", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Staleness bound s"),
                                    QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Clocks a worker may run ahead of the slowest (0 is BSP)"), Spec::UINT, 3, 0,
                                    1000);
    *c.add_parameters() = parameter("lr_modulation", "lr-modulation", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Learning rate for stale gradients"),
                                    QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "none; inverse: lr/tau (Zhang et al.); dynsgd: lr/(tau+1)"), Spec::CHOICE, 0,
                                    0, 2,
                                    {{"none", wire::LR_NONE, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "none")},
                                     {"inverse", wire::LR_INVERSE, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "inverse (lr/tau)")},
                                     {"dynsgd", wire::LR_DYNSGD, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "dynsgd (lr/(tau+1))")}});
    *c.add_parameters() = parameter("group_count", "groups", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Groups G"), QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Number of worker groups"),
                                    Spec::UINT, 2, 1, 1024);
    *c.add_parameters() = parameter("group_by", "group-by", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Group by"), QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "How workers are put into groups"),
                                    Spec::CHOICE, 0, 0, 2,
                                    {{"round-robin", wire::GROUP_ROUND_ROBIN, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "round robin")},
                                     {"speed", wire::GROUP_BY_SPEED, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "speed")},
                                     {"explicit", wire::GROUP_EXPLICIT, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "explicit assignment"), true}});
    *c.add_parameters() = parameter("intra_group_ssp", "intra-group", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Inside a group"),
                                    QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Synchronisation inside a group"), Spec::CHOICE, 0, 0, 1,
                                    {{"bsp", 0, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "BSP")}, {"ssp", 1, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "SSP (bound s)")}});
    *c.add_parameters() = parameter("k", "k", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "K"), QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "ksync: gradients per version; kasync: gradients per update"),
                                    Spec::UINT, 0, 0, 1024);
    *c.add_parameters() = parameter("elastic_slack", "elastic-barrier", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Barrier"),
                                    QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "enforced: BSP; slack: SSP with bound s"), Spec::CHOICE, 0, 0, 1,
                                    {{"enforced", 0, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "enforced (BSP)")}, {"slack", 1, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "slack (SSP)")}});
    *c.add_parameters() = parameter("elastic_wait_for_late", "late-work", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "A late worker's batch"),
                                    QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "hand-off: the workers already waiting compute it (Falcon); wait: the round waits for the late worker"),
                                    Spec::CHOICE, 0, 0, 1,
                                    {{"hand-off", 0, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "handed to waiting workers")}, {"wait", 1, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "waited for")}});
    *c.add_parameters() = parameter("rebalance_seconds", "rebalance-seconds", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Rebalance every"),
                                    QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Seconds between batch-size rebalancing"), Spec::SECONDS, 2, 0.1, 3600);
    *c.add_parameters() = parameter("decision_seconds", "decision-seconds", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Decide every"),
                                    QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Seconds between the controller's decisions"), Spec::SECONDS, 5, 0.1, 3600);
    *c.add_parameters() = parameter("advise_only", "auto-role", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Controller"),
                                    QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "decide: switch by itself; advise: propose, a person takes or dismisses"),
                                    Spec::CHOICE, 0, 0, 1, {{"decide", 0, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "decides")}, {"advise", 1, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "advises")}});
}

void addMode(wire::Catalog& c, wire::SyncMode mode, const char* name, const char* label, const char* help,
             std::initializer_list<wire::ParameterUse> uses) {
    wire::ModeSpec* m = c.add_modes();
    m->set_mode(mode);
    m->set_name(name);
    m->set_label(label);
    m->set_help(help);
    for (const auto& u : uses) *m->add_parameters() = u;
}

void addModes(wire::Catalog& c) {
    addMode(c, wire::BSP, "bsp", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "BSP (bulk synchronous)"),
            QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Wait for every worker, average their gradients, apply once. No staleness, but the slowest "
                  "worker sets the pace."),
            {});
    addMode(c, wire::ASP, "asp", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "ASP (asynchronous)"),
            QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Apply each gradient as it arrives. Nobody waits, but gradients can be stale."), {use("lr_modulation")});
    addMode(c, wire::SSP, "ssp", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "SSP (stale synchronous)"),
            QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Apply on arrival; a worker more than s clocks ahead of the slowest waits. s = 0 is BSP."),
            {use("staleness_bound"), use("lr_modulation")});
    addMode(c, wire::GROUPED, "grouped", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Grouped (hybrid)"),
            QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "G groups: BSP (or SSP) inside a group, groups update the model asynchronously. G = 1 is BSP, "
                  "G = N is ASP."),
            {use("group_count"), use("group_by"), use("intra_group_ssp"), use("staleness_bound", "intra_group_ssp", 1),
             use("lr_modulation")});
    addMode(c, wire::KSYNC, "ksync", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "K-sync (backup workers)"),
            QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Average the first K gradients of each version; late ones are dropped and counted. K = N is BSP."),
            {use("k", "", 0, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "N-1 (N below 4 workers)"))});
    addMode(c, wire::KASYNC, "kasync", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "K-async (n-softsync)"),
            QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Update after every K gradients from anyone, stale ones included. K = 1 is ASP."),
            {use("k", "", 0, QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "N/2")), use("lr_modulation")});
    addMode(c, wire::ELASTIC, "elastic", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Elastic batch"),
            QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Each worker's batch is sized in proportion to its speed so all arrive together; enforced (BSP) "
                  "or slack (SSP) barrier."),
            {use("elastic_slack"), use("staleness_bound", "elastic_slack", 1), use("elastic_wait_for_late", "elastic_slack", 0),
             use("rebalance_seconds")});
    addMode(c, wire::AUTO, "auto", QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "Auto (adaptive)"),
            QT_TRANSLATE_NOOP("syncscope::engine::ModeCatalog", "A controller measures the workers' speeds and picks mode and grouping; each decision appears "
                  "as a marker with its reason. As an advisor it proposes and you decide."),
            {use("decision_seconds"), use("advise_only")});
}

wire::Catalog build() {
    wire::Catalog c;
    addParameters(c);
    addModes(c);
    wire::Limits* limits = c.mutable_limits();
    limits->set_max_workers(1024);
    limits->set_max_slowdown_factor(100);
    limits->set_max_delay_ms(60000);
    limits->set_max_learning_rate(10);
    return c;
}

const FieldDescriptor* fieldOf(const Spec& spec) {
    return wire::ModeSettings::descriptor()->FindFieldByName(spec.field());
}

// The short name a description uses: "s", "G", "K"; otherwise the flag.
std::string shortName(const Spec& spec) {
    if (spec.field() == "staleness_bound") return "s";
    if (spec.field() == "group_count") return "G";
    if (spec.field() == "k") return "K";
    if (spec.field() == "lr_modulation") return "lr";
    if (spec.field() == "group_by") return "by";
    if (spec.field() == "intra_group_ssp") return "inside";
    if (spec.field() == "elastic_slack") return "barrier";
    return spec.flag();
}

std::string formatNumber(double value) { return fmt::format("{}", value); }  // shortest that reads back exactly

}  // namespace

const wire::Catalog& modeCatalog() {
    static const wire::Catalog catalog = build();
    return catalog;
}

const wire::Limits& runLimits() { return modeCatalog().limits(); }

const wire::ModeSpec* findMode(const wire::Catalog& catalog, wire::SyncMode mode) {
    for (const auto& m : catalog.modes())
        if (m.mode() == mode) return &m;
    return nullptr;
}

const wire::ModeSpec* findMode(const wire::Catalog& catalog, const std::string& name) {
    for (const auto& m : catalog.modes())
        if (m.name() == name) return &m;
    return nullptr;
}

const wire::ParameterSpec* findParameter(const wire::Catalog& catalog, const std::string& field) {
    for (const auto& p : catalog.parameters())
        if (p.field() == field) return &p;
    return nullptr;
}

std::string syncModeName(wire::SyncMode mode) {
    const wire::ModeSpec* m = findMode(modeCatalog(), mode);
    return m ? m->name() : wire::SyncMode_Name(mode);
}

Result<wire::SyncMode> parseSyncMode(const std::string& name) {
    if (const wire::ModeSpec* m = findMode(modeCatalog(), name)) return m->mode();
    std::string names;
    for (const auto& m : modeCatalog().modes()) {
        if (!names.empty()) names += ", ";
        names += m.name();
    }
    return invalidArgument("unknown sync mode '" + name + "': use one of " + names);
}

bool modeUses(const wire::Catalog& catalog, const wire::ModeSettings& settings, const std::string& field) {
    const wire::ModeSpec* mode = findMode(catalog, settings.mode());
    if (!mode) return false;
    for (const auto& u : mode->parameters()) {
        if (u.field() != field) continue;
        if (u.when_field().empty()) return true;
        const wire::ParameterSpec* when = findParameter(catalog, u.when_field());
        if (when && static_cast<int>(parameterValue(settings, *when)) == u.when_value()) return true;
    }
    return false;
}

double parameterValue(const wire::ModeSettings& settings, const Spec& spec, bool applyDefault) {
    const FieldDescriptor* field = fieldOf(spec);
    if (!field) return spec.default_value();  // a field this build does not know
    const auto* reflection = settings.GetReflection();
    double value = 0;
    switch (field->cpp_type()) {
        case FieldDescriptor::CPPTYPE_UINT32: value = reflection->GetUInt32(settings, field); break;
        case FieldDescriptor::CPPTYPE_DOUBLE: value = reflection->GetDouble(settings, field); break;
        case FieldDescriptor::CPPTYPE_ENUM: value = reflection->GetEnumValue(settings, field); break;
        case FieldDescriptor::CPPTYPE_BOOL: value = reflection->GetBool(settings, field) ? 1 : 0; break;
        default: return spec.default_value();
    }
    if (applyDefault && value == 0 && spec.minimum() > 0) return spec.default_value();
    return value;
}

Status setParameter(wire::ModeSettings& settings, const Spec& spec, double value) {
    const FieldDescriptor* field = fieldOf(spec);
    if (!field) return invalidArgument("this engine has no mode parameter '" + spec.field() + "'");
    if (!std::isfinite(value) || value < spec.minimum() || value > spec.maximum())
        return invalidArgument(fmt::format("{} ({}) is {}; it must be from {} to {}", spec.label(), spec.flag(),
                                           formatNumber(value), formatNumber(spec.minimum()),
                                           formatNumber(spec.maximum())));
    if (spec.type() == Spec::UINT && value != std::floor(value))
        return invalidArgument(fmt::format("{} ({}) must be a whole number, not {}", spec.label(), spec.flag(),
                                           formatNumber(value)));
    const auto* reflection = settings.GetReflection();
    switch (field->cpp_type()) {
        case FieldDescriptor::CPPTYPE_UINT32: reflection->SetUInt32(&settings, field, static_cast<uint32_t>(value)); break;
        case FieldDescriptor::CPPTYPE_DOUBLE: reflection->SetDouble(&settings, field, value); break;
        case FieldDescriptor::CPPTYPE_ENUM: reflection->SetEnumValue(&settings, field, static_cast<int>(value)); break;
        case FieldDescriptor::CPPTYPE_BOOL: reflection->SetBool(&settings, field, value != 0); break;
        default: return invalidArgument("mode parameter '" + spec.field() + "' has a type this engine cannot set");
    }
    return Status::ok();
}

Status setParameterChoice(wire::ModeSettings& settings, const Spec& spec, const std::string& name) {
    std::string names;
    for (const auto& c : spec.choices()) {
        if (c.name() == name) return setParameter(settings, spec, c.value());
        if (!names.empty()) names += ", ";
        names += c.name();
    }
    return invalidArgument(fmt::format("unknown {} '{}': use one of {}", spec.flag(), name, names));
}

std::string choiceName(const wire::ModeSettings& settings, const Spec& spec) {
    const int value = static_cast<int>(parameterValue(settings, spec));
    for (const auto& c : spec.choices())
        if (c.value() == value) return c.name();
    return "?";
}

wire::ModeSettings defaultModeSettings(wire::SyncMode mode) {
    wire::ModeSettings settings;
    settings.set_mode(mode);
    for (const auto& spec : modeCatalog().parameters()) (void)setParameter(settings, spec, spec.default_value());
    return settings;
}

double modeSeconds(const wire::ModeSettings& settings, const std::string& field) {
    const Spec* spec = findParameter(modeCatalog(), field);
    return spec ? parameterValue(settings, *spec) : 0.0;
}

uint32_t groupCount(const wire::ModeSettings& settings) {
    return static_cast<uint32_t>(parameterValue(settings, *findParameter(modeCatalog(), "group_count")));
}

Status validateModeSettings(const wire::ModeSettings& settings) {
    const wire::Catalog& catalog = modeCatalog();
    if (!findMode(catalog, settings.mode())) return parseSyncMode(std::to_string(settings.mode())).status();
    for (const auto& spec : catalog.parameters()) {
        const double raw = parameterValue(settings, spec, false);
        if (raw == 0 && spec.minimum() > 0) continue;  // 0: the default
        if (!std::isfinite(raw) || raw < spec.minimum() || raw > spec.maximum())
            return invalidArgument(fmt::format("{} ({}) is {}; it must be from {} to {}", spec.label(), spec.flag(),
                                               formatNumber(raw), formatNumber(spec.minimum()),
                                               formatNumber(spec.maximum())));
    }
    const uint32_t groups = settings.group_count();
    for (const auto& [worker, group] : settings.assignment())
        if (groups > 0 && group >= groups)
            return invalidArgument(fmt::format("worker {} is assigned to group {} but there are only {} groups (0..{})",
                                               worker, group, groups, groups - 1));
    if (settings.mode() == wire::GROUPED && settings.group_by() == wire::GROUP_EXPLICIT && settings.assignment().empty())
        return invalidArgument("grouping by explicit assignment needs the assignment of workers to groups "
                               "(from the console's worker table, a scenario's 'assignment', or set_groups)");
    return Status::ok();
}

std::string describeMode(const wire::ModeSettings& settings) {
    const wire::Catalog& catalog = modeCatalog();
    const wire::ModeSpec* mode = findMode(catalog, settings.mode());
    if (!mode) return wire::SyncMode_Name(settings.mode());
    std::string text = mode->name();
    for (const auto& u : mode->parameters()) {
        const Spec* spec = findParameter(catalog, u.field());
        if (!spec || !modeUses(catalog, settings, u.field())) continue;
        const double value = parameterValue(settings, *spec);
        std::string shown;
        if (spec->type() == Spec::CHOICE) shown = choiceName(settings, *spec);
        else if (value == 0 && !u.zero_means().empty()) shown = u.zero_means().substr(0, u.zero_means().find(' '));
        else shown = formatNumber(value) + (spec->type() == Spec::SECONDS ? "s" : "");
        text += fmt::format(" {}={}", shortName(*spec), shown);
    }
    return text;
}

Status validateSlowdown(const wire::Slowdown& s) {
    const wire::Limits& limits = runLimits();
    auto within = [](double v, double lo, double hi) { return std::isfinite(v) && v >= lo && v <= hi; };
    if (!within(s.factor(), 1.0, limits.max_slowdown_factor()))
        return invalidArgument(fmt::format("slowdown factor {} must be from 1 to {}", formatNumber(s.factor()),
                                           formatNumber(limits.max_slowdown_factor())));
    if (!within(s.fixed_delay_ms(), 0, limits.max_delay_ms()) || !within(s.network_delay_ms(), 0, limits.max_delay_ms()))
        return invalidArgument(fmt::format("delays ({} ms fixed, {} ms network) must be from 0 to {} ms",
                                           formatNumber(s.fixed_delay_ms()), formatNumber(s.network_delay_ms()),
                                           formatNumber(limits.max_delay_ms())));
    if (!within(s.transient_probability(), 0, 1))
        return invalidArgument(fmt::format("transient probability {} must be from 0 to 1",
                                           formatNumber(s.transient_probability())));
    if (s.transient_probability() > 0 && !within(s.transient_factor(), 1.0, limits.max_slowdown_factor()))
        return invalidArgument(fmt::format("transient factor {} must be from 1 to {}", formatNumber(s.transient_factor()),
                                           formatNumber(limits.max_slowdown_factor())));
    return Status::ok();
}

std::vector<std::string> modeArguments(const wire::ModeSettings& settings) {
    const wire::Catalog& catalog = modeCatalog();
    std::vector<std::string> args{"--mode", syncModeName(settings.mode())};
    for (const auto& spec : catalog.parameters()) {
        if (!modeUses(catalog, settings, spec.field())) continue;
        args.push_back("--" + spec.flag());
        args.push_back(spec.type() == Spec::CHOICE ? choiceName(settings, spec)
                                                   : formatNumber(parameterValue(settings, spec)));
    }
    return args;
}

std::string describeSlowdown(uint32_t worker, const wire::Slowdown& s) {
    std::string text = fmt::format("worker {}: x{} compute", worker, formatNumber(s.factor()));
    if (s.fixed_delay_ms() > 0) text += fmt::format(", +{} ms", formatNumber(s.fixed_delay_ms()));
    if (s.transient_probability() > 0)
        text += fmt::format(", {}% chance of x{}", formatNumber(100 * s.transient_probability()),
                            formatNumber(s.transient_factor()));
    if (s.network_delay_ms() > 0) text += fmt::format(", +{} ms network", formatNumber(s.network_delay_ms()));
    return text;
}

}  // namespace syncscope::engine
