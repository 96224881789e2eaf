// RollbackPicker: "roll back to before change N". The changes a run made so far (events with a
// change number: a checkpoint was taken before each) offered newest first; the one chosen is
// what the console asks the coordinator to undo.
#pragma once

#include <QCoreApplication>
#include <QString>
#include <QVector>

#include <optional>
#include <vector>

#include "engine/proto/syncscope.pb.h"

class QWidget;

namespace syncscope::ui {

struct RollbackChoice {
    uint64_t changeId = 0;
    QString label;  ///< "change 7 at 42.1 s: mode → asp"
};

class RollbackPicker {
    Q_DECLARE_TR_FUNCTIONS(syncscope::ui::RollbackPicker)
public:
    /// The changes in `events`, newest first, one per change number.
    static std::vector<RollbackChoice> choices(const QVector<wire::Event>& events);
    /// Asks which change to undo; empty when the person cancels or there is none (then says so).
    static std::optional<uint64_t> pick(QWidget* parent, const QVector<wire::Event>& events);
};

}  // namespace syncscope::ui
