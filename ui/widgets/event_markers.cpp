// EventMarkers (see event_markers.h): lines and labels positioned in the chart's scene coordinates.
#include "ui/widgets/event_markers.h"

#include <QFont>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QPen>

namespace syncscope::ui {
namespace {
constexpr int kMarkerLabelRows = 3;  // labels of nearby events stagger over this many rows
constexpr int kMarkerLabelChars = 28;
}  // namespace

EventMarkers::Marker& EventMarkers::markerAt(QChart* chart, int index) {
    while (int(m_markers.size()) <= index) {
        Marker marker{new QGraphicsLineItem(chart), new QGraphicsSimpleTextItem(chart)};
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
    int shown = 0;
    for (const wire::Event& event : events) {
        if (event.time_s() < viewMin || event.time_s() > viewMax || span <= 0.0) continue;
        const double x = area.left() + (event.time_s() - viewMin) / span * area.width();
        Marker& marker = markerAt(chart, shown);
        marker.line->setLine(x, area.top(), x, area.bottom());
        QString text = QString::fromStdString(event.kind());
        if (!event.detail().empty()) text += ' ' + QString::fromStdString(event.detail());
        if (text.size() > kMarkerLabelChars) text = text.left(kMarkerLabelChars - 1) + QChar(0x2026);
        marker.label->setText(text);
        marker.label->setPos(x + 2, area.top() + 1 + (shown % kMarkerLabelRows) * marker.label->boundingRect().height());
        marker.line->setVisible(true);
        marker.label->setVisible(true);
        ++shown;
    }
    m_shown = shown;
    for (size_t i = size_t(shown); i < m_markers.size(); ++i) {
        m_markers[i].line->setVisible(false);
        m_markers[i].label->setVisible(false);
    }
}

}  // namespace syncscope::ui
