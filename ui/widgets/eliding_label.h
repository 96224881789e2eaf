// ElidingLabel: a one-line label that a crowded status bar may narrow: it asks for its whole text's
// width, makes do with a little, and then shows what fits with "…", the whole text on hover.
#pragma once

#include <QLabel>

namespace syncscope::ui {

class ElidingLabel : public QLabel {
    Q_OBJECT
public:
    using QLabel::QLabel;

    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

}  // namespace syncscope::ui
