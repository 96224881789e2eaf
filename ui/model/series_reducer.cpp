// Min/max reduction per pixel column; see series_reducer.h.
#include "ui/model/series_reducer.h"

#include <algorithm>

namespace syncscope::ui {

QVector<QPointF> reduceMinMax(const QVector<QPointF>& points, double xMin, double xMax, int columns) {
    columns = std::max(columns, 1);
    const auto byX = [](const QPointF& p, double x) { return p.x() < x; };
    const auto begin = std::lower_bound(points.cbegin(), points.cend(), xMin, byX);
    const auto end = std::upper_bound(points.cbegin(), points.cend(), xMax,
                                      [](double x, const QPointF& p) { return x < p.x(); });
    QVector<QPointF> out;
    out.reserve(2 * columns + 2);
    if (begin != points.cbegin()) out.append(*(begin - 1));

    // A degenerate range (xMax <= xMin) puts everything inside it into column 0.
    const double scale = xMax > xMin ? columns / (xMax - xMin) : 0.0;
    auto low = begin, high = begin;
    int column = -1;
    const auto flush = [&] {
        if (column < 0) return;
        const auto [first, second] = std::minmax(low, high);
        out.append(*first);
        if (second != first) out.append(*second);
    };
    for (auto it = begin; it != end; ++it) {
        const int c = std::min(static_cast<int>((it->x() - xMin) * scale), columns - 1);
        if (c != column) {
            flush();
            column = c;
            low = high = it;
        } else if (it->y() < low->y()) {
            low = it;
        } else if (it->y() > high->y()) {
            high = it;
        }
    }
    flush();

    if (end != points.cend()) out.append(*end);
    return out;
}

}  // namespace syncscope::ui
