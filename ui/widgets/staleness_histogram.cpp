// StalenessHistogram: one QBarSet of 32 buckets, its values replaced in place each frame; the τ axis
// labels as many buckets as its width has room for.
#include "ui/widgets/staleness_histogram.h"

#include <QCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>

#include "ui/widgets/chart_style.h"

namespace syncscope::ui {

StalenessHistogram::StalenessHistogram(QWidget* parent)
    : QChartView(new QChart, parent), m_counts(new QBarSet(tr("gradients"))), m_tauAxis(new QCategoryAxis),
      m_countAxis(new QValueAxis) {
    chart()->setTitle(tr("Staleness histogram"));
    chart()->legend()->hide();
    setRenderHint(QPainter::Antialiasing);

    auto* series = new QBarSeries;
    series->setBarWidth(0.9);
    for (int i = 0; i < kBuckets; ++i) m_counts->append(0.0);
    series->append(m_counts);
    chart()->addSeries(series);

    // Bar i stands at x = i: a numeric axis over the buckets, labelled at a spacing that fits.
    m_tauAxis->setTitleText(tr("staleness τ"));
    m_tauAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_tauAxis->setRange(-0.5, kBuckets + 0.5);  // room for the last label, centred on the last bar
    m_countAxis->setTitleText(tr("gradients"));
    m_countAxis->setLabelFormat("%.0f");
    chart()->addAxis(m_tauAxis, Qt::AlignBottom);
    chart()->addAxis(m_countAxis, Qt::AlignLeft);
    series->attachAxis(m_tauAxis);
    series->attachAxis(m_countAxis);
    applyCompactStyle(chart());
    applyLiveViewSettings(this);
    labelBuckets();
    connect(chart(), &QChart::plotAreaChanged, this, [this] {
        labelBuckets();
        setNiceRange(*chart(), m_countAxis, m_highest);
    });
}

void StalenessHistogram::labelBuckets() {
    const QString last = tr("%1+").arg(kBuckets - 1);
    const double room = chart()->plotArea().width() / (2.0 * labelExtent(m_tauAxis, last));  // a label and a gap each
    int every = 16;
    for (int candidate : {1, 2, 5, 10})
        if (kBuckets / candidate + 1 <= room) {
            every = candidate;
            break;
        }
    if (every == m_labelEvery) return;
    m_labelEvery = every;
    for (const QString& label : m_tauAxis->categoriesLabels()) m_tauAxis->remove(label);
    for (int tau = 0; tau + every <= kBuckets - 1; tau += every) m_tauAxis->append(QString::number(tau), tau);
    m_tauAxis->append(last, kBuckets - 1);  // the last bar counts every τ from 31 on
}

void StalenessHistogram::setWorker(std::optional<uint32_t> workerId) { m_worker = workerId; }

void StalenessHistogram::showFrame(const TelemetryFrame& frame) {
    std::array<double, kBuckets> counts{};
    for (const auto& [id, worker] : frame.workers) {
        if (m_worker && *m_worker != id) continue;
        const auto& histogram = worker.latest.staleness_histogram();
        for (int tau = 0; tau < histogram.size(); ++tau) counts[size_t(std::min(tau, kBuckets - 1))] += double(histogram[tau]);
    }
    // Each QBarSet::replace() lays out every bar again; past a couple of changes, one rebuild is cheaper.
    int changed = 0;
    for (int i = 0; i < kBuckets; ++i) changed += m_counts->at(i) != counts[size_t(i)];
    if (changed > 2) {
        m_counts->remove(0, kBuckets);
        m_counts->append(QList<qreal>(counts.begin(), counts.end()));
    } else {
        for (int i = 0; i < kBuckets; ++i)
            if (m_counts->at(i) != counts[size_t(i)]) m_counts->replace(i, counts[size_t(i)]);
    }
    m_highest = *std::max_element(counts.begin(), counts.end());
    setNiceRange(*chart(), m_countAxis, m_highest);
}

}  // namespace syncscope::ui
