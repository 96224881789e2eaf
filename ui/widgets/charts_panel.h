// The console's charts in one resizable grid (three rows of two, or two rows of three in a wide,
// low panel): samples/s and staleness per worker, the staleness histogram, training loss, test
// accuracy and each worker's time split, all fed from one frame.
#pragma once

#include <QList>
#include <QWidget>

#include "ui/model/telemetry_frame.h"

class QChartView;
class QComboBox;
class QSplitter;

namespace syncscope::ui {

class StalenessHistogram;
class TimeChart;
class TimeSplitChart;

class ChartsPanel : public QWidget {
    Q_OBJECT

public:
    explicit ChartsPanel(QWidget* parent = nullptr);

    void showFrame(const TelemetryFrame& frame);
    void setWallClockAxis(bool wallClock);
    void setLogScaleLoss(bool on);

    QList<QChartView*> chartViews() const;
    // Total points (or bar values) in the series of the chart with this title; -1 if none has it.
    int pointCount(const QString& chartTitle) const;

    /// Charts per row: 2 (three rows) or 3 (two rows), whichever gives charts the better shape.
    int columns() const { return m_columns; }
    /// The staleness histogram and the time split, or (hidden) four larger charts in two rows:
    /// the presentation view leaves the details out.
    void setDetailsShown(bool shown);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void arrange(int columns);
    void updateWorkerChoices(const TelemetryFrame& frame);
    QList<TimeChart*> timeCharts() const;

    TimeChart* m_samples;
    TimeChart* m_staleness;
    TimeChart* m_loss;
    TimeChart* m_accuracy;
    StalenessHistogram* m_histogram;
    TimeSplitChart* m_timeSplit;
    QComboBox* m_histogramWorker;
    QWidget* m_histogramBox;
    QSplitter* m_rows = nullptr;
    int m_columns = 0;
    bool m_detailsShown = true;
    bool m_wallClock = false;
    qint64 m_startUnixMs = 0;
    TelemetryFrame m_lastFrame;  // implicitly shared series: a cheap copy, redrawn when a choice changes
};

}  // namespace syncscope::ui
