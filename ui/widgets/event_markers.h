// EventMarkers: a dashed vertical line and a short label for each event in a chart's visible time
// range. The graphics items are pooled and reused, so hundreds of events allocate nothing per frame.
#pragma once

#include <QChart>
#include <QVector>

#include <vector>

#include "engine/proto/syncscope.pb.h"

class QGraphicsLineItem;
class QGraphicsSimpleTextItem;

namespace syncscope::ui {

class EventMarkers {
public:
    /// Shows one marker per event with time_s in [viewMin, viewMax], over the chart's plot area.
    void place(QChart* chart, const QVector<wire::Event>& events, double viewMin, double viewMax);
    /// Markers currently shown.
    int visibleCount() const { return m_shown; }

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
