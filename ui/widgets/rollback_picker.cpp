// RollbackPicker (see rollback_picker.h).
#include "ui/widgets/rollback_picker.h"

#include <QInputDialog>
#include <QMessageBox>

#include <set>

#include "ui/widgets/event_labels.h"

namespace syncscope::ui {
std::vector<RollbackChoice> RollbackPicker::choices(const QVector<wire::Event>& events) {
    std::vector<RollbackChoice> choices;
    std::set<uint64_t> seen;  // a change may raise several events (a mode switch and its regrouping)
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
        if (it->change_id() == 0 || !seen.insert(it->change_id()).second) continue;
        choices.push_back({it->change_id(), tr("change %1 at %2 s: %3")
                                                  .arg(it->change_id())
                                                  .arg(it->time_s(), 0, 'f', 1)
                                                  .arg(EventLabels::withDetail(*it))});
    }
    return choices;
}

std::optional<uint64_t> RollbackPicker::pick(QWidget* parent, const QVector<wire::Event>& events) {
    const std::vector<RollbackChoice> choices = RollbackPicker::choices(events);
    if (choices.empty()) {
        QMessageBox::information(parent, tr("Roll back"),
                                 tr("This run has made no change yet that can be rolled back."));
        return std::nullopt;
    }
    QStringList labels;
    for (const auto& choice : choices) labels << choice.label;
    bool ok = false;
    const QString picked = QInputDialog::getItem(
        parent, tr("Roll back"),
        tr("Restore the model, optimiser and mode from before this change (later updates are undone):"),
        labels, 0, false, &ok);
    if (!ok) return std::nullopt;
    const qsizetype index = labels.indexOf(picked);
    return index < 0 ? std::nullopt : std::optional<uint64_t>(choices[size_t(index)].changeId);
}

}  // namespace syncscope::ui
