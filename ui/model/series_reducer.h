// Min/max reduction of a sorted series to about two points per pixel column, so a chart draws
// spikes faithfully at any zoom without handing Qt Charts more points than it has pixels.
#pragma once

#include <QPointF>
#include <QVector>

namespace syncscope::ui {

// The points of `points` (sorted by x) with x in [xMin, xMax], plus the nearest point outside on
// each side so lines reach the edges, bucketed into `columns` equal-width columns; each non-empty
// column gives its min-y and max-y points in x order (one when they are the same point).
// O(log n) to find the range, then O(points inside it). columns < 1 counts as 1.
QVector<QPointF> reduceMinMax(const QVector<QPointF>& points, double xMin, double xMax, int columns);

}  // namespace syncscope::ui
