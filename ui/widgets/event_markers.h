// EventMarkers: a dashed vertical line and a short label for each event in a chart's visible time
// range; hovering a line or label shows the whole event (auto's decisions: the full reason).
// Labels of nearby events stagger over a few rows; one that would still collide is hidden, its
// line and tooltip stay. A burst of events of one kind shares one label: "worker_joined ×4". The graphics items are pooled, so hundreds of events allocate nothing per frame.
#pragma once

#include <QChart>
#include <QCoreApplication>
#include <QRectF>
#include <QString>
#include <QVector>

#include <vector>

#include "engine/proto/syncscope.pb.h"

class QGraphicsLineItem;
class QGraphicsSimpleTextItem;

namespace syncscope::ui {

class EventMarkers {
    Q_DECLARE_TR_FUNCTIONS(syncscope::ui::EventMarkers)

public:
    /// Shows one marker per event with time_s in [viewMin, viewMax], over the chart's plot area.
    void place(QChart* chart, const QVector<wire::Event>& events, double viewMin, double viewMax);
    /// Markers currently shown.
    int visibleCount() const { return m_shown; }
    /// Labels currently shown (at most visibleCount(); the others were hidden to avoid overlap).
    int visibleLabelCount() const;
    /// The scene rectangles of the labels currently shown.
    QVector<QRectF> visibleLabelRects() const;
    /// The label text and the hover tooltip of shown marker `index` (0..visibleCount()-1, in time order).
    QString labelText(int index) const;
    QString toolTip(int index) const;

    /// The label drawn on the chart: "kind detail" cut short; auto's and the advisor's decisions
    /// show their verdict only, drawn from the decision's fields.
    static QString shortLabel(const wire::Event& event);
    /// The event's kind as its log name: "mode", "worker_joined".
    static QString kindName(const wire::Event& event);
    /// "auto: ksync K=7", "advice 3: grouped G=2 by speed", "advice 3 dismissed".
    static QString decisionLabel(const wire::Event& event);
    /// The hover text: time, kind and the whole detail.
    static QString fullText(const wire::Event& event);

private:
    struct Marker {
        QGraphicsLineItem* line = nullptr;
        QGraphicsSimpleTextItem* label = nullptr;
    };
    Marker& markerAt(QChart* chart, int index);

    std::vector<Marker> m_markers;  // owned by the chart's scene (items are its children)
    int m_shown = 0;
};

}  // namespace syncscope::ui
