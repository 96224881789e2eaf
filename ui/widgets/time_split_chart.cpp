// TimeSplitChart: three bar sets (compute, communication, waiting), each updated in place when a
// value or two changed and rebuilt in one go when more did (one layout instead of one per bar).
#include "ui/widgets/time_split_chart.h"

#include <QResizeEvent>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <array>

#include "ui/widgets/chart_style.h"

namespace syncscope::ui {

TimeSplitChart::TimeSplitChart(QWidget* parent)
    : QChartView(new QChart, parent),
      m_compute(new QBarSet(tr("compute"))),
      m_comm(new QBarSet(tr("communication"))),
      m_wait(new QBarSet(tr("waiting"))),
      m_workerAxis(new QBarCategoryAxis),
      m_msAxis(new QValueAxis) {
    chart()->setTitle(tr("Time per iteration"));  // compute, communication, waiting: the latest
    placeLegend(chart(), width());
    setRenderHint(QPainter::Antialiasing);

    // A column per worker: its id fits under its bar however low the chart is.
    auto* series = new QStackedBarSeries;
    series->append({m_compute, m_comm, m_wait});
    chart()->addSeries(series);
    m_workerAxis->setTitleText(tr("worker"));
    m_msAxis->setTitleText(tr("ms"));
    m_msAxis->setLabelFormat(kValueFormat);
    chart()->addAxis(m_workerAxis, Qt::AlignBottom);
    chart()->addAxis(m_msAxis, Qt::AlignLeft);
    series->attachAxis(m_workerAxis);
    series->attachAxis(m_msAxis);
    applyCompactStyle(chart());
    applyLiveViewSettings(this);
    connect(chart(), &QChart::plotAreaChanged, this, [this] { setNiceRange(*chart(), m_msAxis, m_longest); });
}

void TimeSplitChart::showFrame(const TelemetryFrame& frame) {
    QList<uint32_t> ids;
    QList<qreal> compute, comm, wait;
    double longest = 0.0;
    for (const auto& [id, worker] : frame.workers) {
        ids << id;
        compute << worker.latest.compute_ms();
        comm << worker.latest.comm_ms();
        wait << worker.latest.wait_ms();
        longest = std::max(longest, compute.last() + comm.last() + wait.last());
    }
    const std::array<std::pair<QBarSet*, const QList<qreal>*>, 3> sets{{{m_compute, &compute}, {m_comm, &comm}, {m_wait, &wait}}};
    if (ids != m_workerIds) {
        m_workerIds = ids;
        QStringList labels;
        for (uint32_t id : ids) labels << QString::number(id);
        m_workerAxis->setCategories(labels);
    }
    // Each QBarSet::replace() lays out every bar of the chart again (64 workers: 192 bars, 192
    // times); past a couple of changes, one rebuild of the set is far cheaper.
    for (auto [set, values] : sets) {
        int changed = set->count() == values->size() ? 0 : int(values->size()) + 1;
        for (int i = 0; i < values->size() && changed <= 2; ++i) changed += set->at(i) != values->at(i);
        if (changed > 2) {
            set->remove(0, set->count());
            set->append(*values);
            continue;
        }
        for (int i = 0; i < values->size(); ++i)
            if (set->at(i) != values->at(i)) set->replace(i, values->at(i));
    }
    m_longest = longest;
    setNiceRange(*chart(), m_msAxis, longest);
}

void TimeSplitChart::resizeEvent(QResizeEvent* event) {
    placeLegend(chart(), event->size().width());
    QChartView::resizeEvent(event);
}

}  // namespace syncscope::ui
