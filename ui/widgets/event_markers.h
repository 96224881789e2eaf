// EventMarkers: a dashed vertical line and a short label (EventLabels) for each event in a chart's
// visible time range; hovering a line or label shows the whole event (auto's decisions: the full
// reason). Labels of nearby events stagger over a few rows; one that would still collide is hidden,
// its line and tooltip stay. A burst of events of one kind shares one label: "4 workers joined".
// All markers of a chart are one graphics item whose picture is cached: a frame that moves no
// marker repaints none (dozens of lines each drawn every frame were the most of a chart's paint).
#pragma once

#include <QChart>
#include <QRectF>
#include <QString>
#include <QVector>

#include <vector>

#include "engine/proto/syncscope.pb.h"

namespace syncscope::ui {

class EventMarkers {
public:
    /// Shows one marker per event with time_s in [viewMin, viewMax], over the chart's plot area.
    void place(QChart* chart, const QVector<wire::Event>& events, double viewMin, double viewMax);
    /// Markers currently shown.
    int visibleCount() const;
    /// Labels currently shown (at most visibleCount(); the others were hidden to avoid overlap).
    int visibleLabelCount() const;
    /// The scene rectangles of the labels currently shown.
    QVector<QRectF> visibleLabelRects() const;
    /// The label text and the hover text of shown marker `index` (0..visibleCount()-1, in time order).
    QString labelText(int index) const;
    QString toolTip(int index) const;
    /// The hover text of the label or line at `scenePos` (a label first); empty when none is there.
    QString toolTipAt(const QPointF& scenePos) const;

    struct Marker {
        double x = 0;          // the line, in the chart's coordinates
        QString label;         // drawn when labelShown; a burst's label counts its events
        QRectF labelRect;      // in the chart's coordinates
        bool labelShown = false;
        QString lineToolTip;   // this event
        QString labelToolTip;  // the events the label stands for
        bool operator==(const Marker&) const = default;
    };

private:
    class Layer;
    std::vector<Marker> placed(QChart* chart, const QVector<wire::Event>& events, double viewMin, double viewMax) const;
    const std::vector<Marker>& markers() const;  // the layer's: it draws them

    Layer* m_layer = nullptr;  // a child item of the chart, which owns it; made by the first place()
    // What the markers were placed for (with the layer's plot area): the same need no new placing.
    // (A shared copy: while it is held, another vector cannot take its place at the same address.)
    QVector<wire::Event> m_events;
    double m_viewMin = 0, m_viewMax = 0;
};

}  // namespace syncscope::ui
