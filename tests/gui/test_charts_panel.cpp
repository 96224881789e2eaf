// ChartsPanel offscreen: every chart draws its data, time series are reduced to about two points
// per pixel column (also after a zoom), frames replace rather than append, and events get markers.
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QTest>
#include <QValueAxis>
#include <QXYSeries>
#include <QAbstractBarSeries>
#include <QBarSet>
#include <QSplitter>
#include <QVBoxLayout>

#include <cmath>

#include "ui/model/worker_selection.h"
#include "ui/widgets/charts_panel.h"
#include "ui/widgets/worker_heatmap.h"
#include "ui/widgets/time_chart.h"

using namespace syncscope::ui;
namespace wire = syncscope::wire;

namespace {

constexpr int kWorkers = 4;
constexpr int kTicks = 3000;
constexpr double kTickSeconds = 0.1;
const QList<double> kEventTimes{10.0, 50.0, 120.0, 200.0, 280.0};

// The first `ticks` ticks of a synthetic 4-worker run, shaped like a real one (noisy rates,
// falling loss, rising accuracy every 10 ticks).
TelemetryFrame makeFrame(int ticks) {
    TelemetryFrame frame;
    frame.header.set_start_unix_ms(1700000000000);
    for (int w = 0; w < kWorkers; ++w) {
        WorkerSeries& worker = frame.workers[uint32_t(w)];
        worker.id = uint32_t(w);
        for (int i = 0; i < ticks; ++i) {
            const double t = i * kTickSeconds;
            worker.samplesPerSecond.append({t, 100.0 * (w + 1) + 20.0 * std::sin(t / 5.0 + w) + (i * 7919 % 13)});
            worker.stalenessMean.append({t, 0.7 * w + 0.5 * std::sin(t / 20.0 + w)});
        }
        worker.latest.set_worker_id(uint32_t(w));
        worker.latest.set_compute_ms(12.0 + 3.0 * w);
        worker.latest.set_comm_ms(4.0);
        worker.latest.set_wait_ms(2.0 * (kWorkers - w));
        for (int tau = 0; tau < 32; ++tau) worker.latest.add_staleness_histogram(uint64_t(1000.0 * std::exp(-tau / (1.0 + w))));
    }
    for (int i = 0; i < ticks; ++i) {
        const double t = i * kTickSeconds;
        frame.trainLoss.append({t, 2.3 * std::exp(-t / 60.0) + 0.1 + 0.05 * (i * 104729 % 7) / 7.0});
        if (i % 10 == 5) frame.testAccuracy.append({t, 90.0 * (1.0 - std::exp(-t / 50.0))});
    }
    for (double time : kEventTimes) {
        if (time > (ticks - 1) * kTickSeconds) continue;
        wire::Event event;
        event.set_time_s(time);
        event.set_kind(wire::EVENT_MODE);
        event.set_detail("ssp s=3");
        frame.events.append(event);
    }
    return frame;
}

QList<QColor> seriesColors(QChartView* view) {
    QList<QColor> colors;
    for (QAbstractSeries* series : view->chart()->series()) {
        if (auto* xy = qobject_cast<QXYSeries*>(series)) colors << xy->color();
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series))
            for (QBarSet* set : bars->barSets()) colors << set->color();
    }
    return colors;
}

bool near(QColor a, QColor b) {
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) < 60;
}

QPair<double, double> xRange(QChartView* view) {
    auto* axis = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Horizontal).value(0));
    return axis ? qMakePair(axis->min(), axis->max()) : qMakePair(0.0, 0.0);
}

}  // namespace

class TestChartsPanel : public QObject {
    Q_OBJECT

private:
    ChartsPanel m_panel;

    QList<TimeChart*> timeCharts() const {
        QList<TimeChart*> charts;
        for (QChartView* view : m_panel.chartViews())
            if (auto* chart = qobject_cast<TimeChart*>(view)) charts << chart;
        return charts;
    }
    // Bounded by the reduction: two points per plot column per series, plus the edge points.
    void verifyReduced(QChartView* view) {
        const int series = int(view->chart()->series().size());
        const int count = m_panel.pointCount(view->chart()->title());
        const int bound = series * (2 * int(view->chart()->plotArea().width()) + 4);
        QVERIFY2(count > 0 && count <= bound, qPrintable(QString("%1: %2 points, bound %3").arg(view->chart()->title()).arg(count).arg(bound)));
    }

private slots:
    void initTestCase() {
        m_panel.showFrame(makeFrame(kTicks));
        m_panel.resize(1400, 900);
        m_panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&m_panel));
        QTest::qWait(100);  // layout, then the re-reduction for the final plot widths
        QCOMPARE(m_panel.chartViews().size(), 6);
        QCOMPARE(timeCharts().size(), 4);
    }

    void everyChartDrawsItsData() {
        const QImage image = m_panel.grab().toImage();
        const QString path = QDir(QDir::tempPath()).filePath("test_charts_panel.png");
        QVERIFY(image.save(path));
        qInfo() << "screenshot:" << path;
        for (QChartView* view : m_panel.chartViews()) {
            const QRect area = view->mapFromScene(view->chart()->plotArea()).boundingRect();
            const QRect inImage(view->viewport()->mapTo(&m_panel, area.topLeft()), area.size());
            const QList<QColor> colors = seriesColors(view);
            int drawn = 0;
            for (int y = inImage.top(); y <= inImage.bottom(); ++y)
                for (int x = inImage.left(); x <= inImage.right(); ++x) {
                    const QColor pixel = image.pixelColor(x, y);
                    drawn += std::any_of(colors.begin(), colors.end(), [&](QColor c) { return near(pixel, c); });
                }
            QVERIFY2(drawn > 300, qPrintable(QString("%1: %2 pixels in series colours").arg(view->chart()->title()).arg(drawn)));
        }
    }

    void timeSeriesAreReduced() {
        for (TimeChart* chart : timeCharts()) verifyReduced(chart);
        QCOMPARE(m_panel.pointCount(tr("Staleness histogram")), 32);
        QCOMPARE(m_panel.pointCount(tr("Time per iteration")), 3 * kWorkers);
        QCOMPARE(m_panel.pointCount(tr("no such chart")), -1);
    }

    void everyEventInViewHasAMarker() {
        for (TimeChart* chart : timeCharts()) QCOMPARE(chart->markerCount(), int(kEventTimes.size()));
    }

    void zoomReReducesTheVisibleRange() {
        TimeChart* samples = timeCharts().first();
        const QRectF area = samples->chart()->plotArea();
        samples->chart()->zoomIn(QRectF(area.left() + area.width() / 4, area.top(), area.width() / 4, area.height()));
        QTest::qWait(50);
        const auto [lo, hi] = xRange(samples);
        QVERIFY2(lo > 60.0 && hi < 160.0 && hi > lo, qPrintable(QString("zoomed to %1..%2").arg(lo).arg(hi)));
        QVERIFY(!samples->following());
        verifyReduced(samples);
        for (QAbstractSeries* series : samples->chart()->series()) {
            const auto points = static_cast<QXYSeries*>(series)->points();
            const auto outside = std::count_if(points.begin(), points.end(), [&](QPointF p) { return p.x() < lo || p.x() > hi; });
            QVERIFY2(outside <= 2, qPrintable(QString("%1 points outside the view").arg(outside)));
            QVERIFY(points.size() > 20);
        }
        const int inView = int(std::count_if(kEventTimes.begin(), kEventTimes.end(), [&](double t) { return t >= lo && t <= hi; }));
        QCOMPARE(samples->markerCount(), inView);
        QTest::mouseDClick(samples->viewport(), Qt::LeftButton);
        QVERIFY(samples->following());
        QCOMPARE(samples->markerCount(), int(kEventTimes.size()));
    }

    void axisAndScaleSwitches() {
        m_panel.setWallClockAxis(true);
        m_panel.setLogScaleLoss(true);
        QTest::qWait(50);
        for (TimeChart* chart : timeCharts()) {
            QCOMPARE(chart->chart()->axes(Qt::Horizontal).value(0)->type(), QAbstractAxis::AxisTypeDateTime);
            verifyReduced(chart);
            QCOMPARE(chart->markerCount(), int(kEventTimes.size()));
        }
        QCOMPARE(timeCharts().at(2)->chart()->axes(Qt::Vertical).value(0)->type(), QAbstractAxis::AxisTypeLogValue);
        const QString path = QDir(QDir::tempPath()).filePath("test_charts_panel_wallclock_log.png");
        QVERIFY(m_panel.grab().save(path));
        qInfo() << "screenshot:" << path;
        m_panel.setWallClockAxis(false);
        m_panel.setLogScaleLoss(false);
    }

    void framesReplaceAndNeverAppend() {
        int appended = 0, replaced = 0;
        for (TimeChart* chart : timeCharts())
            for (QAbstractSeries* series : chart->chart()->series()) {
                auto* xy = static_cast<QXYSeries*>(series);
                connect(xy, &QXYSeries::pointAdded, this, [&appended] { ++appended; });
                connect(xy, &QXYSeries::pointsReplaced, this, [&replaced] { ++replaced; });
            }
        constexpr int kFrames = 1000;
        QElapsedTimer timer;
        timer.start();
        for (int i = 1; i <= kFrames; ++i) m_panel.showFrame(makeFrame(i * kTicks / kFrames));
        qInfo("%d growing frames (up to %d ticks x %d workers): %lld ms", kFrames, kTicks, kWorkers, timer.elapsed());
        QCOMPARE(appended, 0);
        QCOMPARE(replaced, kFrames * (2 * kWorkers + 2));
        for (TimeChart* chart : timeCharts()) verifyReduced(chart);
    }

    // 64 workers: heatmaps instead of a line each, the slowest 4 and the mean as lines, and a click
    // on a heatmap's row adds that worker's line; back to 4 workers, the lines come back.
    void manyWorkersGetHeatmaps() {
        ChartsPanel panel;
        panel.resize(1400, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        TelemetryFrame frame = makeFrame(600);
        const WorkerSeries model = frame.workers.at(0);
        for (uint32_t id = 0; id < 64; ++id) {
            WorkerSeries& w = frame.workers[id];
            w = model;
            w.id = id;
            for (QPointF& p : w.samplesPerSecond) {
                p.setY(id == 40 ? 50.0 : 1000.0 + id);
                w.computeMs.append({p.x(), 10.0});
                w.commMs.append({p.x(), 1.0});
                w.waitMs.append({p.x(), id == 40 ? 0.0 : 5.0});
            }
        }
        panel.showFrame(frame);
        QTest::qWait(50);  // a new grid shows once the event loop runs
        QVERIFY(panel.manyWorkers());
        for (WorkerHeatmap* map : panel.heatmaps()) {
            QVERIFY2(map->isVisible(), qPrintable(map->title()));
            QVERIFY2(!map->cells().isNull(), qPrintable(map->title()));
        }
        QChartView* samples = panel.chartViews().at(0);
        QCOMPARE(samples->chart()->series().size(), qsizetype(kSlowestShown + 1));  // the slowest, the mean
        QStringList names;
        for (QAbstractSeries* series : samples->chart()->series()) names << series->name();
        QVERIFY2(names.contains("worker 40") && names.contains("mean of 64 workers"), qPrintable(names.join(", ")));
        QVERIFY(!panel.chartViews().at(1)->isVisible());  // staleness lines: the heatmap shows them

        WorkerHeatmap* map = panel.heatmaps().at(0);
        QPoint row;
        for (int y = 0; y < map->height() && row.isNull(); ++y)
            if (map->workerAt({map->width() / 2, y}) == 20) row = {map->width() / 2, y};
        QVERIFY(!row.isNull());
        QTest::mouseClick(map, Qt::LeftButton, {}, row);
        QCOMPARE(panel.chosenWorker(), 20u);
        QCOMPARE(samples->chart()->series().size(), qsizetype(kSlowestShown + 2));

        panel.showFrame(makeFrame(600));
        QTest::qWait(50);
        QVERIFY(!panel.manyWorkers());
        QVERIFY(!map->isVisible());
        QCOMPARE(samples->chart()->series().size(), qsizetype(kWorkers));
    }
    // Regression (a console filling the screen crashed at start): showing a new grid of charts lays
    // the window out again, which can resize the panel across the 2/3-column boundary while the grid
    // is still being shown. The panel re-arranged and deleted that grid from inside its own show
    // (a use-after-free in QWidgetPrivate::setVisible). Here the resize comes from the grid's show.
    void gridSurvivesAResizeWhileItIsShown() {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* panel = new ChartsPanel;
        layout->addWidget(panel);
        panel->showFrame(makeFrame(600));
        window.resize(1200, 800);  // three rows of two
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(50);
        QCOMPARE(panel->columns(), 2);

        struct ResizeOnGridShow : QObject {
            QWidget* window = nullptr;
            QWidget* panel = nullptr;
            int resizes = 0;
            bool eventFilter(QObject* object, QEvent* event) override {
                if (event->type() == QEvent::Show && resizes < 4 && qobject_cast<QSplitter*>(object) &&
                    object->parent() == panel) {
                    ++resizes;  // a wide, low panel wants three columns; a tall one two
                    window->resize(resizes % 2 ? QSize(1200, 800) : QSize(1800, 500));
                    panel->resize(window->size());  // now, as the window's layout would while showing
                }
                return false;
            }
        } filter;
        filter.window = &window;
        filter.panel = panel;
        qApp->installEventFilter(&filter);
        window.resize(1800, 500);
        for (int i = 0; i < 20; ++i) QTest::qWait(10);
        qApp->removeEventFilter(&filter);
        QTest::qWait(50);
        // It settles on the grid for the size it ends with, every chart of that grid shown.
        const int expected = window.width() > 1.5 * window.height() ? 3 : 2;
        QCOMPARE(panel->columns(), expected);
        for (QChartView* view : panel->chartViews()) QVERIFY2(view->isVisible(), qPrintable(view->chart()->title()));
    }
};

QTEST_MAIN(TestChartsPanel)
#include "test_charts_panel.moc"
