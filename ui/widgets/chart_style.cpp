// Chart fonts and tick spacing (see chart_style.h).
#include "ui/widgets/chart_style.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QLocale>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace syncscope::ui {

namespace {
constexpr double kTitlePoints = 10.0;  // the chart's title: its name, read first
constexpr double kTextPoints = 8.0;    // tick labels, axis titles and the legend
constexpr double kLabelShare = 1.4;    // the axis length a label needs, in label lengths (itself and a gap)
constexpr double kLegendItemSpacing = 8.0;         // around a legend entry, as Qt Charts lays it out
constexpr double kMinPlotWidthBesideLegend = 220;  // a plot narrower shows too few time labels
const QColor kGridLineColor(226, 226, 226);  // the light theme's
const QColor kAxisLineColor(214, 214, 214);

QFont sized(double points, bool bold = false) {
    QFont font = QApplication::font();
    font.setPointSizeF(points);
    font.setBold(bold);
    return font;
}
}  // namespace

void applyCompactStyle(QChart* chart) {
    chart->setTitleFont(sized(kTitlePoints, true));
    chart->legend()->setFont(sized(kTextPoints));
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    // Numbers as the language writes them (a decimal comma in German), and the label format's
    // text (a unit) as Unicode: without this Qt Charts passes the format through Latin-1.
    chart->setLocalizeNumbers(true);
    chart->setLocale(QLocale());  // the console's language (QLocale::setDefault), not only the system's
    for (QAbstractAxis* axis : chart->axes()) {
        applyCompactStyle(axis);
        useCosmeticLines(axis);
    }
}

void applyCompactStyle(QAbstractAxis* axis) {
    axis->setLabelsFont(sized(kTextPoints));
    axis->setTitleFont(sized(kTextPoints));
}

void useCosmeticLines(QAbstractAxis* axis) {
    // Colours set here, not read from the axis: Qt Charts applies its theme's pens later, and a pen
    // set before that would keep its placeholder colour.
    axis->setGridLinePen(QPen(kGridLineColor, 0.0));
    axis->setMinorGridLinePen(QPen(kGridLineColor, 0.0));
    axis->setLinePen(QPen(kAxisLineColor, 0.0));
}

void placeLegend(QChart* chart, int chartWidthPx) {
    // Beside the plot while the plot keeps room for its time axis; else under it if one row holds
    // every name; else beside it still (under it every name would be cut).
    const QFontMetricsF metrics(chart->legend()->font());
    const double marker = metrics.height() + kLegendItemSpacing;  // the colour box, and a gap
    double column = 0, row = 0;
    for (const QLegendMarker* item : chart->legend()->markers()) {
        const double width = marker + metrics.horizontalAdvance(item->label()) + kLegendItemSpacing;
        column = std::max(column, width);
        row += width;
    }
    const bool beside = chartWidthPx - column >= kMinPlotWidthBesideLegend || row > chartWidthPx;
    const Qt::Alignment where = beside ? Qt::AlignRight : Qt::AlignBottom;
    if (chart->legend()->alignment() != where) chart->legend()->setAlignment(where);
}

void applyLiveViewSettings(QChartView* view) {
    // Working out the region each changed item covers costs more than painting the whole view
    // (stroked shapes of every series), and the painter state needs no saving per item.
    view->setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    view->setOptimizationFlags(QGraphicsView::DontSavePainterState | QGraphicsView::DontAdjustForAntialiasing);
}

int ticksThatFit(double lengthPx, double labelPx) {
    // Qt Charts gives each of the n + 1 labels of n intervals an equal share of the axis and cuts
    // a label longer than its share; a little more than the label leaves a gap.
    if (!(labelPx > 0)) return kMaxTicks;
    return std::clamp(int(lengthPx / (labelPx * kLabelShare)) - 1, 1, kMaxTicks);
}

double labelExtent(const QAbstractAxis* axis, const QString& widest) {
    const QFontMetricsF metrics(axis->labelsFont());
    return axis->orientation() == Qt::Horizontal ? metrics.horizontalAdvance(widest) : metrics.height();
}

double niceStep(double span, int ticks) {
    const double raw = span / std::max(1, ticks);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double factor : {1.0, 2.0, 5.0})
        if (raw <= factor * power * (1.0 + 1e-9)) return factor * power;
    return 10.0 * power;
}

double niceStepThatFits(double span, double lengthPx, double labelPx) {
    double step = niceStep(span, kMaxTicks);
    // Up the 1, 2, 5 ladder until the labels (one per step from the start) each have their share.
    for (int guard = 0; guard < 30 && (std::floor(span / step + 1e-9) + 1) * labelPx * kLabelShare > lengthPx && step < span; ++guard)
        step = niceStep(step * 1.5, 1);
    return step;
}

void setNiceRange(const QChart& chart, QValueAxis* axis, double highest) {
    // Charts call this again when their plot area changes, and a new range changes the plot area (the
    // labels' width): once inside, the range being set stands. Without this, a range whose labels
    // did not fit sent the two back and forth until the stack ran out (the time-split chart with
    // Chinese labels, when the grid was re-arranged: 2 runs of 6 crashed).
    static thread_local bool inside = false;
    if (inside) return;
    inside = true;
    const struct Leave {
        ~Leave() { inside = false; }
    } leave;
    const double top = std::max(1.0, highest * 1.05);
    const QRectF plot = chart.plotArea();
    const double length = axis->orientation() == Qt::Horizontal ? plot.width() : plot.height();
    const QString widest = QString::number(std::ceil(top), 'f', 0);
    const int ticks = length > 0 ? ticksThatFit(length, labelExtent(axis, widest)) : kMaxTicks;
    const double step = niceStep(top, ticks);
    const double max = std::ceil(top / step - 1e-9) * step;
    // Not a finite range (a NaN in the figures): the axis keeps its last one.
    if (!std::isfinite(max) || !(max > 0) || !std::isfinite(step) || !(step > 0)) return;
    // Ticks at the multiples of the step, whatever range the axis has while this changes it.
    if (axis->tickType() == QValueAxis::TicksDynamic && axis->tickInterval() == step && axis->min() == 0.0 && axis->max() == max)
        return;
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(step);
    axis->setRange(0.0, max);
}

QColor whatIfColor(wire::SyncMode mode) {
    switch (mode) {
        case wire::BSP: return QColor(0x44, 0x44, 0x44);
        case wire::SSP: return QColor(0x8c, 0x56, 0x4b);
        case wire::ASP: return QColor(0xd6, 0x27, 0x28);
        case wire::KSYNC: return QColor(0x94, 0x67, 0xbd);
        case wire::KASYNC: return QColor(0xe3, 0x77, 0xc2);
        case wire::GROUPED: return QColor(0x17, 0xbe, 0xcf);
        case wire::ELASTIC: return QColor(0xbc, 0xbd, 0x22);
        default: return QColor(0x7f, 0x7f, 0x7f);
    }
}

}  // namespace syncscope::ui
