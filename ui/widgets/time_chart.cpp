// TimeChart: full data kept here, one QXYSeries::replace() per series per refresh with the min/max
// reduction of the visible x range; zoom, pan, follow, hover values, hideable series, event markers.
#include "ui/widgets/time_chart.h"

#include <QResizeEvent>

#include <QCursor>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QHelpEvent>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QTimer>
#include <QToolTip>
#include <QValueAxis>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/model/series_reducer.h"
#include "ui/widgets/chart_style.h"

namespace syncscope::ui {

namespace {
constexpr double kWheelZoomFactor = 0.8;
constexpr double kKeyPanFraction = 0.1;
}  // namespace

TimeChart::TimeChart(const QString& title, const QString& yTitle, QWidget* parent)
    : QChartView(new QChart, parent),
      m_valueX(new QValueAxis(this)),
      m_timeX(new QDateTimeAxis(this)),
      m_linearY(new QValueAxis(this)),
      m_logYAxis(new QLogValueAxis(this)) {
    chart()->setTitle(title);
    placeLegend(chart(), width());
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::HorizontalRubberBand);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(tr("Drag: zoom · Wheel: zoom · Shift+drag or middle drag, ←/→: pan · Double-click: follow the run"));

    // Seconds on every label instead of an axis title: a line of height more for the plot. The SI
    // symbol in every language. Formats need a precision: with localised numbers (chart_style.h) Qt
    // Charts reads "%.Ng" and draws nothing for a bare "%g".
    m_valueX->setLabelFormat(kSecondsFormat);
    m_valueX->setTickType(QValueAxis::TicksDynamic);
    m_valueX->setTickAnchor(0.0);
    m_timeX->setFormat("HH:mm:ss");
    m_linearY->setTitleText(yTitle);
    m_linearY->setLabelFormat(kValueFormat);
    m_linearY->setTickType(QValueAxis::TicksDynamic);
    m_linearY->setTickAnchor(0.0);
    m_logYAxis->setTitleText(yTitle);
    m_logYAxis->setLabelFormat(kValueFormat);
    m_logYAxis->setMinorTickCount(-1);
    for (QAbstractAxis* axis : std::initializer_list<QAbstractAxis*>{m_valueX, m_timeX, m_linearY, m_logYAxis})
        applyCompactStyle(axis);
    chart()->addAxis(m_valueX, Qt::AlignBottom);
    chart()->addAxis(m_linearY, Qt::AlignLeft);
    applyCompactStyle(chart());
    applyLiveViewSettings(this);

    connect(m_valueX, &QValueAxis::rangeChanged, this, &TimeChart::onAxisRangeChanged);
    connect(m_timeX, &QDateTimeAxis::rangeChanged, this, &TimeChart::onAxisRangeChanged);
    connect(chart(), &QChart::plotAreaChanged, this, &TimeChart::onPlotAreaChanged);
}

void TimeChart::setData(const QList<NamedSeries>& series, const QVector<wire::Event>& events) {
    const auto wanted = [&](const Entry& entry) {
        return std::any_of(series.begin(), series.end(), [&](const NamedSeries& named) {
            return named.name == entry.name && named.ghost == entry.ghost;
        });
    };
    const auto known = [&](const NamedSeries& named) {
        return std::any_of(m_entries.begin(), m_entries.end(), [&](const Entry& entry) {
            return entry.name == named.name && entry.ghost == named.ghost;
        });
    };
    // A line whose name went is given to a name that came (the slowest workers change from frame to
    // frame): renaming relabels one legend entry, where a new series re-lays out the chart and its legend.
    // Ghosts keep their own series: each keeps its colour.
    std::vector<size_t> gone;
    for (size_t i = 0; i < m_entries.size(); ++i)
        if (!wanted(m_entries[i])) gone.push_back(i);
    std::vector<bool> used(gone.size(), false);
    for (const NamedSeries& named : series) {
        if (named.ghost.isValid() || known(named)) continue;
        for (size_t k = 0; k < gone.size(); ++k)
            if (!used[k] && !m_entries[gone[k]].ghost.isValid()) {
                renameEntry(m_entries[gone[k]], named.name);
                used[k] = true;
                break;
            }
    }
    for (size_t k = gone.size(); k-- > 0;) {
        if (used[k]) continue;
        delete m_entries[gone[k]].series;  // QChart forgets a deleted series
        m_entries.erase(m_entries.begin() + qsizetype(gone[k]));
    }
    for (const NamedSeries& named : series) entryFor(named).points = named.points;
    chart()->legend()->setVisible(lineCount() > 1);  // one series: the chart's title names it
    placeLegend(chart(), width());  // names may have come or gone
    m_events = events;
    refresh();
}

void TimeChart::renameEntry(Entry& entry, const QString& name) {
    entry.name = name;
    entry.series->setName(name);
    if (entry.series->isVisible()) return;
    entry.series->setVisible(true);  // hidden for the worker it showed, not for this one
    for (QLegendMarker* marker : chart()->legend()->markers(entry.series)) {
        QFont font = marker->font();
        font.setStrikeOut(false);
        marker->setFont(font);
    }
}

int TimeChart::lineCount() const {
    return int(std::count_if(m_entries.begin(), m_entries.end(), [](const Entry& e) { return !e.ghost.isValid(); }));
}

TimeChart::Entry& TimeChart::entryFor(const NamedSeries& named) {
    const QString& name = named.name;
    for (Entry& entry : m_entries)
        if (entry.name == name && entry.ghost == named.ghost) return entry;
    auto* series = new QLineSeries;
    series->setName(name);
    chart()->addSeries(series);
    if (named.ghost.isValid()) {
        QColor faint = named.ghost;
        faint.setAlphaF(0.55f);
        QPen pen(faint, 1.5, Qt::DashLine);
        pen.setCosmetic(true);
        series->setPen(pen);
        for (QLegendMarker* marker : chart()->legend()->markers(series)) marker->setVisible(false);
    } else if (lineCount() + 1 > kManySeries) {
        useThinLines();
    }
    series->attachAxis(xAxis());
    series->attachAxis(yAxis());
    connect(series, &QXYSeries::hovered, this, [this, series](const QPointF& point, bool state) {
        if (!state) return QToolTip::hideText();
        const double seconds = fromAxisX(point.x());
        const QString time = m_wallClock
            ? QDateTime::fromMSecsSinceEpoch(qint64(point.x())).toString("HH:mm:ss.zzz")
            : tr("%1 s").arg(seconds, 0, 'f', 2);
        QToolTip::showText(QCursor::pos(), tr("%1\n%2\n%3").arg(series->name(), time).arg(point.y(), 0, 'g', 5), this);
    });
    for (QLegendMarker* marker : chart()->legend()->markers(series)) {
        if (named.ghost.isValid()) break;
        connect(marker, &QLegendMarker::clicked, this, [this, series, marker] {
            series->setVisible(!series->isVisible());
            marker->setVisible(true);  // hiding a series hides its marker too; keep it clickable
            QFont font = marker->font();
            font.setStrikeOut(!series->isVisible());
            marker->setFont(font);
            refresh();
        });
    }
    m_entries.push_back({name, {}, series, named.ghost});
    return m_entries.back();
}

void TimeChart::useThinLines() {
    // Dozens of overlapping lines: antialiased 2 px strokes cost more than they show.
    setRenderHint(QPainter::Antialiasing, false);
    for (QAbstractSeries* series : chart()->series()) {
        auto* line = static_cast<QLineSeries*>(series);
        if (line->pen().widthF() == 1.0 || line->pen().style() != Qt::SolidLine) continue;  // ghosts stay as they are
        QPen pen = line->pen();
        pen.setWidthF(1.0);
        line->setPen(pen);
    }
}

QAbstractAxis* TimeChart::xAxis() const { return m_wallClock ? static_cast<QAbstractAxis*>(m_timeX) : m_valueX; }
QAbstractAxis* TimeChart::yAxis() const { return m_logScale ? static_cast<QAbstractAxis*>(m_logYAxis) : m_linearY; }

void TimeChart::swapAxis(QAbstractAxis* from, QAbstractAxis* to, Qt::Alignment alignment) {
    m_applyingRange = true;
    chart()->removeAxis(from);
    from->setParent(this);  // removeAxis gives the axis back; keep owning it
    chart()->addAxis(to, alignment);
    useCosmeticLines(to);
    for (Entry& entry : m_entries) entry.series->attachAxis(to);
    m_applyingRange = false;
}

void TimeChart::setWallClock(bool wallClock, qint64 startUnixMs) {
    m_startUnixMs = startUnixMs;
    if (wallClock != m_wallClock) {
        QAbstractAxis* from = xAxis();
        m_wallClock = wallClock;
        swapAxis(from, xAxis(), Qt::AlignBottom);
    }
    refresh();
}

void TimeChart::setLogScaleY(bool on) {
    if (on == m_logScale) return;
    QAbstractAxis* from = yAxis();
    m_logScale = on;
    swapAxis(from, yAxis(), Qt::AlignLeft);
    refresh();
}

void TimeChart::resetZoom() {
    m_follow = true;
    refresh();
}

int TimeChart::markerCount() const { return m_markers.visibleCount(); }

double TimeChart::toAxisX(double seconds) const { return m_wallClock ? double(m_startUnixMs) + 1000.0 * seconds : seconds; }
double TimeChart::fromAxisX(double axisX) const { return m_wallClock ? (axisX - double(m_startUnixMs)) / 1000.0 : axisX; }

void TimeChart::onAxisRangeChanged() {
    if (m_applyingRange) return;  // our own refresh, not the user's zoom
    const double lo = m_wallClock ? double(m_timeX->min().toMSecsSinceEpoch()) : m_valueX->min();
    const double hi = m_wallClock ? double(m_timeX->max().toMSecsSinceEpoch()) : m_valueX->max();
    // Qt Charts emits from inside its own zoom; reduce once it has finished.
    QTimer::singleShot(0, this, [this, lo, hi] { setViewRange(fromAxisX(lo), fromAxisX(hi)); });
}

void TimeChart::onPlotAreaChanged() {
    m_markers.place(chart(), m_events, m_viewMin, m_viewMax);
    // A new width needs a new reduction, a new height perhaps another count of value ticks.
    const auto stale = [this] { return int(chart()->plotArea().width()) != m_reducedColumns || yTicks() != m_yTicks; };
    if (stale())
        QTimer::singleShot(0, this, [this, stale] {
            if (stale()) refresh();
        });
}

void TimeChart::setViewRange(double minSeconds, double maxSeconds) {
    if (!(maxSeconds > minSeconds)) return;
    m_follow = false;
    m_viewMin = minSeconds;
    m_viewMax = maxSeconds;
    refresh();
}

void TimeChart::refresh() {
    if (m_follow) {
        double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
        for (const Entry& entry : m_entries) {
            if (entry.points.isEmpty()) continue;
            lo = std::min(lo, entry.points.first().x());
            hi = std::max(hi, entry.points.last().x());
        }
        if (lo > hi) lo = 0.0, hi = 1.0;
        if (lo > 0.0 && lo < hi - lo) lo = 0.0;  // from the start of the run: the first tick label is 0
        if (hi - lo < 1e-9) hi = lo + 1.0;
        // Room to grow, half a tick step: the axes (their labels, the chart's layout and every
        // series with them) then change every few seconds of the run instead of every frame.
        const double room = niceStep(hi - lo, kMaxTicks) / 2;
        hi = lo + std::ceil((hi - lo) / room) * room;
        m_viewMin = lo;
        m_viewMax = hi;
    }
    m_reducedColumns = int(chart()->plotArea().width());
    m_yTicks = yTicks();
    const int columns = columnsPerSeries(m_reducedColumns, int(m_entries.size()));
    // Axes first, then one replace() per series: each change re-lays out every series in Qt Charts.
    double yMin = std::numeric_limits<double>::max(), yMax = std::numeric_limits<double>::lowest();
    std::vector<QVector<QPointF>> reduced;
    for (const Entry& entry : m_entries) {
        QVector<QPointF> points = reduceMinMax(entry.points, m_viewMin, m_viewMax, columns);
        if (m_logScale) points.removeIf([](const QPointF& p) { return !(p.y() > 0.0); });
        for (QPointF& point : points) {
            if (entry.series->isVisible() && point.x() >= m_viewMin && point.x() <= m_viewMax) {
                yMin = std::min(yMin, point.y());
                yMax = std::max(yMax, point.y());
            }
            point.setX(toAxisX(point.x()));
        }
        reduced.push_back(std::move(points));
    }
    // A range change re-lays out every series with its old points, and each replace() lays out its
    // series again: with many series, empty them first so each is laid out (and stroked) once.
    const bool xChanges = m_wallClock
        ? m_timeX->min() != QDateTime::fromMSecsSinceEpoch(qint64(toAxisX(m_viewMin)))
              || m_timeX->max() != QDateTime::fromMSecsSinceEpoch(qint64(std::ceil(toAxisX(m_viewMax))))
        : m_valueX->min() != m_viewMin || m_valueX->max() != m_viewMax;
    if (xChanges || yRangeChanges(yMin, yMax))
        for (Entry& entry : m_entries) entry.series->clear();
    m_applyingRange = true;
    if (m_wallClock) {
        m_timeX->setTickCount(1 + ticksThatFit(chart()->plotArea().width(), labelExtent(m_timeX, QStringLiteral("88:88:88"))));
        m_timeX->setRange(QDateTime::fromMSecsSinceEpoch(qint64(toAxisX(m_viewMin))),
                          QDateTime::fromMSecsSinceEpoch(qint64(std::ceil(toAxisX(m_viewMax)))));
    } else {
        m_valueX->setTickInterval(xStep());
        m_valueX->setRange(m_viewMin, m_viewMax);
    }
    applyYRange(yMin, yMax);
    m_applyingRange = false;
    for (size_t i = 0; i < m_entries.size(); ++i) m_entries[i].series->replace(reduced[i]);
    m_markers.place(chart(), m_events, m_viewMin, m_viewMax);
}

TimeChart::YRange TimeChart::yRangeFor(double yMin, double yMax) const {
    if (m_logScale) {
        if (yMin > yMax) yMin = 0.1, yMax = 1.0;
        return {yMin / 1.5, yMax * 1.5, 0.0};
    }
    if (yMin > yMax) yMin = 0.0, yMax = 1.0;
    yMin = std::min(0.0, yMin);  // rates, staleness, loss and accuracy all read best from zero
    if (yMax - yMin < 1e-9) yMax = yMin + 1.0;
    // Rounded to the tick step by hand: applyNiceNumbers() would be a second re-layout per frame.
    const double step = niceStep(yMax - yMin, yTicks());
    return {std::floor(yMin / step) * step, std::ceil(yMax / step) * step, step};
}

bool TimeChart::yRangeChanges(double yMin, double yMax) const {
    const YRange range = yRangeFor(yMin, yMax);
    return m_logScale ? m_logYAxis->min() != range.min || m_logYAxis->max() != range.max
                      : m_linearY->min() != range.min || m_linearY->max() != range.max;
}

void TimeChart::applyYRange(double yMin, double yMax) {
    const YRange range = yRangeFor(yMin, yMax);
    if (m_logScale) {
        m_logYAxis->setRange(range.min, range.max);
        return;
    }
    m_linearY->setTickInterval(range.step);
    m_linearY->setRange(range.min, range.max);
}

double TimeChart::xStep() const {
    // As wide as the longest label: the tick values' integer digits, and a fraction on a short span.
    const double largest = std::max(std::abs(m_viewMin), std::abs(m_viewMax));
    const int digits = int(std::floor(std::log10(std::max(1.0, largest)))) + 1 + (m_viewMax - m_viewMin < kMaxTicks ? 2 : 0);
    static const QRegularExpression number(QStringLiteral("%\\.\\d+g"));
    const QString widest = QString::fromLatin1(kSecondsFormat).replace(number, QString(digits, QLatin1Char('8')));
    return niceStepThatFits(m_viewMax - m_viewMin, chart()->plotArea().width(), labelExtent(m_valueX, widest));
}

int TimeChart::yTicks() const {
    return ticksThatFit(chart()->plotArea().height(), labelExtent(m_linearY, QStringLiteral("8")));
}

int TimeChart::columnsPerSeries(int plotWidth, int seriesCount) {
    const int full = std::max(16, plotWidth / kPixelsPerColumn);
    if (seriesCount <= 0) return full;
    return std::clamp(kPointBudgetPerPixel * plotWidth / (2 * seriesCount), std::min(kMinColumns, full), full);
}

bool TimeChart::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const QString text = m_markers.toolTipAt(mapToScene(help->pos())); !text.isEmpty()) {
            QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
    }
    return QChartView::viewportEvent(event);
}

void TimeChart::wheelEvent(QWheelEvent* event) {
    const QRectF area = chart()->plotArea();
    const double fraction = std::clamp((event->position().x() - area.left()) / area.width(), 0.0, 1.0);
    const double anchor = m_viewMin + fraction * (m_viewMax - m_viewMin);
    const double factor = event->angleDelta().y() > 0 ? kWheelZoomFactor : 1.0 / kWheelZoomFactor;
    setViewRange(anchor - (anchor - m_viewMin) * factor, anchor + (m_viewMax - anchor) * factor);
    event->accept();
}

void TimeChart::mousePressEvent(QMouseEvent* event) {
    const bool pan = event->button() == Qt::MiddleButton
                     || (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (!pan) return QChartView::mousePressEvent(event);
    m_panning = true;
    m_panFrom = event->pos();
    event->accept();
}

void TimeChart::mouseMoveEvent(QMouseEvent* event) {
    if (!m_panning) return QChartView::mouseMoveEvent(event);
    const double secondsPerPixel = (m_viewMax - m_viewMin) / std::max(1.0, chart()->plotArea().width());
    const double shift = (m_panFrom.x() - event->pos().x()) * secondsPerPixel;
    m_panFrom = event->pos();
    setViewRange(m_viewMin + shift, m_viewMax + shift);
    event->accept();
}

void TimeChart::mouseReleaseEvent(QMouseEvent* event) {
    if (!m_panning) return QChartView::mouseReleaseEvent(event);
    m_panning = false;
    event->accept();
}

void TimeChart::mouseDoubleClickEvent(QMouseEvent* event) {
    resetZoom();
    event->accept();
}

void TimeChart::keyPressEvent(QKeyEvent* event) {
    const double span = m_viewMax - m_viewMin;
    switch (event->key()) {
    case Qt::Key_Left: setViewRange(m_viewMin - kKeyPanFraction * span, m_viewMax - kKeyPanFraction * span); break;
    case Qt::Key_Right: setViewRange(m_viewMin + kKeyPanFraction * span, m_viewMax + kKeyPanFraction * span); break;
    case Qt::Key_Plus: setViewRange(m_viewMin + 0.1 * span, m_viewMax - 0.1 * span); break;
    case Qt::Key_Minus: setViewRange(m_viewMin - 0.125 * span, m_viewMax + 0.125 * span); break;
    case Qt::Key_Home: resetZoom(); break;
    default: return QChartView::keyPressEvent(event);
    }
    event->accept();
}

void TimeChart::resizeEvent(QResizeEvent* event) {
    placeLegend(chart(), event->size().width());
    QChartView::resizeEvent(event);
}

}  // namespace syncscope::ui
