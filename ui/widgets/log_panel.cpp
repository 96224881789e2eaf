// LogPanel (see log_panel.h).
#include "ui/widgets/log_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace syncscope::ui {

namespace {
constexpr int kHistoryLines = 5000;
}

LogPanel::LogPanel(QWidget* parent)
    : QWidget(parent), m_toggle(new QToolButton(this)), m_newest(new QLabel(this)), m_history(new QPlainTextEdit(this)) {
    m_toggle->setText(tr("Log"));
    m_toggle->setCheckable(true);
    m_toggle->setAutoRaise(true);
    m_toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toggle->setArrowType(Qt::RightArrow);
    m_toggle->setToolTip(tr("Show the whole log"));
    // The newest line, cut to the width there is: it must never widen the window.
    m_newest->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_newest->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_history->setReadOnly(true);
    m_history->setMaximumBlockCount(kHistoryLines);
    m_history->hide();
    auto* header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addWidget(m_toggle);
    header->addWidget(m_newest, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 0, 2, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_history, 1);
    connect(m_toggle, &QToolButton::toggled, this, &LogPanel::setExpanded);
    setExpanded(false);
}

void LogPanel::append(const QString& line) {
    m_history->appendPlainText(line);
    m_newestLine = line;
    showNewest();
}

bool LogPanel::expanded() const { return m_toggle->isChecked(); }

void LogPanel::setExpanded(bool expanded) {
    const bool changed = expanded != m_history->isVisibleTo(this);
    m_toggle->setChecked(expanded);
    m_toggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_toggle->setToolTip(expanded ? tr("Show only the newest line") : tr("Show the whole log"));
    m_history->setVisible(expanded);
    m_newest->setVisible(!expanded);
    // Collapsed, the panel is exactly one line high, and so is the dock that holds it.
    setMaximumHeight(expanded ? QWIDGETSIZE_MAX : m_toggle->sizeHint().height());
    if (changed) emit expandedChanged(expanded);
}

void LogPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    showNewest();
}

void LogPanel::showNewest() {
    m_newest->setText(m_newest->fontMetrics().elidedText(m_newestLine, Qt::ElideRight, std::max(0, m_newest->width())));
    m_newest->setToolTip(m_newestLine);
}

}  // namespace syncscope::ui
