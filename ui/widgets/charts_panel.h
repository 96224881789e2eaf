// The console's charts in one resizable grid (three rows of two, or two rows of three in a wide,
// low panel): samples/s and staleness per worker, the staleness histogram, training loss, test
// accuracy and each worker's time split, all fed from one frame. Beyond kLinesUpToWorkers workers,
// lines per worker give way to worker x time heatmaps (samples/s, staleness, wait share) and a
// chart of the slowest workers, the one clicked on a heatmap, and the mean. The engine's what-if
// predictions for the other modes are drawn beside the live lines as dashed ghosts.
#pragma once

#include <QColor>
#include <QList>
#include <QSet>
#include <QWidget>

#include <vector>

#include "ui/model/telemetry_frame.h"

class QChartView;
class QComboBox;
class QSplitter;

namespace syncscope::ui {

class StalenessHistogram;
class TimeChart;
class TimeSplitChart;
class WorkerHeatmap;

class ChartsPanel : public QWidget {
    Q_OBJECT

public:
    explicit ChartsPanel(QWidget* parent = nullptr);

    void showFrame(const TelemetryFrame& frame);
    void setWallClockAxis(bool wallClock);
    /// The what-if ghost curves (dashed, one per mode other than the running one) in the samples/s and
    /// staleness charts: whether to draw them, and the options not to.
    void setWhatIf(bool shown, const QSet<QString>& hiddenLabels);
    void setLogScaleLoss(bool on);

    QList<QChartView*> chartViews() const;
    // Total points (or bar values) in the series of the chart with this title; -1 if none has it.
    int pointCount(const QString& chartTitle) const;

    /// Charts per row: 2 (three rows) or 3 (two rows), whichever gives charts the better shape.
    int columns() const { return m_columns; }
    /// The staleness histogram and the time split, or (hidden) four larger charts in two rows:
    /// the presentation view leaves the details out.
    void setDetailsShown(bool shown);
    /// Whether the frame had too many workers for a line each (the heatmaps show).
    bool manyWorkers() const { return m_manyWorkers; }
    QList<WorkerHeatmap*> heatmaps() const;
    /// The worker whose lines are drawn beside the slowest (clicked on a heatmap; UINT32_MAX: none).
    void chooseWorker(uint32_t id);
    uint32_t chosenWorker() const { return m_chosen; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// Puts the charts of gridCharts() into `columns` columns of the grid's rows, the rest hidden.
    void arrange(int columns);
    /// 2 or 3: the grid whose cells are closest to a chart's best shape at the panel's size.
    int bestColumns() const;
    void updateWorkerChoices(const TelemetryFrame& frame);
    QList<TimeChart*> timeCharts() const;
    /// The charts of the grid, in order, for the current number of workers and details setting.
    QList<QWidget*> gridCharts() const;
    void showWorkerLines(const TelemetryFrame& frame);
    struct Ghost {
        const std::string* label;
        const WhatIfSeries* series;  ///< null: kept as an empty series (the running option, or unticked)
        QColor color;
    };
    /// The frame's what-if options offered now, as ghosts to draw.
    QList<Ghost> ghostOptions(const TelemetryFrame& frame) const;
    /// The histogram and the time split, if they are in the grid.
    void showDetails(const TelemetryFrame& frame);

    TimeChart* m_samples;
    TimeChart* m_staleness;
    TimeChart* m_loss;
    TimeChart* m_accuracy;
    StalenessHistogram* m_histogram;
    TimeSplitChart* m_timeSplit;
    WorkerHeatmap *m_samplesMap, *m_stalenessMap, *m_waitMap;
    bool m_manyWorkers = false;
    uint32_t m_chosen = UINT32_MAX;
    std::vector<uint32_t> m_lineWorkers;  // the workers drawn as lines in the last frame
    QComboBox* m_histogramWorker;
    QWidget* m_histogramBox;
    static constexpr int kMaxRows = 3;  // six charts in two columns
    QSplitter* m_rows = nullptr;  // kMaxRows horizontal splitters, the rows; made once
    int m_columns = 0;
    bool m_arrangePending = false;
    bool m_detailsShown = true;
    bool m_wallClock = false;
    bool m_whatIfShown = true;
    QSet<QString> m_whatIfHidden;
    qint64 m_startUnixMs = 0;
    TelemetryFrame m_lastFrame;  // implicitly shared series: a cheap copy, redrawn when a choice changes
};

}  // namespace syncscope::ui
