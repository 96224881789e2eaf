// ChartsPanel: a grid of splitters so each chart resizes with the window, two or three charts a row
// as the panel's shape suits, and the per-frame fan-out of one TelemetryFrame to every chart.
#include "ui/widgets/charts_panel.h"

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QComboBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <QXYSeries>

#include <algorithm>
#include <cmath>
#include <utility>

#include "ui/model/worker_selection.h"
#include "ui/widgets/chart_style.h"
#include "ui/widgets/staleness_histogram.h"
#include "ui/widgets/time_chart.h"
#include "ui/widgets/time_split_chart.h"
#include "ui/widgets/worker_heatmap.h"

namespace syncscope::ui {

ChartsPanel::ChartsPanel(QWidget* parent)
    : QWidget(parent),
      m_samples(new TimeChart(tr("Samples/s per worker"), tr("samples/s"))),
      m_staleness(new TimeChart(tr("Staleness (mean per worker)"), tr("versions behind"))),
      m_loss(new TimeChart(tr("Training loss"), tr("loss"))),
      m_accuracy(new TimeChart(tr("Test accuracy"), tr("accuracy (%)"))),
      m_histogram(new StalenessHistogram),
      m_timeSplit(new TimeSplitChart),
      m_samplesMap(new WorkerHeatmap(HeatmapMetric::SamplesPerSecond)),
      m_stalenessMap(new WorkerHeatmap(HeatmapMetric::Staleness)),
      m_waitMap(new WorkerHeatmap(HeatmapMetric::WaitShare)),
      m_histogramWorker(new QComboBox) {
    for (WorkerHeatmap* map : heatmaps()) {
        map->setParent(this);
        map->hide();  // until the workers are too many for a line each
        connect(map, &WorkerHeatmap::workerClicked, this, [this](quint32 id) { chooseWorker(id); });
    }
    m_histogramWorker->addItem(tr("All workers"));
    connect(m_histogramWorker, &QComboBox::currentIndexChanged, this, [this](int index) {
        const QVariant id = m_histogramWorker->itemData(index);
        m_histogram->setWorker(id.isValid() ? std::optional<uint32_t>(id.toUInt()) : std::nullopt);
        m_histogram->showFrame(m_lastFrame);
    });
    m_histogramBox = new QWidget;
    auto* histogramLayout = new QVBoxLayout(m_histogramBox);
    histogramLayout->setContentsMargins(0, 0, 0, 0);
    histogramLayout->setSpacing(0);
    histogramLayout->addWidget(m_histogramWorker);
    histogramLayout->addWidget(m_histogram, 1);
    // One grid for the panel's life: re-arranging moves charts between its rows and never deletes a
    // widget, since a re-arrangement can be asked for while part of the grid is being shown.
    m_rows = new QSplitter(Qt::Vertical, this);
    for (int row = 0; row < kMaxRows; ++row) m_rows->addWidget(new QSplitter(Qt::Horizontal));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_rows);
    arrange(2);
}

void ChartsPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Not now: this resize may come from laying out a chart of the grid as it is being shown. The
    // queued call finds the size the layout settled on.
    if (bestColumns() == m_columns || m_arrangePending) return;
    m_arrangePending = true;
    QMetaObject::invokeMethod(this, [this] {
        m_arrangePending = false;
        if (const int columns = bestColumns(); columns != m_columns) arrange(columns);
    }, Qt::QueuedConnection);
}

int ChartsPanel::bestColumns() const {
    if (!m_detailsShown) return 2;  // four charts: two rows of two
    // The shape a chart reads best in is about 1.6 : 1; take the grid whose cells come closest, and
    // leave the grid as it is unless the other is clearly better (a size near the boundary, as a
    // window's layout settles, must not flip it back and forth).
    constexpr double kBestAspect = 1.6;
    constexpr double kClearlyBetter = 0.05;
    const auto misfit = [this](int columns) {
        const double aspect = (double(width()) / columns) / (double(std::max(1, height())) / (6 / columns));
        return std::abs(std::log(aspect / kBestAspect));
    };
    const int current = m_columns == 3 ? 3 : 2, other = 5 - current;
    return misfit(other) + kClearlyBetter < misfit(current) ? other : current;
}

void ChartsPanel::setDetailsShown(bool shown) {
    if (shown == m_detailsShown) return;
    m_detailsShown = shown;
    arrange(2);  // shows what the grid holds, hides the rest
    arrange(bestColumns());  // the best grid for what is shown
}

QList<QWidget*> ChartsPanel::gridCharts() const {
    if (m_manyWorkers)
        return m_detailsShown ? QList<QWidget*>{m_samplesMap, m_samples, m_stalenessMap, m_waitMap, m_loss, m_accuracy}
                              : QList<QWidget*>{m_samplesMap, m_samples, m_loss, m_accuracy};
    return m_detailsShown ? QList<QWidget*>{m_samples, m_staleness, m_loss, m_accuracy, m_histogramBox, m_timeSplit}
                          : QList<QWidget*>{m_samples, m_staleness, m_loss, m_accuracy};
}

void ChartsPanel::arrange(int columns) {
    m_columns = columns;
    const QList<QWidget*> charts = gridCharts();
    for (QWidget* chart : QList<QWidget*>{m_samples, m_staleness, m_loss, m_accuracy, m_histogramBox, m_timeSplit,
                                          m_samplesMap, m_stalenessMap, m_waitMap})
        if (!charts.contains(chart)) {
            chart->hide();
            chart->setParent(this);  // kept, hidden, out of the grid
        }
    QList<int> rowSizes;
    for (int row = 0; row < kMaxRows; ++row) {
        auto* cells = static_cast<QSplitter*>(m_rows->widget(row));
        const QList<QWidget*> rowCharts = charts.mid(row * columns, columns);
        for (int column = 0; column < rowCharts.size(); ++column) {
            cells->insertWidget(column, rowCharts[column]);  // takes it from another row, or moves it in this one
            rowCharts[column]->show();
        }
        cells->setVisible(!rowCharts.isEmpty());
        cells->setSizes(QList<int>(columns, 1000));  // equal shares, whatever the charts' size hints say
        rowSizes << (rowCharts.isEmpty() ? 0 : 1000);
    }
    m_rows->setSizes(rowSizes);
    showDetails(m_lastFrame);
}

void ChartsPanel::showFrame(const TelemetryFrame& frame) {
    m_lastFrame = frame;
    const qint64 startUnixMs = qint64(frame.header.start_unix_ms());
    if (startUnixMs != m_startUnixMs) {
        m_startUnixMs = startUnixMs;
        setWallClockAxis(m_wallClock);
    }
    const bool many = frame.workers.size() > kLinesUpToWorkers;
    if (many != m_manyWorkers) {
        m_manyWorkers = many;
        m_samples->chart()->setTitle(many ? tr("Samples/s: the slowest workers") : tr("Samples/s per worker"));
        arrange(m_columns);
    }
    showWorkerLines(frame);
    m_loss->setData({{tr("training loss"), frame.trainLoss}}, frame.events);
    m_accuracy->setData({{tr("test accuracy"), frame.testAccuracy}}, frame.events);
    updateWorkerChoices(frame);
    showDetails(frame);
}

void ChartsPanel::showDetails(const TelemetryFrame& frame) {
    // Out of the grid, a chart is not drawn: arrange() gives it the last frame when it comes back.
    if (!m_histogramBox->isHidden()) m_histogram->showFrame(frame);
    if (!m_timeSplit->isHidden()) m_timeSplit->showFrame(frame);
}

void ChartsPanel::showWorkerLines(const TelemetryFrame& frame) {
    QList<NamedSeries> samples, staleness;
    m_lineWorkers = lineWorkers(frame, m_manyWorkers ? m_chosen : UINT32_MAX, m_lineWorkers);
    for (const uint32_t id : m_lineWorkers) {
        const WorkerSeries& worker = frame.workers.at(id);
        samples.append({tr("worker %1").arg(id), worker.samplesPerSecond});
        staleness.append({tr("worker %1").arg(id), worker.stalenessMean});
    }
    const auto ghosts = ghostOptions(frame);
    if (m_manyWorkers)
        samples.append({tr("mean of %n workers", nullptr, int(frame.workers.size())), frame.meanSamplesPerSecond});
    else if (!ghosts.isEmpty())  // the ghosts are per-worker means: the live mean beside them
        samples.append({tr("mean"), frame.meanSamplesPerSecond});
    for (const Ghost& ghost : ghosts) {
        const QString name = tr("if %1").arg(QString::fromStdString(*ghost.label));
        samples.append({name, ghost.series ? ghost.series->samplesPerWorker : QVector<QPointF>{}, ghost.color});
        staleness.append({name, ghost.series ? ghost.series->staleness : QVector<QPointF>{}, ghost.color});
    }
    if (m_manyWorkers)
        for (WorkerHeatmap* map : heatmaps()) map->showFrame(frame);
    m_samples->setData(samples, frame.events);
    if (!m_manyWorkers) m_staleness->setData(staleness, frame.events);
}

QList<ChartsPanel::Ghost> ChartsPanel::ghostOptions(const TelemetryFrame& frame) const {
    QList<Ghost> out;
    if (!m_whatIfShown || !frame.latestWhatIf) return out;
    for (const auto& option : frame.whatIf) {
        // Options of another worker count (ksync K=3 after a worker left) stay in the history, not drawn.
        const bool offered = std::any_of(frame.latestWhatIf->options().begin(), frame.latestWhatIf->options().end(),
                                         [&](const wire::AutoCandidate& c) { return c.label() == option.first; });
        if (!offered) continue;
        // The running option and those unticked keep an empty series: a mode change or a tick then
        // empties one and fills another instead of re-laying out the chart.
        const bool drawn = option.first != frame.latestWhatIf->current_label() &&
                           !m_whatIfHidden.contains(QString::fromStdString(option.first));
        out.append({&option.first, drawn ? &option.second : nullptr, whatIfColor(option.second.latest.settings().mode())});
    }
    return out;
}

void ChartsPanel::setWhatIf(bool shown, const QSet<QString>& hiddenLabels) {
    m_whatIfShown = shown;
    m_whatIfHidden = hiddenLabels;
    showWorkerLines(m_lastFrame);
}

void ChartsPanel::chooseWorker(uint32_t id) {
    m_chosen = id;
    showWorkerLines(m_lastFrame);
}

QList<WorkerHeatmap*> ChartsPanel::heatmaps() const { return {m_samplesMap, m_stalenessMap, m_waitMap}; }

void ChartsPanel::updateWorkerChoices(const TelemetryFrame& frame) {
    if (m_histogramWorker->count() == int(frame.workers.size()) + 1) return;
    const QVariant current = m_histogramWorker->currentData();
    QSignalBlocker blocker(m_histogramWorker);
    while (m_histogramWorker->count() > 1) m_histogramWorker->removeItem(1);
    for (const auto& [id, worker] : frame.workers) m_histogramWorker->addItem(tr("Worker %1").arg(id), id);
    const int index = current.isValid() ? m_histogramWorker->findData(current) : 0;
    m_histogramWorker->setCurrentIndex(std::max(0, index));
    if (index < 0) m_histogram->setWorker(std::nullopt);  // the chosen worker left
}

void ChartsPanel::setWallClockAxis(bool wallClock) {
    m_wallClock = wallClock;
    for (TimeChart* chart : timeCharts()) chart->setWallClock(wallClock, m_startUnixMs);
}

void ChartsPanel::setLogScaleLoss(bool on) { m_loss->setLogScaleY(on); }

QList<TimeChart*> ChartsPanel::timeCharts() const { return {m_samples, m_staleness, m_loss, m_accuracy}; }

QList<QChartView*> ChartsPanel::chartViews() const {
    return {m_samples, m_staleness, m_loss, m_accuracy, m_histogram, m_timeSplit};
}

int ChartsPanel::pointCount(const QString& chartTitle) const {
    for (QChartView* view : chartViews()) {
        if (view->chart()->title() != chartTitle) continue;
        int total = 0;
        for (QAbstractSeries* series : view->chart()->series()) {
            if (auto* xy = qobject_cast<QXYSeries*>(series)) total += xy->count();
            if (auto* bars = qobject_cast<QAbstractBarSeries*>(series))
                for (QBarSet* set : bars->barSets()) total += set->count();
        }
        return total;
    }
    return -1;
}

}  // namespace syncscope::ui
