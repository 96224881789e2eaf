// ScenarioParser (see scenario_parser.h). A Reader walks the JSON with the place it is at
// ("schedule entry 3 (at 40 s)"), keeps the first error and stops there.
#include "ui/scenario/scenario_parser.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

#include "engine/plan/mode_catalog.h"

namespace syncscope::ui {

namespace {

using Spec = wire::ParameterSpec;

int maxWorkers() { return int(engine::runLimits().max_workers()); }
double maxDelayMs() { return engine::runLimits().max_delay_ms(); }
double maxSlowdownFactor() { return engine::runLimits().max_slowdown_factor(); }

// A mode object's keys: "mode", "assignment", and every parameter of the engine's catalogue by its
// ModeSettings field name.
QStringList modeKeys() {
    QStringList keys{QStringLiteral("mode"), QStringLiteral("assignment")};
    for (const auto& spec : engine::modeCatalog().parameters()) keys << QString::fromStdString(spec.field());
    return keys;
}

QStringList choiceNames(const Spec& spec) {
    QStringList names;
    for (const auto& c : spec.choices()) names << QString::fromStdString(c.name());
    return names;
}

const Spec& parameterSpec(const char* field) { return *engine::findParameter(engine::modeCatalog(), field); }
const QStringList kSlowdownKeys{QStringLiteral("worker"), QStringLiteral("factor"), QStringLiteral("delay_ms"),
                                QStringLiteral("transient_probability"), QStringLiteral("transient_factor")};

const QList<std::pair<QString, ScenarioAction>>& actionNames() {
    static const QList<std::pair<QString, ScenarioAction>> names{
        {QStringLiteral("note"), ScenarioAction::Note},
        {QStringLiteral("set_mode"), ScenarioAction::SetMode},
        {QStringLiteral("set_groups"), ScenarioAction::SetGroups},
        {QStringLiteral("set_slowdown"), ScenarioAction::SetSlowdown},
        {QStringLiteral("set_learning_rate"), ScenarioAction::SetLearningRate},
        {QStringLiteral("pause"), ScenarioAction::Pause},
        {QStringLiteral("resume"), ScenarioAction::Resume},
        {QStringLiteral("stop"), ScenarioAction::Stop}};
    return names;
}

QString quoted(const QStringList& names) { return QStringLiteral("'%1'").arg(names.join(QStringLiteral("', '"))); }

class Reader {
public:
    Reader(QString source, int workers) : m_source(std::move(source)), m_workers(workers) {}

    bool ok() const { return m_error.isEmpty(); }
    const QString& error() const { return m_error; }
    void setWhere(const QString& where) { m_where = where; }
    void setWorkers(int workers) { m_workers = workers; }
    // Groups an assignment may name: G when given, else as many as there are workers.
    uint32_t groupLimit(uint32_t count) const { return count == 0 ? uint32_t(m_workers) : count; }

    bool fail(const QString& what) {
        if (m_error.isEmpty())
            m_error = m_where.isEmpty() ? QStringLiteral("%1: %2").arg(m_source, what)
                                        : QStringLiteral("%1: %2: %3").arg(m_source, m_where, what);
        return false;
    }

    bool onlyKeys(const QJsonObject& object, const QStringList& allowed) {
        for (const QString& key : object.keys())
            if (!allowed.contains(key))
                return fail(ScenarioParser::tr("unknown field '%1' (known here: %2)").arg(key, quoted(allowed)));
        return true;
    }

    // A number in [min, max]; absent: `out` keeps its value unless `required`.
    bool number(const QJsonObject& object, const QString& key, double& out, double min, double max, bool required = false) {
        const QJsonValue value = object.value(key);
        if (value.isUndefined()) return required ? fail(ScenarioParser::tr("missing field '%1'").arg(key)) : true;
        if (!value.isDouble() || !std::isfinite(value.toDouble()))
            return fail(ScenarioParser::tr("'%1' must be a number").arg(key));
        if (value.toDouble() < min || value.toDouble() > max)
            return fail(ScenarioParser::tr("'%1' is %2; it must be from %3 to %4").arg(key).arg(value.toDouble()).arg(min).arg(max));
        out = value.toDouble();
        return true;
    }

    template <typename Integer>
    bool integer(const QJsonObject& object, const QString& key, Integer& out, double min, double max, bool required = false) {
        double value = static_cast<double>(out);
        if (!number(object, key, value, min, max, required)) return false;
        if (value != std::floor(value)) return fail(ScenarioParser::tr("'%1' must be a whole number").arg(key));
        out = static_cast<Integer>(value);
        return true;
    }

    bool text(const QJsonObject& object, const QString& key, QString& out, bool required = false) {
        const QJsonValue value = object.value(key);
        if (value.isUndefined()) return required ? fail(ScenarioParser::tr("missing field '%1'").arg(key)) : true;
        if (!value.isString()) return fail(ScenarioParser::tr("'%1' must be a string").arg(key));
        out = value.toString();
        return true;
    }

    bool choice(const QJsonObject& object, const QString& key, QString& out, const QStringList& allowed, bool required = false) {
        if (!text(object, key, out, required)) return false;
        if (!allowed.contains(out))
            return fail(ScenarioParser::tr("'%1' is '%2'; it must be one of %3").arg(key, out, quoted(allowed)));
        return true;
    }

    bool boolean(const QJsonObject& object, const QString& key, bool& out) {
        const QJsonValue value = object.value(key);
        if (value.isUndefined()) return true;
        if (!value.isBool()) return fail(ScenarioParser::tr("'%1' must be true or false").arg(key));
        out = value.toBool();
        return true;
    }

    bool worker(const QJsonObject& object, uint32_t& out) {
        return integer(object, QStringLiteral("worker"), out, 0, m_workers - 1, true);
    }

    bool slowdown(const QJsonObject& object, wire::Slowdown& out) {
        double factor = 1.0, delay = 0.0, probability = 0.0, transient = 1.0, network = 0.0;
        if (!number(object, QStringLiteral("factor"), factor, 1.0, maxSlowdownFactor()) ||
            !number(object, QStringLiteral("delay_ms"), delay, 0.0, maxDelayMs()) ||
            !number(object, QStringLiteral("transient_probability"), probability, 0.0, 1.0) ||
            !number(object, QStringLiteral("transient_factor"), transient, 1.0, maxSlowdownFactor()) ||
            !number(object, QStringLiteral("network_delay_ms"), network, 0.0, maxDelayMs()))
            return false;
        out.set_factor(factor);
        out.set_fixed_delay_ms(delay);
        out.set_transient_probability(probability);
        out.set_transient_factor(transient);
        out.set_network_delay_ms(network);
        return true;
    }

    // Worker -> group, as {"3": 1} or [0, 0, 0, 1] (index = worker).
    bool assignment(const QJsonObject& object, const QString& key, uint32_t groups,
                    google::protobuf::Map<uint32_t, uint32_t>& out) {
        const QJsonValue value = object.value(key);
        if (value.isUndefined()) return true;
        QList<std::pair<QString, QJsonValue>> entries;
        if (value.isArray()) {
            const QJsonArray array = value.toArray();
            for (qsizetype i = 0; i < array.size(); ++i) entries.append({QString::number(i), array.at(i)});
        } else if (value.isObject()) {
            const QJsonObject map = value.toObject();
            for (auto it = map.begin(); it != map.end(); ++it) entries.append({it.key(), it.value()});
        } else {
            return fail(ScenarioParser::tr("'%1' must map workers to groups, e.g. {\"3\": 1} or [0, 0, 0, 1]").arg(key));
        }
        for (const auto& [workerText, group] : entries) {
            bool isNumber = false;
            const uint workerId = workerText.toUInt(&isNumber);
            if (!isNumber || workerId >= uint(m_workers))
                return fail(ScenarioParser::tr("'%1' names worker '%2'; workers are 0 to %3").arg(key, workerText).arg(m_workers - 1));
            const double g = group.toDouble(-1.0);
            if (!group.isDouble() || g != std::floor(g) || g < 0 || g >= groups)
                return fail(ScenarioParser::tr("'%1' puts worker %2 in group %3; groups are 0 to %4")
                                .arg(key, workerText, group.isDouble() ? QString::number(g) : group.toVariant().toString())
                                .arg(groups - 1));
            out[workerId] = uint32_t(g);
        }
        return true;
    }

    bool groupBy(const QJsonObject& object, const QString& key, wire::GroupBy& out) {
        const Spec& spec = parameterSpec("group_by");
        QString name = QString::fromStdString(spec.choices(int(out)).name());
        if (!choice(object, key, name, choiceNames(spec))) return false;
        wire::ModeSettings settings;
        (void)engine::setParameterChoice(settings, spec, name.toStdString());
        out = settings.group_by();
        return true;
    }

    // One catalogue parameter: a whole number or seconds in its range (0 too where 0 means the
    // default), or one of its choices by name (a true/false field also as a JSON boolean).
    bool parameter(const QJsonObject& object, const Spec& spec, wire::ModeSettings& out) {
        const QString key = QString::fromStdString(spec.field());
        const QJsonValue value = object.value(key);
        if (value.isUndefined()) return true;
        if (spec.type() == Spec::CHOICE) {
            if (value.isBool() && spec.choices_size() == 2)
                return ok(engine::setParameter(out, spec, value.toBool() ? 1 : 0));
            QString name;
            return choice(object, key, name, choiceNames(spec)) &&
                   ok(engine::setParameterChoice(out, spec, name.toStdString()));
        }
        double number = 0;
        const double low = spec.minimum() > 0 ? 0.0 : spec.minimum();
        if (spec.type() == Spec::UINT) {
            if (!integer(object, key, number, low, spec.maximum())) return false;
        } else if (!this->number(object, key, number, low, spec.maximum())) {
            return false;
        }
        return number == 0 && spec.minimum() > 0 ? true : ok(engine::setParameter(out, spec, number));
    }

    bool ok(const engine::Status& status) {
        return status ? true : fail(QString::fromStdString(status.message()));
    }

    bool modeSettings(const QJsonObject& object, wire::ModeSettings& out) {
        const wire::Catalog& catalog = engine::modeCatalog();
        QStringList modes;
        for (const auto& m : catalog.modes()) modes << QString::fromStdString(m.name());
        QString mode;
        if (!choice(object, QStringLiteral("mode"), mode, modes, true)) return false;
        out = engine::defaultModeSettings(*engine::parseSyncMode(mode.toStdString()));
        for (const auto& spec : catalog.parameters())
            if (!parameter(object, spec, out)) return false;
        if (!assignment(object, QStringLiteral("assignment"), groupLimit(out.group_count()), *out.mutable_assignment()))
            return false;
        if (out.group_by() == wire::GROUP_EXPLICIT && out.assignment().empty())
            return fail(ScenarioParser::tr("'group_by' is 'explicit' but there is no 'assignment'"));
        return true;
    }

private:
    QString m_source, m_where, m_error;
    int m_workers;
};

bool readActionFields(Reader& reader, const QJsonObject& entry, ScenarioStep& step) {
    const QStringList common{QStringLiteral("at"), QStringLiteral("action"), QStringLiteral("note")};
    switch (step.action) {
        case ScenarioAction::SetMode:
            return reader.onlyKeys(entry, common + modeKeys()) && reader.modeSettings(entry, step.mode);
        case ScenarioAction::SetGroups: {
            if (!reader.onlyKeys(entry, common + QStringList{QStringLiteral("count"), QStringLiteral("by"), QStringLiteral("assignment")}))
                return false;
            uint32_t count = 0;
            wire::GroupBy by = wire::GROUP_ROUND_ROBIN;
            if (!reader.integer(entry, QStringLiteral("count"), count, 1, maxWorkers()) || !reader.groupBy(entry, QStringLiteral("by"), by) ||
                !reader.assignment(entry, QStringLiteral("assignment"), reader.groupLimit(count), *step.groups.mutable_assignment()))
                return false;
            if (by == wire::GROUP_EXPLICIT && step.groups.assignment().empty())
                return reader.fail(ScenarioParser::tr("'by' is 'explicit' but there is no 'assignment'"));
            if (count == 0 && by != wire::GROUP_EXPLICIT) return reader.fail(ScenarioParser::tr("missing field 'count'"));
            step.groups.set_count(count);
            step.groups.set_by(by);
            return true;
        }
        case ScenarioAction::SetSlowdown:
            return reader.onlyKeys(entry, common + kSlowdownKeys + QStringList{QStringLiteral("network_delay_ms")}) &&
                   reader.worker(entry, step.workerId) && reader.slowdown(entry, step.slowdown);
        case ScenarioAction::SetLearningRate: {
            double rate = 0.0;
            if (!reader.onlyKeys(entry, common + QStringList{QStringLiteral("learning_rate")}) ||
                !reader.number(entry, QStringLiteral("learning_rate"), rate, 1e-6, engine::runLimits().max_learning_rate(), true))
                return false;
            step.learningRate = float(rate);
            return true;
        }
        case ScenarioAction::Pause:
            return reader.onlyKeys(entry, common + QStringList{QStringLiteral("seconds")}) &&
                   reader.number(entry, QStringLiteral("seconds"), step.pauseSeconds, 0.0, 3600.0);
        case ScenarioAction::Note:
        case ScenarioAction::Resume:
        case ScenarioAction::Stop: return reader.onlyKeys(entry, common);
    }
    return true;
}

bool readStep(Reader& reader, const QJsonValue& value, int index, ScenarioStep& step) {
    reader.setWhere(ScenarioParser::tr("schedule entry %1").arg(index + 1));
    if (!value.isObject()) return reader.fail(ScenarioParser::tr("must be an object like {\"at\": 30, \"action\": \"set_mode\", …}"));
    const QJsonObject entry = value.toObject();
    if (!reader.number(entry, QStringLiteral("at"), step.at, 0.0, 1e7, true)) return false;
    reader.setWhere(ScenarioParser::tr("schedule entry %1 (at %2 s)").arg(index + 1).arg(step.at));
    QString action;
    if (!reader.text(entry, QStringLiteral("action"), action, true) || !reader.text(entry, QStringLiteral("note"), step.note))
        return false;
    const auto& names = actionNames();
    const auto found = std::find_if(names.begin(), names.end(), [&](const auto& name) { return name.first == action; });
    if (found == names.end()) {
        QStringList known;
        for (const auto& name : names) known << name.first;
        return reader.fail(ScenarioParser::tr("unknown action '%1' (expected one of %2)").arg(action, quoted(known)));
    }
    step.action = found->second;
    if (step.action == ScenarioAction::Note && step.note.isEmpty())
        return reader.fail(ScenarioParser::tr("a 'note' step needs a 'note' text"));
    return readActionFields(reader, entry, step);
}

bool readRun(Reader& reader, const QJsonObject& root, Scenario& scenario) {
    const QStringList keys{QStringLiteral("title"),         QStringLiteral("description"), QStringLiteral("model"),
                           QStringLiteral("workers"),       QStringLiteral("backend"),     QStringLiteral("sync"),
                           QStringLiteral("slowdowns"),     QStringLiteral("learning_rate"), QStringLiteral("epochs"),
                           QStringLiteral("max_seconds"),   QStringLiteral("target_accuracy"), QStringLiteral("schedule")};
    double learningRate = 0.0;
    if (!reader.onlyKeys(root, keys) || !reader.text(root, QStringLiteral("title"), scenario.title, true) ||
        !reader.text(root, QStringLiteral("description"), scenario.description) ||
        !reader.choice(root, QStringLiteral("model"), scenario.model, {QStringLiteral("mlp"), QStringLiteral("cnn")}) ||
        !reader.choice(root, QStringLiteral("backend"), scenario.backend,
                       {QStringLiteral("auto"), QStringLiteral("cpu"), QStringLiteral("cuda")}) ||
        !reader.integer(root, QStringLiteral("workers"), scenario.workers, 1, maxWorkers(), true) ||
        !reader.number(root, QStringLiteral("learning_rate"), learningRate, 0.0, engine::runLimits().max_learning_rate()) ||
        !reader.number(root, QStringLiteral("epochs"), scenario.epochs, 0.0, 1e6) ||
        !reader.number(root, QStringLiteral("max_seconds"), scenario.maxSeconds, 0.0, 1e7) ||
        !reader.number(root, QStringLiteral("target_accuracy"), scenario.targetAccuracy, 0.0, 100.0))
        return false;
    scenario.learningRate = float(learningRate);
    reader.setWorkers(scenario.workers);
    reader.setWhere(QStringLiteral("sync"));
    const QJsonValue sync = root.value(QStringLiteral("sync"));
    if (!sync.isObject()) return reader.fail(ScenarioParser::tr("missing or not an object like {\"mode\": \"bsp\"}"));
    if (!reader.onlyKeys(sync.toObject(), modeKeys()) || !reader.modeSettings(sync.toObject(), scenario.mode)) return false;
    if (scenario.mode.group_by() == wire::GROUP_EXPLICIT)
        return reader.fail(ScenarioParser::tr("a run cannot start with 'group_by': 'explicit' (the engine's --group-by takes "
                                              "round-robin or speed); start with one of those and add a set_groups step at 0"));
    const QJsonValue slowdownList = root.value(QStringLiteral("slowdowns"));
    reader.setWhere(QString());
    if (!slowdownList.isUndefined() && !slowdownList.isArray())
        return reader.fail(ScenarioParser::tr("'slowdowns' must be a list like [{\"worker\": 3, \"factor\": 4}]"));
    const QJsonArray slowdowns = slowdownList.toArray();
    for (qsizetype i = 0; i < slowdowns.size(); ++i) {
        reader.setWhere(ScenarioParser::tr("slowdowns entry %1").arg(i + 1));
        InitialSlowdown slowdown;
        if (!slowdowns.at(i).isObject()) return reader.fail(ScenarioParser::tr("must be an object like {\"worker\": 3, \"factor\": 4}"));
        const QJsonObject entry = slowdowns.at(i).toObject();
        if (!reader.onlyKeys(entry, kSlowdownKeys) || !reader.worker(entry, slowdown.workerId) ||
            !reader.slowdown(entry, slowdown.slowdown))
            return false;
        scenario.slowdowns << slowdown;
    }
    return true;
}

}  // namespace

ScenarioLoad ScenarioParser::parse(const QByteArray& json, const QString& source) {
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return {std::nullopt, tr("%1: not valid JSON at character %2: %3").arg(source).arg(parseError.offset).arg(parseError.errorString())};
    if (!document.isObject()) return {std::nullopt, tr("%1: the scenario must be a JSON object").arg(source)};
    const QJsonObject root = document.object();
    Scenario scenario;
    scenario.source = source;
    Reader reader(source, maxWorkers());
    if (!readRun(reader, root, scenario)) return {std::nullopt, reader.error()};
    const QJsonValue schedule = root.value(QStringLiteral("schedule"));
    reader.setWhere(QString());
    if (!schedule.isUndefined() && !schedule.isArray())
        return {std::nullopt, tr("%1: 'schedule' must be a list of steps").arg(source)};
    const QJsonArray entries = schedule.toArray();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        ScenarioStep step;
        if (!readStep(reader, entries.at(i), int(i), step)) return {std::nullopt, reader.error()};
        if (scenario.maxSeconds > 0 && step.at > scenario.maxSeconds) {
            reader.fail(tr("comes after the run's end ('max_seconds' is %1)").arg(scenario.maxSeconds));
            return {std::nullopt, reader.error()};
        }
        scenario.steps << step;
    }
    std::stable_sort(scenario.steps.begin(), scenario.steps.end(),
                     [](const ScenarioStep& a, const ScenarioStep& b) { return a.at < b.at; });
    return {std::move(scenario), QString()};
}

ScenarioLoad ScenarioParser::load(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {std::nullopt, tr("%1: cannot read it: %2").arg(path, file.errorString())};
    constexpr qint64 kMaxBytes = 1 << 20;  // a scenario is a page of text; refuse anything huge
    if (file.size() > kMaxBytes) return {std::nullopt, tr("%1: too large for a scenario (over 1 MiB)").arg(path)};
    return parse(file.readAll(), path);
}

}  // namespace syncscope::ui
