// EventLabels (see event_labels.h): one translated phrase per event kind.
#include "ui/widgets/event_labels.h"

#include "engine/telemetry/event_kind.h"

namespace syncscope::ui {
namespace {

bool isDecision(wire::EventKind kind) {
    return kind == wire::EVENT_AUTO || kind == wire::EVENT_ADVICE || kind == wire::EVENT_ADVICE_ANSWERED;
}

// A 1.0-1.1 recording names its kind as text and no worker: its label is the kind's name and its detail.
bool isLegacy(const wire::Event& event) { return event.kind() == wire::EVENT_KIND_UNSPECIFIED && !event.legacy_kind().empty(); }

QString detailOf(const wire::Event& event) { return QString::fromStdString(event.detail()).trimmed(); }

}  // namespace

QString EventLabels::decision(const wire::Event& event) {
    const wire::AutoDecision& d = event.decision();
    const QString chosen = QString::fromStdString(d.chosen().label());
    switch (engine::eventKindOf(event)) {
        case wire::EVENT_ADVICE: return tr("advice %1: %2").arg(d.advice_id()).arg(chosen);
        case wire::EVENT_ADVICE_ANSWERED:
            return d.accepted() ? tr("advice %1 taken: %2").arg(d.advice_id()).arg(chosen)
                                : tr("advice %1 dismissed").arg(d.advice_id());
        default:
            return d.verdict() == wire::AutoDecision::SWITCHES
                       ? tr("auto: %1").arg(chosen)
                       : tr("auto stays %1").arg(QString::fromStdString(d.current_label()));
    }
}

QString EventLabels::label(const wire::Event& event) {
    const wire::EventKind kind = engine::eventKindOf(event);
    if (event.has_decision() && isDecision(kind)) return decision(event);
    const uint32_t worker = event.worker_id();
    const QString detail = detailOf(event);
    if (isLegacy(event)) return QString::fromStdString(event.legacy_kind()) + (detail.isEmpty() ? QString() : QLatin1Char(' ') + detail);
    switch (kind) {
        case wire::EVENT_START: return tr("training started");
        case wire::EVENT_PAUSE: return tr("paused");
        case wire::EVENT_RESUME: return tr("resumed");
        case wire::EVENT_STOP: return tr("stopped");
        case wire::EVENT_MODE: return tr("mode %1").arg(detail);  // the mode's notation: "ssp s=3"
        case wire::EVENT_GROUPS: return tr("regrouped");
        case wire::EVENT_AUTO: return tr("auto mode");
        case wire::EVENT_BATCH: return tr("batch sizes");
        case wire::EVENT_SLOWDOWN: return tr("worker %1 slowdown").arg(worker);
        case wire::EVENT_LEARNING_RATE: return tr("learning rate");
        case wire::EVENT_WORKER_JOINED: return tr("worker %1 joined").arg(worker);
        case wire::EVENT_WORKER_LOST: return tr("worker %1 lost").arg(worker);
        case wire::EVENT_WORKER_REJOINED: return tr("worker %1 rejoined").arg(worker);
        case wire::EVENT_ERROR: return tr("error");
        case wire::EVENT_EVALUATION: return tr("evaluation");
        case wire::EVENT_ADVICE: return tr("advice");
        case wire::EVENT_ADVICE_ANSWERED: return tr("advice answered");
        case wire::EVENT_RESUMED: return tr("resumed from a checkpoint");
        case wire::EVENT_ROLLBACK: return tr("rollback");
        case wire::EVENT_CHECKPOINT: return tr("checkpoints");
        case wire::EVENT_RECORDING: return tr("recording");
        case wire::EVENT_SHARDS: return tr("parameter shard");
        case wire::EVENT_HAND_OFF: return tr("hand-off");
        default: return detail.isEmpty() ? tr("event") : detail;
    }
}

QString EventLabels::burst(const wire::Event& first, int count) {
    if (count <= 1) return label(first);
    if (!isLegacy(first)) {
        switch (engine::eventKindOf(first)) {
            case wire::EVENT_WORKER_JOINED: return tr("%n workers joined", nullptr, count);
            case wire::EVENT_WORKER_LOST: return tr("%n workers lost", nullptr, count);
            case wire::EVENT_WORKER_REJOINED: return tr("%n workers rejoined", nullptr, count);
            case wire::EVENT_SLOWDOWN: return tr("%n slowdowns", nullptr, count);
            default: break;
        }
    }
    return tr("%1 ×%2").arg(label(first)).arg(count);
}

QString EventLabels::withDetail(const wire::Event& event) {
    const QString text = label(event), detail = detailOf(event);
    // A mode's label is its detail already.
    if (detail.isEmpty() || isLegacy(event) || engine::eventKindOf(event) == wire::EVENT_MODE) return text;
    return tr("%1: %2").arg(text, detail);
}

QString EventLabels::toolTip(const wire::Event& event) {
    QString text = tr("%1 s, version %2: %3").arg(event.time_s(), 0, 'f', 1).arg(event.version()).arg(label(event));
    if (const QString detail = detailOf(event); !detail.isEmpty()) text += QLatin1Char('\n') + detail;
    return text;
}

}  // namespace syncscope::ui
