// WhatIfPanel (see what_if_panel.h).
#include "ui/widgets/what_if_panel.h"

#include <QHeaderView>
#include <QLocale>
#include <QPainter>
#include <QPixmap>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <vector>

#include "ui/widgets/chart_style.h"

namespace syncscope::ui {
namespace {

enum Column { kMode, kSamples, kStaleness, kToTarget, kColumns };

QIcon swatch(const QColor& color) {
    QPixmap pixmap(16, 4);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setPen(QPen(color, 2, Qt::DashLine));
    painter.drawLine(0, 2, 16, 2);
    return QIcon(pixmap);
}

}  // namespace

WhatIfPanel::WhatIfPanel(QWidget* parent) : QGroupBox(tr("What if (predicted)"), parent), m_table(new QTableWidget(0, kColumns, this)) {
    setObjectName(QStringLiteral("whatIfPanel"));
    setCheckable(true);
    setChecked(true);
    setToolTip(tr("What each mode would do if the run switched to it now, predicted from each worker's measured "
                  "compute and communication times; the time to the target from the accuracy curve so far. The "
                  "charts draw the predictions as dashed lines: tick a row to show or hide one, this box to show "
                  "or hide them all."));
    m_table->setHorizontalHeaderLabels({tr("Mode"), tr("samples/s"), tr("staleness"), tr("to target")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    // The figures' columns are as wide as their widest text can be, fixed: sized to contents, each
    // second's new figures would lay the table (and the panel) out again.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setSectionResizeMode(kMode, QHeaderView::Stretch);
    fitFigureColumns();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_table);
    m_table->hide();  // until a prediction comes
    connect(this, &QGroupBox::toggled, this, [this](bool on) {
        m_table->setVisible(on && m_table->rowCount() > 0);
        emit curvesChanged();
    });
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (m_filling || item->column() != kMode) return;
        const QString label = item->data(Qt::UserRole).toString();
        if (item->checkState() == Qt::Checked)
            m_hidden.remove(label);
        else
            m_hidden.insert(label);
        emit curvesChanged();
    });
}

bool WhatIfPanel::curvesShown() const { return isChecked(); }

void WhatIfPanel::setCurvesShown(bool shown) { setChecked(shown); }

QString WhatIfPanel::duration(double seconds) {
    const long long s = std::llround(std::max(0.0, seconds));
    if (s < 60) return tr("%1 s").arg(s);
    if (s < 3600) return tr("%1 min %2 s").arg(s / 60).arg(s % 60);
    return tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60);
}

void WhatIfPanel::showPrediction(const std::optional<wire::WhatIf>& whatIf) {
    if (!whatIf) {
        if (m_shown.empty()) return;
        m_shown.clear();
        m_table->setRowCount(0);
        m_table->hide();
        return;
    }
    std::string bytes = whatIf->SerializeAsString();
    if (bytes == m_shown) return;
    m_shown = std::move(bytes);
    fill(*whatIf);
}

void WhatIfPanel::fitFigureColumns() {
    const QFontMetrics metrics(m_table->font()), header(m_table->horizontalHeader()->font());
    const QLocale locale;
    const QString widest[] = {locale.toString(8888888.0, 'f', 0), locale.toString(88.8, 'f', 1), duration(3600.0 * 88 + 60 * 58)};
    for (int c = kSamples; c < kColumns; ++c) {
        const QTableWidgetItem* title = m_table->horizontalHeaderItem(c);
        const int text = std::max(metrics.horizontalAdvance(widest[c - kSamples]), header.horizontalAdvance(title ? title->text() : QString()));
        m_table->horizontalHeader()->resizeSection(c, text + 3 * metrics.averageCharWidth());
    }
}

void WhatIfPanel::showOption(QTableWidgetItem* mode, const QString& label, bool current, const QColor& color) {
    const QString text = current ? tr("%1 (now)").arg(label) : label;
    if (mode->text() != text) {  // another option in this row: its look (the same one keeps it, and its check)
        mode->setText(text);
        mode->setData(Qt::UserRole, label);
        QFont font = mode->font();
        font.setBold(current);
        mode->setFont(font);
        mode->setFlags(current ? mode->flags() & ~Qt::ItemIsUserCheckable : mode->flags() | Qt::ItemIsUserCheckable);
        mode->setIcon(current ? QIcon() : swatch(color));
        mode->setToolTip(current ? tr("The mode running now: its live lines are in the charts")
                                 : tr("Tick to draw this mode's predicted samples/s and staleness in the charts"));
    }
    if (current) {
        if (mode->data(Qt::CheckStateRole).isValid()) mode->setData(Qt::CheckStateRole, QVariant());
    } else {
        mode->setCheckState(m_hidden.contains(label) ? Qt::Unchecked : Qt::Checked);
    }
}

void WhatIfPanel::fill(const wire::WhatIf& w) {
    const QLocale locale;
    const QString toTargetTitle = tr("to %1%").arg(locale.toString(100.0 * w.target_accuracy(), 'f', 0));
    if (m_table->horizontalHeaderItem(kToTarget)->text() != toTargetTitle) {
        m_table->horizontalHeaderItem(kToTarget)->setText(toTargetTitle);
        fitFigureColumns();
    }
    const QString toTargetTip = w.target_from_plan()
        ? tr("Predicted time to the run's target accuracy")
        : tr("Predicted time to 2 points above the best accuracy so far (the run has no target accuracy)");
    if (m_table->horizontalHeaderItem(kToTarget)->toolTip() != toTargetTip)
        m_table->horizontalHeaderItem(kToTarget)->setToolTip(toTargetTip);
    // Soonest to the target first; without forecasts, the most effective samples/s first. Compared as
    // shown (whole seconds, samples/s in hundreds), so differences nobody sees do not reorder the rows.
    std::vector<const wire::AutoCandidate*> options;
    for (const wire::AutoCandidate& c : w.options()) options.push_back(&c);
    std::stable_sort(options.begin(), options.end(), [](const wire::AutoCandidate* a, const wire::AutoCandidate* b) {
        const bool aKnown = a->seconds_to_target() >= 0, bKnown = b->seconds_to_target() >= 0;
        if (aKnown != bKnown) return aKnown;
        if (aKnown) return std::llround(a->seconds_to_target()) < std::llround(b->seconds_to_target());
        return std::llround(a->effective() / 100) > std::llround(b->effective() / 100);
    });
    m_filling = true;
    // Each second's prediction rewrites the cells in place: new items or a new row count would lay the
    // steering panel out again, a frame's worth of the GUI thread.
    const bool rowsChange = m_table->rowCount() != int(options.size());
    if (rowsChange) m_table->setRowCount(int(options.size()));
    const auto cell = [this](int row, int column) {
        QTableWidgetItem* item = m_table->item(row, column);
        if (!item) {
            item = new QTableWidgetItem;
            if (column != kMode) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, column, item);
        }
        return item;
    };
    for (int row = 0; row < int(options.size()); ++row) {
        const wire::AutoCandidate& c = *options[size_t(row)];
        const QString label = QString::fromStdString(c.label());
        const bool current = c.label() == w.current_label();
        showOption(cell(row, kMode), label, current, whatIfColor(c.settings().mode()));
        cell(row, kSamples)->setText(locale.toString(c.samples_per_s(), 'f', 0));
        cell(row, kStaleness)->setText(locale.toString(c.mean_staleness(), 'f', 1));
        QTableWidgetItem* toTarget = cell(row, kToTarget);
        const bool known = c.seconds_to_target() >= 0;
        // 0: the target is behind the forecast already (evaluations trail training) or was reached; a target
        // that was reached moves 2 points on, and a run's own target stops the run.
        const bool now = known && c.seconds_to_target() == 0;
        toTarget->setText(!known ? QStringLiteral("–") : now ? tr("by now") : duration(c.seconds_to_target()));
        const QString tip = !known ? tr("No forecast yet: it needs three evaluations with the accuracy still rising")
                            : now  ? tr("The forecast puts the model there by now; the next evaluation tells")
                                   : QString();
        if (toTarget->toolTip() != tip) toTarget->setToolTip(tip);
    }
    m_filling = false;
    if (m_table->isHidden() == isChecked()) m_table->setVisible(isChecked());
    if (!rowsChange) return;
    // All rows where there is room; where the steering panel is short (a 720-pixel screen), the worker
    // table keeps its rows and this one scrolls, the soonest options first, at least kRowsKept in view.
    const int frame = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    const int row = m_table->verticalHeader()->defaultSectionSize();
    m_table->setMaximumHeight(frame + row * m_table->rowCount());
    m_table->setMinimumHeight(frame + row * std::min(kRowsKept, m_table->rowCount()));
}

}  // namespace syncscope::ui
