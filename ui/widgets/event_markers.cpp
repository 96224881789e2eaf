// EventMarkers (see event_markers.h): lines and labels positioned in the chart's scene coordinates.
#include "ui/widgets/event_markers.h"

#include <QCoreApplication>
#include <QFont>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QPainterPathStroker>
#include <QPen>

#include <algorithm>

#include "engine/telemetry/event_kind.h"

namespace syncscope::ui {
namespace {
constexpr int kMarkerLabelRows = 3;  // labels of nearby events stagger over this many rows
constexpr int kMarkerLabelChars = 28;
constexpr double kLabelGap = 4.0;     // pixels kept free between two labels on one row
constexpr double kHoverWidth = 7.0;   // a dashed 1 px line is hard to hover; its hover band is wider
constexpr int kBurstToolTipEvents = 8;  // a burst's label lists this many of its events on hover

// The marker's line, hoverable over a band a few pixels wide (for its tooltip).
class MarkerLine : public QGraphicsLineItem {
public:
    using QGraphicsLineItem::QGraphicsLineItem;
    QPainterPath shape() const override {
        QPainterPath path(line().p1());
        path.lineTo(line().p2());
        QPainterPathStroker stroker;
        stroker.setWidth(kHoverWidth);
        return stroker.createStroke(path);
    }
    QRectF boundingRect() const override { return shape().boundingRect().united(QGraphicsLineItem::boundingRect()); }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override {
        // A vertical dashed line needs no antialiasing, which would stroke each dash as a polygon:
        // with dozens of markers on every chart, that is a good part of a frame.
        painter->setRenderHint(QPainter::Antialiasing, false);
        QGraphicsLineItem::paint(painter, option, widget);
    }
};

QString elided(QString text) {
    if (text.size() > kMarkerLabelChars) text = text.left(kMarkerLabelChars - 1) + QChar(0x2026);
    return text;
}
}  // namespace

QString EventMarkers::kindName(const wire::Event& event) {
    return QString::fromStdString(engine::eventKindName(engine::eventKindOf(event)));
}

QString EventMarkers::decisionLabel(const wire::Event& event) {
    const wire::AutoDecision& d = event.decision();
    const QString chosen = QString::fromStdString(d.chosen().label());
    switch (engine::eventKindOf(event)) {
        case wire::EVENT_ADVICE: return tr("advice %1: %2").arg(d.advice_id()).arg(chosen);
        case wire::EVENT_ADVICE_ANSWERED:
            return d.accepted() ? tr("advice %1 taken: %2").arg(d.advice_id()).arg(chosen)
                                : tr("advice %1 dismissed").arg(d.advice_id());
        default:
            return d.verdict() == wire::AutoDecision::SWITCHES
                       ? tr("auto: %1").arg(chosen)
                       : tr("auto stays %1").arg(QString::fromStdString(d.current_label()));
    }
}

QString EventMarkers::shortLabel(const wire::Event& event) {
    // A decision's label is its verdict, from its fields; the tooltip has the reason and figures.
    if (event.has_decision()) return elided(decisionLabel(event));
    const QString kind = kindName(event);
    const QString detail = QString::fromStdString(event.detail()).trimmed();
    return elided(detail.isEmpty() ? kind : kind + QLatin1Char(' ') + detail);
}

QString EventMarkers::fullText(const wire::Event& event) {
    QString text = QCoreApplication::translate("syncscope::ui::EventMarkers", "%1 s, version %2: %3")
                       .arg(event.time_s(), 0, 'f', 1)
                       .arg(event.version())
                       .arg(kindName(event));
    if (!event.detail().empty()) text += QLatin1Char('\n') + QString::fromStdString(event.detail());
    return text;
}

EventMarkers::Marker& EventMarkers::markerAt(QChart* chart, int index) {
    while (int(m_markers.size()) <= index) {
        Marker marker{new MarkerLine(chart), new QGraphicsSimpleTextItem(chart)};
        marker.line->setPen(QPen(QColor(90, 90, 90, 180), 1.0, Qt::DashLine));
        marker.line->setZValue(10);
        QFont font = marker.label->font();
        font.setPointSizeF(font.pointSizeF() * 0.8);
        marker.label->setFont(font);
        marker.label->setBrush(QColor(60, 60, 60));
        marker.label->setZValue(11);
        m_markers.push_back(marker);
    }
    return m_markers[size_t(index)];
}

void EventMarkers::place(QChart* chart, const QVector<wire::Event>& events, double viewMin, double viewMax) {
    const QRectF area = chart->plotArea();
    const double span = viewMax - viewMin;
    std::vector<qsizetype> order;  // the visible events, left to right
    for (qsizetype i = 0; i < events.size(); ++i)
        if (span > 0.0 && events[i].time_s() >= viewMin && events[i].time_s() <= viewMax) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](qsizetype a, qsizetype b) { return events[a].time_s() < events[b].time_s(); });

    double rowEnd[kMarkerLabelRows];
    std::fill(std::begin(rowEnd), std::end(rowEnd), -1e300);
    int shown = 0;
    // The last label placed, and how many events of its kind it stands for: a burst of events of
    // one kind (workers joining at the start) gets one label, "worker_joined ×4", not a stack.
    QGraphicsSimpleTextItem* burstLabel = nullptr;
    int burstRow = 0, burstSize = 0;
    wire::EventKind burstKind = wire::EVENT_KIND_UNSPECIFIED;
    for (const qsizetype i : order) {
        const wire::Event& event = events[i];
        const double x = area.left() + (event.time_s() - viewMin) / span * area.width();
        Marker& marker = markerAt(chart, shown++);
        marker.line->setLine(x, area.top(), x, area.bottom());
        marker.line->setVisible(true);
        const QString tip = fullText(event);
        marker.line->setToolTip(tip);
        marker.label->setToolTip(tip);
        const wire::EventKind kind = engine::eventKindOf(event);
        if (burstLabel && kind == burstKind && x <= burstLabel->pos().x() + burstLabel->boundingRect().width()) {
            marker.label->setVisible(false);  // its line and tooltip stay
            burstLabel->setText(elided(tr("%1 ×%2").arg(kindName(event)).arg(++burstSize)));
            if (burstSize <= kBurstToolTipEvents) burstLabel->setToolTip(burstLabel->toolTip() + QStringLiteral("\n\n") + tip);
            const double width = burstLabel->boundingRect().width();
            if (burstLabel->pos().x() + width > area.right())
                burstLabel->setX(std::max(area.left(), area.right() - width));
            rowEnd[burstRow] = burstLabel->pos().x() + width;
            continue;
        }
        marker.label->setText(shortLabel(event));
        // Right of the line, or left of it near the plot's right edge; the first row where it clears
        // the previous label; hidden when no row has room (the line and its tooltip stay).
        const QRectF bounds = marker.label->boundingRect();
        double left = x + 2;
        if (left + bounds.width() > area.right()) left = std::max(area.left(), x - 2 - bounds.width());
        int row = 0;
        while (row < kMarkerLabelRows && rowEnd[row] + kLabelGap > left) ++row;
        marker.label->setVisible(row < kMarkerLabelRows);
        if (row == kMarkerLabelRows) continue;
        rowEnd[row] = left + bounds.width();
        marker.label->setPos(left, area.top() + 1 + row * bounds.height());
        burstLabel = marker.label;
        burstRow = row;
        burstSize = 1;
        burstKind = kind;
    }
    m_shown = shown;
    for (size_t i = size_t(shown); i < m_markers.size(); ++i) {
        m_markers[i].line->setVisible(false);
        m_markers[i].label->setVisible(false);
    }
}

int EventMarkers::visibleLabelCount() const {
    return int(std::count_if(m_markers.begin(), m_markers.begin() + m_shown,
                             [](const Marker& m) { return m.label->isVisible(); }));
}

QVector<QRectF> EventMarkers::visibleLabelRects() const {
    QVector<QRectF> rects;
    for (int i = 0; i < m_shown; ++i)
        if (m_markers[size_t(i)].label->isVisible()) rects << m_markers[size_t(i)].label->sceneBoundingRect();
    return rects;
}

QString EventMarkers::labelText(int index) const {
    return index >= 0 && index < m_shown ? m_markers[size_t(index)].label->text() : QString();
}

QString EventMarkers::toolTip(int index) const {
    return index >= 0 && index < m_shown ? m_markers[size_t(index)].line->toolTip() : QString();
}

}  // namespace syncscope::ui
