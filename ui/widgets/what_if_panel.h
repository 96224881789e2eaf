// WhatIfPanel: the engine's what-if predictions (Tick.what_if) as a table, and the legend of their
// ghost curves in the charts: for each mode, if the run switched to it now, the samples/s, the
// staleness and the time to the target accuracy it is predicted to have. Each row's box shows or
// hides that mode's curves; the panel's own box all of them (and folds the table away).
#pragma once

#include <QColor>
#include <QGroupBox>
#include <QSet>
#include <QString>

#include <optional>
#include <string>

#include "engine/proto/syncscope.pb.h"

class QTableWidget;
class QTableWidgetItem;

namespace syncscope::ui {

class WhatIfPanel : public QGroupBox {
    Q_OBJECT

public:
    explicit WhatIfPanel(QWidget* parent = nullptr);
    /// Rows kept in view however short the panel is (the rest scroll).
    static constexpr int kRowsKept = 3;

    /// Shows the newest prediction (nothing happens when it is the one shown).
    void showPrediction(const std::optional<wire::WhatIf>& whatIf);
    /// Whether the charts draw the ghost curves at all (the panel's box).
    bool curvesShown() const;
    void setCurvesShown(bool shown);
    /// The options whose curves the user switched off.
    QSet<QString> hiddenLabels() const { return m_hidden; }
    QTableWidget* table() const { return m_table; }

    /// "42 s", "3 min 10 s", "1 h 5 min" in the console's language.
    static QString duration(double seconds);

signals:
    /// The box or a row's check changed: the charts draw other curves.
    void curvesChanged();

private:
    void fill(const wire::WhatIf& whatIf);
    /// The mode cell of a row: its label, bold for the running option, else a swatch and a check.
    void showOption(QTableWidgetItem* mode, const QString& label, bool current, const QColor& color);
    /// The figures' columns as wide as their widest figure or their title.
    void fitFigureColumns();

    QTableWidget* m_table;
    QSet<QString> m_hidden;
    std::string m_shown;  ///< the prediction shown, serialized
    bool m_filling = false;
};

}  // namespace syncscope::ui
