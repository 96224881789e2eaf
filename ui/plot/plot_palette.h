// The colours of the experiment plots: ten, distinct (Tableau 10), where Qt's default theme repeats
// its colours after five; modes in the delay figures and seeds in the claims' figures.
#pragma once

#include <QColor>
#include <iterator>

namespace syncscope::ui {

inline QColor plotColor(int index) {
    static const QColor palette[] = {QColor(0x4e79a7), QColor(0xf28e2b), QColor(0xe15759), QColor(0x76b7b2),
                                     QColor(0x59a14f), QColor(0xedc948), QColor(0xb07aa1), QColor(0xff9da7),
                                     QColor(0x9c755f), QColor(0xbab0ac)};
    const int n = int(std::size(palette));
    return palette[((index % n) + n) % n];
}

}  // namespace syncscope::ui
