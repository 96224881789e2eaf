// ElidingLabel (see eliding_label.h).
#include "ui/widgets/eliding_label.h"

#include <QPainter>
#include <QStyle>
#include <QStyleOption>

#include <algorithm>

namespace syncscope::ui {

namespace {
constexpr int kMinimumCharacters = 8;  // a crowded status bar still shows the start of each
}  // namespace

QSize ElidingLabel::minimumSizeHint() const {
    const QSize full = QLabel::minimumSizeHint();
    return {std::min(full.width(), fontMetrics().averageCharWidth() * kMinimumCharacters), full.height()};
}

void ElidingLabel::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRect area = contentsRect();
    const QString shown = fontMetrics().elidedText(text(), Qt::ElideRight, area.width());
    // The whole text on hover when it is cut; the label's own tooltip otherwise (none by default).
    if (const QString tip = shown == text() ? QString() : text(); toolTip() != tip) setToolTip(tip);
    style()->drawItemText(&painter, area, int(alignment()), palette(), isEnabled(), shown, foregroundRole());
}

}  // namespace syncscope::ui
