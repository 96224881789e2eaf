// ScenarioText (see scenario_text.h).
#include "ui/scenario/scenario_text.h"

#include "engine/plan/mode_catalog.h"

namespace syncscope::ui {

namespace {

QString assignmentText(const google::protobuf::Map<uint32_t, uint32_t>& assignment) {
    QStringList parts;
    for (const auto& [worker, group] : assignment) parts << QStringLiteral("%1→%2").arg(worker).arg(group);
    parts.sort();
    return parts.join(QLatin1Char(' '));
}

QString groupingText(uint32_t count, wire::GroupBy by, const google::protobuf::Map<uint32_t, uint32_t>& assignment) {
    if (by == wire::GROUP_EXPLICIT) return ScenarioText::tr("groups %1").arg(assignmentText(assignment));
    const QString countText = count == 0 ? ScenarioText::tr("G=default") : QStringLiteral("G=%1").arg(count);
    return by == wire::GROUP_BY_SPEED ? ScenarioText::tr("%1 by speed").arg(countText)
                                      : ScenarioText::tr("%1 round robin").arg(countText);
}

}  // namespace

QString ScenarioText::mode(const wire::ModeSettings& m) {
    QString text = QString::fromStdString(engine::describeMode(m));  // the notation events use too
    if (m.mode() == wire::GROUPED && m.group_by() == wire::GROUP_EXPLICIT)
        text += QLatin1Char(' ') + groupingText(m.group_count(), m.group_by(), m.assignment());
    return text;
}

QString ScenarioText::step(const ScenarioStep& s) {
    switch (s.action) {
        case ScenarioAction::Note: return tr("note");
        case ScenarioAction::SetMode: return tr("switch to %1").arg(mode(s.mode));
        case ScenarioAction::SetGroups: return tr("regroup: %1").arg(groupingText(s.groups.count(), s.groups.by(), s.groups.assignment()));
        case ScenarioAction::SetSlowdown: {
            const wire::Slowdown& d = s.slowdown;
            if (d.factor() <= 1.0 && d.fixed_delay_ms() <= 0 && d.transient_probability() <= 0 && d.network_delay_ms() <= 0)
                return tr("worker %1 back to full speed").arg(s.workerId);
            QStringList parts;
            if (d.factor() > 1.0) parts << tr("×%1 compute time").arg(d.factor());
            if (d.fixed_delay_ms() > 0) parts << tr("+%1 ms per iteration").arg(d.fixed_delay_ms());
            if (d.transient_probability() > 0)
                parts << tr("×%1 with probability %2").arg(d.transient_factor()).arg(d.transient_probability());
            if (d.network_delay_ms() > 0) parts << tr("+%1 ms before each push").arg(d.network_delay_ms());
            return tr("slow worker %1: %2").arg(s.workerId).arg(parts.join(QStringLiteral(", ")));
        }
        case ScenarioAction::SetLearningRate: return tr("learning rate %1").arg(double(s.learningRate));
        case ScenarioAction::Pause: return s.pauseSeconds > 0 ? tr("pause for %1 s").arg(s.pauseSeconds) : tr("pause");
        case ScenarioAction::Resume: return tr("resume");
        case ScenarioAction::Stop: return tr("stop the run");
    }
    return {};
}

}  // namespace syncscope::ui
