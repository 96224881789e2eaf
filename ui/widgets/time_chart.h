// A time-series chart that keeps each series at full resolution and hands Qt Charts only the
// min/max reduction of the visible range (about two points per pixel column, fewer per series once
// dozens of series share a chart), with event markers.
#pragma once

#include <QChartView>
#include <QColor>
#include <QList>
#include <QPointF>
#include <QVector>

#include <vector>

#include "engine/proto/syncscope.pb.h"
#include "ui/widgets/event_markers.h"

class QAbstractAxis;
class QDateTimeAxis;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace syncscope::ui {

struct NamedSeries {
    QString name;
    QVector<QPointF> points;  // x = run time in seconds, sorted
    // Valid: a ghost (a what-if prediction), drawn faint and dashed in this colour and left out of
    // the legend (the what-if panel is its legend).
    QColor ghost = {};
};

class TimeChart : public QChartView {
    Q_OBJECT

public:
    // A chart with more series than this (ghosts not counted) draws 1 px lines without antialiasing.
    static constexpr int kManySeries = 8;
    // Points handed to Qt Charts per frame, per pixel of plot width, over all series: a series gets
    // two per column of kPixelsPerColumn pixels (min and max) until the chart has so many that this
    // budget splits the columns among them, never below kMinColumns. Qt Charts strokes every segment
    // it is given, one at a time: most of a frame's cost. A 2 px line shows no detail finer than 2 px.
    static constexpr int kPixelsPerColumn = 2;
    static constexpr int kPointBudgetPerPixel = 4;
    static constexpr int kMinColumns = 64;
    static int columnsPerSeries(int plotWidth, int seriesCount);

    TimeChart(const QString& title, const QString& yTitle, QWidget* parent = nullptr);

    // Replaces all data (series missing from `series` are removed) and redraws once.
    void setData(const QList<NamedSeries>& series, const QVector<wire::Event>& events);
    void setWallClock(bool wallClock, qint64 startUnixMs);
    void setLogScaleY(bool on);
    // Shows the whole run and keeps showing it as data grows, until the user zooms or pans.
    void resetZoom();

    bool following() const { return m_follow; }
    int markerCount() const;  // event markers currently drawn (events inside the visible range)

protected:
    bool viewportEvent(QEvent* event) override;  // an event marker's hover text
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    struct Entry {
        QString name;
        QVector<QPointF> points;
        QLineSeries* series = nullptr;
        QColor ghost;
    };

    Entry& entryFor(const NamedSeries& named);
    int lineCount() const;  // entries that are not ghosts
    void renameEntry(Entry& entry, const QString& name);
    QAbstractAxis* xAxis() const;
    QAbstractAxis* yAxis() const;
    void swapAxis(QAbstractAxis* from, QAbstractAxis* to, Qt::Alignment alignment);
    double toAxisX(double seconds) const;
    double fromAxisX(double axisX) const;
    void onAxisRangeChanged();
    void onPlotAreaChanged();
    void setViewRange(double minSeconds, double maxSeconds);  // user zoom or pan: stops following
    void refresh();
    double xStep() const;  // the time axis's tick step, as close as its labels have room for
    int yTicks() const;  // and the value axis
    struct YRange {
        double min, max, step;  // step 0: log scale
    };
    YRange yRangeFor(double yMin, double yMax) const;
    bool yRangeChanges(double yMin, double yMax) const;
    void applyYRange(double yMin, double yMax);
    void useThinLines();

    QValueAxis* m_valueX;
    QDateTimeAxis* m_timeX;
    QValueAxis* m_linearY;
    QLogValueAxis* m_logYAxis;
    std::vector<Entry> m_entries;
    QVector<wire::Event> m_events;
    EventMarkers m_markers;
    bool m_wallClock = false;
    bool m_logScale = false;
    qint64 m_startUnixMs = 0;
    bool m_follow = true;
    double m_viewMin = 0.0, m_viewMax = 1.0;  // seconds since the run started
    bool m_applyingRange = false;
    int m_reducedColumns = 0;
    int m_yTicks = 0;  // the value ticks there was room for at the last refresh
    bool m_panning = false;
    QPoint m_panFrom;
};

}  // namespace syncscope::ui
