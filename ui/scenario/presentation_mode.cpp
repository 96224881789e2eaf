// PresentationMode (see presentation_mode.h). Each change records how to undo itself, guarded by a
// QPointer, so leaving restores exactly what was there even if a chart rebuilt an axis meanwhile.
#include "ui/scenario/presentation_mode.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QLegend>
#include <QPointer>
#include <QTableView>
#include <QWidget>

#include <algorithm>

namespace syncscope::ui {

namespace {

constexpr double kRowHeightPerLine = 1.4;

QFont scaled(QFont font, double factor) {
    if (font.pointSizeF() > 0) font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0) font.setPixelSize(int(font.pixelSize() * factor + 0.5));
    return font;
}

}  // namespace

void PresentationMode::enter(const QList<QChartView*>& charts, const QList<QWidget*>& enlarge,
                             const QList<QTableView*>& tables, const QList<QWidget*>& hide) {
    if (m_active) leave();
    m_active = true;
    for (QChartView* view : charts) enlargeChart(view);
    for (QWidget* widget : enlarge) enlargeWidget(widget);
    for (QTableView* table : tables) enlargeTable(table);
    for (QWidget* widget : hide) {
        if (!widget || widget->isHidden()) continue;
        widget->hide();
        m_restore.push_back([w = QPointer<QWidget>(widget)] {
            if (w) w->show();
        });
    }
}

void PresentationMode::hideColumns(QTableView* table, const QList<int>& columns) {
    if (!m_active || !table) return;
    for (int column : columns) {
        if (table->isColumnHidden(column)) continue;
        table->hideColumn(column);
        m_restore.push_back([t = QPointer<QTableView>(table), column] {
            if (t) t->showColumn(column);
        });
    }
}

void PresentationMode::leave() {
    for (auto it = m_restore.rbegin(); it != m_restore.rend(); ++it) (*it)();
    m_restore.clear();
    m_active = false;
}

void PresentationMode::enlargeChart(QChartView* view) {
    if (!view || !view->chart()) return;
    QChart* chart = view->chart();
    const QPointer<QChart> guard(chart);
    const QFont title = chart->titleFont(), legend = chart->legend()->font();
    chart->setTitleFont(scaled(title, m_scale));
    chart->legend()->setFont(scaled(legend, m_scale));
    m_restore.push_back([guard, title, legend] {
        if (!guard) return;
        guard->setTitleFont(title);
        guard->legend()->setFont(legend);
    });
    for (QAbstractAxis* axis : chart->axes()) {
        const QPointer<QAbstractAxis> axisGuard(axis);
        const QFont axisTitle = axis->titleFont(), labels = axis->labelsFont();
        axis->setTitleFont(scaled(axisTitle, m_scale));
        axis->setLabelsFont(scaled(labels, m_scale));
        m_restore.push_back([axisGuard, axisTitle, labels] {
            if (!axisGuard) return;
            axisGuard->setTitleFont(axisTitle);
            axisGuard->setLabelsFont(labels);
        });
    }
}

void PresentationMode::enlargeWidget(QWidget* widget) {
    if (!widget) return;
    const bool ownFont = widget->testAttribute(Qt::WA_SetFont);
    const QFont font = widget->font();
    widget->setFont(scaled(font, m_scale));
    m_restore.push_back([w = QPointer<QWidget>(widget), ownFont, font] {
        if (w) w->setFont(ownFont ? font : QFont());  // QFont(): inherit from the parent again
    });
}

void PresentationMode::enlargeTable(QTableView* table) {
    if (!table) return;
    // Recorded before the fonts, so it is undone after them: the rows then fit the normal font again.
    QHeaderView* rows = table->verticalHeader();
    const int rowHeight = rows->defaultSectionSize();
    m_restore.push_back([t = QPointer<QTableView>(table), rowHeight] {
        if (!t) return;
        t->verticalHeader()->setDefaultSectionSize(rowHeight);
        t->resizeRowsToContents();
    });
    enlargeWidget(table);
    // A header with no font of its own inherits the table's, enlarged already.
    if (table->horizontalHeader()->testAttribute(Qt::WA_SetFont)) enlargeWidget(table->horizontalHeader());
    rows->setDefaultSectionSize(std::max(rowHeight, int(table->fontMetrics().height() * kRowHeightPerLine)));
    table->resizeRowsToContents();
}

}  // namespace syncscope::ui
