// WorkerHeatmap: one row per worker, one column per slice of the run's time, the colour a worker's
// samples/s, mean staleness or share of time spent waiting in that slice, over the last two minutes. Where 64 or 256 lines
// cannot be told apart, a heatmap shows the slow rows at a glance; a click on a row names its worker.
#pragma once

#include <QElapsedTimer>
#include <QImage>
#include <QTimer>
#include <QWidget>

#include <array>
#include <vector>

#include "ui/model/telemetry_frame.h"

namespace syncscope::ui {

enum class HeatmapMetric { SamplesPerSecond, Staleness, WaitShare };

class WorkerHeatmap : public QWidget {
    Q_OBJECT
public:
    /// Time slices across the window at most (fewer when it holds fewer ticks).
    static constexpr int kColumns = 160;
    /// The most recent seconds of the run shown (a frame's cost stays flat as the run grows).
    static constexpr double kWindowSeconds = 120;
    /// A heatmap is worked out and painted again at most this often (a slice is 0.75 s of run time:
    /// at the engine's 10 Hz the slices bind, in a fast replay this does).
    static constexpr int kMaxRedrawsPerSecond = 4;

    explicit WorkerHeatmap(HeatmapMetric metric, QWidget* parent = nullptr);

    void showFrame(const TelemetryFrame& frame);
    HeatmapMetric metric() const { return m_metric; }
    QString title() const;

    /// The cells drawn: a row per worker (rowWorkers() order), a column per slice; an empty cell
    /// (no figure in that slice) is fully transparent.
    const QImage& cells() const { return m_cells; }
    const std::vector<uint32_t>& rowWorkers() const { return m_rows; }
    /// The value range the colours span: [low, high].
    double low() const { return m_low; }
    double high() const { return m_high; }
    /// The time span shown, in run seconds.
    double windowStart() const { return m_t0; }
    double windowEnd() const { return m_t1; }
    /// The worker of the row at this widget position, or -1.
    int workerAt(const QPoint& position) const;

    /// The colour of t in 0..1 (a perceptual map, dark to light; slow or waiting workers stand out
    /// dark in samples/s and light in staleness and wait share).
    static QRgb colorAt(double t);

signals:
    void workerClicked(quint32 workerId);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    QSize sizeHint() const override { return {360, 220}; }
    QSize minimumSizeHint() const override { return {160, 100}; }

private:
    QRect plotRect() const;
    /// colorAt() at kPaletteSize even steps: a cell's colour is a lookup, not an interpolation.
    static constexpr size_t kPaletteSize = 256;
    static const std::array<QRgb, kPaletteSize>& colorPalette();
    static const QImage& colorBar();

    HeatmapMetric m_metric;
    QImage m_cells;
    std::vector<uint32_t> m_rows;
    std::vector<double> m_sum;  // per cell, kept between frames to spare the allocation
    std::vector<int> m_count;
    double m_low = 0, m_high = 1, m_t0 = 0, m_t1 = 0;
    qint64 m_run = 0;  // the shown run's start (its header), to tell a new run from the same one
    QElapsedTimer m_sinceDrawn;
    QTimer m_deferred;         // draws m_pending when kMaxRedrawsPerSecond allows
    TelemetryFrame m_pending;
};

}  // namespace syncscope::ui
