// Text and tick spacing shared by the console's charts: compact fonts, so titles, legends and axes
// fit a chart a sixth of a 1280x720 window, and as many ticks as an axis has room for.
#pragma once

#include <QColor>
#include <QString>

#include "engine/proto/syncscope.pb.h"

class QAbstractAxis;
class QChart;
class QChartView;
class QValueAxis;

namespace syncscope::ui {

/// Label formats of value axes. With localised numbers (applyCompactStyle) Qt Charts needs the
/// precision spelled out: it draws no label for a bare "%g".
inline constexpr const char* kValueFormat = "%.6g";
inline constexpr const char* kSecondsFormat = "%.6g s";

/// At most this many tick intervals on any axis, however large the chart.
constexpr int kMaxTicks = 6;

/// Fonts (title, legend, every axis's labels and title) and margins of the console's charts. The
/// presentation view scales these.
void applyCompactStyle(QChart* chart);
/// The same for one axis (an axis not in a chart now, e.g. the one swapped out).
void applyCompactStyle(QAbstractAxis* axis);
/// The axis's line and grid lines in the light theme's colours, one device pixel wide (cosmetic)
/// instead of the theme's 1.0: the same line, but a graphics line item with a wider pen strokes its
/// shape whenever its bounds are asked for, as the view does for every grid line on every repaint.
/// applyCompactStyle(QChart*) does it for the chart's axes; an axis added later needs it too.
void useCosmeticLines(QAbstractAxis* axis);
/// The legend beside the plot (a column: charts have more width than height to spare), or under it
/// in a narrow chart where a column would leave the plot too little room and one row holds every
/// name. Again whenever the chart's width or its series' names change.
void placeLegend(QChart* chart, int chartWidthPx);
/// How a live chart view repaints: every frame changes most of it, so the whole view at once.
void applyLiveViewSettings(QChartView* view);

/// Tick intervals that fit `lengthPx` of an axis whose labels each need `labelPx` along it (and a
/// gap): 1..kMaxTicks.
int ticksThatFit(double lengthPx, double labelPx);

/// The room one label of `axis` needs along it: the width of `widest` on a horizontal axis, a line
/// of its label font on a vertical one.
double labelExtent(const QAbstractAxis* axis, const QString& widest);

/// The colour of a mode's what-if curves (dashed) and its swatch in the what-if panel: one per mode,
/// away from the first worker lines' theme colours.
QColor whatIfColor(wire::SyncMode mode);

/// A 1, 2 or 5 times a power of ten step that cuts `span` into at most `ticks` intervals.
double niceStep(double span, int ticks);

/// The smallest 1, 2 or 5 times a power of ten step (at least span / kMaxTicks) whose labels on an
/// axis over `span` fit `lengthPx` when each needs `labelPx`; for a span that is no multiple of it.
double niceStepThatFits(double span, double lengthPx, double labelPx);

/// 0..highest rounded up to a nice step, with as many ticks as `axis` has room for in `chart`'s
/// plot area; left alone when that is what it shows already (a range change re-lays out the chart).
void setNiceRange(const QChart& chart, QValueAxis* axis, double highest);

}  // namespace syncscope::ui
