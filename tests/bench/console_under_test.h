// The console benchmark's console: the real TelemetryStore, ConsoleConnection (its NetworkWorker
// thread owns the sockets), ChartsPanel and SteeringPanel, redrawn by the FramePacer (40 ms or more apart) as
// MainWindow does; each frame is timed until the layouts and paints it caused are done.
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <atomic>
#include <functional>
#include <map>
#include <vector>

#include "ui/model/telemetry_store.h"
#include "ui/net/console_connection.h"
#include "ui/widgets/frame_pacer.h"

class QChartView;
class QLineSeries;
class QValueAxis;

namespace syncscope::ui {
class ChartsPanel;
class SteeringPanel;
}  // namespace syncscope::ui

namespace syncscope::bench {

/// Sums the time the GUI thread spends delivering events (outermost notify() calls only): timers,
/// posted events, queued signals, socket notifiers and paints all pass through here.
class BenchApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override;
    void resetBusy() { m_busyNs = 0; }
    double busySeconds() const { return 1e-9 * double(m_busyNs); }

private:
    int m_depth = 0;
    qint64 m_busyNs = 0;
    QElapsedTimer m_clock;
};

/// Counts the ticks the network thread delivers, then hands them to the store.
class CountingSink : public ui::TelemetrySink {
public:
    explicit CountingSink(ui::TelemetryStore& store) : m_store(store) {}
    void ingestTick(const wire::Tick& tick) override;
    void ingestSnapshot(const wire::Snapshot& snapshot) override;
    int ticks() const { return m_ticks.load(); }

private:
    ui::TelemetryStore& m_store;
    std::atomic<int> m_ticks{0};
};

/// What a frame draws into: the real panels, or the naive peer chart.
class FrameView : public QWidget {
public:
    using QWidget::QWidget;
    virtual void showFrame(const ui::TelemetryFrame& frame) = 0;
};

/// The console's charts and steering panel side by side, as in MainWindow.
class RealConsoleView : public FrameView {
public:
    explicit RealConsoleView(ui::ConsoleConnection& connection);
    void showFrame(const ui::TelemetryFrame& frame) override;
    ui::SteeringPanel* steering() const { return m_steering; }
    quint64 lastRequestId() const { return m_lastRequestId; }
    /// Per frame: ms in ChartsPanel::showFrame and in SteeringPanel::showFrame.
    std::vector<double> chartsMs, steeringMs;

private:
    ui::ChartsPanel* m_charts;
    ui::SteeringPanel* m_steering;
    quint64 m_lastRequestId = 0;
};

/// The peer: one chart, a QLineSeries per worker, fed one append() per new sample (what the
/// console must not do: each append re-lays out the whole series).
class NaiveSamplesView : public FrameView {
public:
    NaiveSamplesView();
    void showFrame(const ui::TelemetryFrame& frame) override;

private:
    QChartView* m_view;
    QValueAxis *m_x, *m_y;
    std::map<uint32_t, QLineSeries*> m_series;
    double m_yMax = 1.0;
};

class ConsoleUnderTest : public QObject {
public:
    ConsoleUnderTest();
    ~ConsoleUnderTest() override;

    /// Builds the window around `view` (the real panels by default), 1600 x 1000, shown.
    void setView(FrameView* view);
    FrameView* view() const { return m_view; }
    ui::ConsoleConnection& connection() { return m_connection; }
    ui::TelemetryStore& store() { return m_store; }
    int ticksReceived() const { return m_sink.ticks(); }
    bool attached() const { return m_attached; }

    /// Frame times (ms) recorded while measuring.
    void setMeasuring(bool on) { m_measuring = on; }
    const std::vector<double>& frameMs() const { return m_frameMs; }
    /// Per measured frame: the ms of the layouts and paints it caused (the rest is data in).
    const std::vector<double>& paintMs() const { return m_paintMs; }
    /// Per measured frame: the ms TelemetryStore::frame() took (its mutex is shared with the network thread).
    const std::vector<double>& storeMs() const { return m_storeMs; }
    /// Per measured frame: the GUI thread's CPU time (ms), which other processes on the machine do not inflate.
    const std::vector<double>& frameCpuMs() const { return m_frameCpuMs; }
    /// Called after every frame (drawn and timed) with the frame it showed.
    std::function<void(const ui::TelemetryFrame&)> afterFrame;

private:
    void showLatestFrame();

    ui::TelemetryStore m_store;
    CountingSink m_sink{m_store};
    ui::ConsoleConnection m_connection{m_sink};
    ui::FramePacer m_framePacer{[this] { showLatestFrame(); }};  // as MainWindow paces its frames
    FrameView* m_view = nullptr;
    bool m_attached = false;
    bool m_measuring = false;
    std::vector<double> m_frameMs, m_paintMs, m_storeMs, m_frameCpuMs;
};

/// CPU seconds the calling thread has used.
double threadCpuSeconds();

/// VmRSS of this process in MB, from /proc/self/status; -1 when it cannot be read.
double residentMegabytes();

}  // namespace syncscope::bench
