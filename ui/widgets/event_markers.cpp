// EventMarkers (see event_markers.h): placed in the chart's coordinates, drawn by one cached item.
#include "ui/widgets/event_markers.h"

#include <QApplication>
#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QPainter>
#include <QPen>

#include <algorithm>
#include <cmath>

#include "engine/telemetry/event_kind.h"
#include "ui/widgets/event_labels.h"

namespace syncscope::ui {
namespace {
constexpr int kMarkerLabelRows = 3;  // labels of nearby events stagger over this many rows
constexpr int kMarkerLabelChars = 28;
constexpr double kLabelGap = 4.0;       // pixels kept free between two labels on one row
constexpr double kHoverWidth = 7.0;     // a dashed 1 px line is hard to hover; its hover band is wider
constexpr int kBurstToolTipEvents = 8;  // a burst's label lists this many of its events on hover
constexpr double kLabelScale = 0.8;     // of the application's font
const QColor kLineColor(90, 90, 90, 180);
const QColor kLabelColor(60, 60, 60);

QString elided(QString text) {
    if (text.size() > kMarkerLabelChars) text = text.left(kMarkerLabelChars - 1) + QChar(0x2026);
    return text;
}

QFont labelFont() {
    QFont font = QApplication::font();
    font.setPointSizeF(font.pointSizeF() * kLabelScale);
    return font;
}
}  // namespace

// Every marker of one chart. Cached as a picture of the plot area: drawn again only when the
// markers change, not when the series under them do.
class EventMarkers::Layer : public QGraphicsItem {
public:
    explicit Layer(QGraphicsItem* parent) : QGraphicsItem(parent) {
        setCacheMode(QGraphicsItem::DeviceCoordinateCache);
        setZValue(10);  // above the series
        setAcceptedMouseButtons(Qt::NoButton);
    }
    void show(const QRectF& area, std::vector<Marker> markers) {
        if (area != m_area) prepareGeometryChange();
        m_area = area;
        m_markers = std::move(markers);
        update();
    }
    const std::vector<Marker>& markers() const { return m_markers; }
    const QRectF& area() const { return m_area; }
    QRectF boundingRect() const override { return m_area.adjusted(-1, -1, 1, 1); }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override {
        // Cosmetic, not antialiased: the raster engine draws the dashes itself.
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->setPen(QPen(kLineColor, 0.0, Qt::DashLine));
        for (const Marker& marker : m_markers) painter->drawLine(QPointF(marker.x, m_area.top()), QPointF(marker.x, m_area.bottom()));
        painter->setRenderHint(QPainter::TextAntialiasing, true);
        painter->setFont(labelFont());
        painter->setPen(kLabelColor);
        for (const Marker& marker : m_markers)
            if (marker.labelShown) painter->drawText(marker.labelRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, marker.label);
    }

private:
    QRectF m_area;
    std::vector<Marker> m_markers;
};

std::vector<EventMarkers::Marker> EventMarkers::placed(QChart* chart, const QVector<wire::Event>& events, double viewMin,
                                                       double viewMax) const {
    const QRectF area = chart->plotArea();
    const double span = viewMax - viewMin;
    std::vector<qsizetype> order;  // the visible events, left to right
    for (qsizetype i = 0; i < events.size(); ++i)
        if (span > 0.0 && events[i].time_s() >= viewMin && events[i].time_s() <= viewMax) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](qsizetype a, qsizetype b) { return events[a].time_s() < events[b].time_s(); });

    const QFontMetricsF metrics(labelFont());
    const double rowHeight = metrics.height();
    double rowEnd[kMarkerLabelRows];
    std::fill(std::begin(rowEnd), std::end(rowEnd), -1e300);
    std::vector<Marker> markers;
    markers.reserve(order.size());
    // The last label placed, and how many events of its kind it stands for: a burst of events of one
    // kind (workers joining at the start) gets one label, "4 workers joined", not a stack.
    size_t burstLabel = SIZE_MAX;
    int burstRow = 0, burstSize = 0;
    wire::EventKind burstKind = wire::EVENT_KIND_UNSPECIFIED;
    for (const qsizetype i : order) {
        const wire::Event& event = events[i];
        Marker marker;
        marker.x = area.left() + (event.time_s() - viewMin) / span * area.width();
        marker.lineToolTip = EventLabels::toolTip(event);
        const wire::EventKind kind = engine::eventKindOf(event);
        if (burstLabel != SIZE_MAX && kind == burstKind && marker.x <= markers[burstLabel].labelRect.right()) {
            Marker& burst = markers[burstLabel];  // this event's label joins it; its line and tooltip stay
            burst.label = elided(EventLabels::burst(events[order[burstLabel]], ++burstSize));
            if (burstSize <= kBurstToolTipEvents) burst.labelToolTip += QStringLiteral("\n\n") + marker.lineToolTip;
            const double width = metrics.horizontalAdvance(burst.label);
            double left = burst.labelRect.left();
            if (left + width > area.right()) left = std::max(area.left(), area.right() - width);
            burst.labelRect = QRectF(left, burst.labelRect.top(), width, rowHeight);
            rowEnd[burstRow] = burst.labelRect.right();
            markers.push_back(std::move(marker));
            continue;
        }
        marker.label = elided(EventLabels::label(event));
        marker.labelToolTip = marker.lineToolTip;
        // Right of the line, or left of it near the plot's right edge; the first row where it clears
        // the previous label; hidden when no row has room (the line and its tooltip stay).
        const double width = metrics.horizontalAdvance(marker.label);
        double left = marker.x + 2;
        if (left + width > area.right()) left = std::max(area.left(), marker.x - 2 - width);
        int row = 0;
        while (row < kMarkerLabelRows && rowEnd[row] + kLabelGap > left) ++row;
        marker.labelShown = row < kMarkerLabelRows;
        if (marker.labelShown) {
            rowEnd[row] = left + width;
            marker.labelRect = QRectF(left, area.top() + 1 + row * rowHeight, width, rowHeight);
            burstLabel = markers.size();
            burstRow = row;
            burstSize = 1;
            burstKind = kind;
        }
        markers.push_back(std::move(marker));
    }
    return markers;
}

void EventMarkers::place(QChart* chart, const QVector<wire::Event>& events, double viewMin, double viewMax) {
    const QRectF area = chart->plotArea();
    if (m_layer && events.constData() == m_events.constData() && events.size() == m_events.size() &&
        viewMin == m_viewMin && viewMax == m_viewMax && area == m_layer->area())
        return;  // as placed: the cached picture stands
    m_events = events;
    m_viewMin = viewMin;
    m_viewMax = viewMax;
    std::vector<Marker> markers = placed(chart, events, viewMin, viewMax);
    if (!m_layer) m_layer = new Layer(chart);
    if (markers == m_layer->markers() && area == m_layer->area()) return;
    m_layer->show(area, std::move(markers));
}

const std::vector<EventMarkers::Marker>& EventMarkers::markers() const {
    static const std::vector<Marker> none;
    return m_layer ? m_layer->markers() : none;
}

int EventMarkers::visibleCount() const { return int(markers().size()); }

int EventMarkers::visibleLabelCount() const {
    return int(std::count_if(markers().begin(), markers().end(), [](const Marker& m) { return m.labelShown; }));
}

QVector<QRectF> EventMarkers::visibleLabelRects() const {
    QVector<QRectF> rects;
    for (const Marker& marker : markers())
        if (marker.labelShown) rects << m_layer->mapRectToScene(marker.labelRect);
    return rects;
}

QString EventMarkers::labelText(int index) const {
    return index >= 0 && index < visibleCount() ? markers()[size_t(index)].label : QString();
}

QString EventMarkers::toolTip(int index) const {
    return index >= 0 && index < visibleCount() ? markers()[size_t(index)].lineToolTip : QString();
}

QString EventMarkers::toolTipAt(const QPointF& scenePos) const {
    if (!m_layer || !m_layer->isVisible()) return {};
    const QPointF at = m_layer->mapFromScene(scenePos);
    for (const Marker& marker : markers())
        if (marker.labelShown && marker.labelRect.contains(at)) return marker.labelToolTip;
    if (at.y() < m_layer->area().top() || at.y() > m_layer->area().bottom()) return {};
    const Marker* nearest = nullptr;
    for (const Marker& marker : markers())
        if (std::abs(marker.x - at.x()) <= kHoverWidth / 2 && (!nearest || std::abs(marker.x - at.x()) < std::abs(nearest->x - at.x())))
            nearest = &marker;
    return nearest ? nearest->lineToolTip : QString();
}

}  // namespace syncscope::ui
