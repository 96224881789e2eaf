// StalenessHistogram: one QBarSet of 32 buckets, its values replaced in place each frame.
#include "ui/widgets/staleness_histogram.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>

namespace syncscope::ui {

StalenessHistogram::StalenessHistogram(QWidget* parent)
    : QChartView(new QChart, parent), m_counts(new QBarSet(tr("gradients"))), m_countAxis(new QValueAxis) {
    chart()->setTitle(tr("Staleness histogram"));
    chart()->setMargins(QMargins(4, 4, 4, 4));
    chart()->legend()->hide();
    setRenderHint(QPainter::Antialiasing);

    auto* series = new QBarSeries;
    series->setBarWidth(0.9);
    for (int i = 0; i < kBuckets; ++i) m_counts->append(0.0);
    series->append(m_counts);
    chart()->addSeries(series);

    QStringList labels;
    for (int i = 0; i < kBuckets - 1; ++i) labels << QString::number(i);
    labels << tr("%1+").arg(kBuckets - 1);
    auto* tauAxis = new QBarCategoryAxis;
    tauAxis->append(labels);
    tauAxis->setTitleText(tr("staleness τ (versions behind)"));
    QFont small = tauAxis->labelsFont();  // 32 buckets: small enough that no label is elided
    small.setPointSizeF(small.pointSizeF() * 0.6);
    tauAxis->setLabelsFont(small);
    m_countAxis->setTitleText(tr("gradients applied"));
    m_countAxis->setLabelFormat("%.0f");
    chart()->addAxis(tauAxis, Qt::AlignBottom);
    chart()->addAxis(m_countAxis, Qt::AlignLeft);
    series->attachAxis(tauAxis);
    series->attachAxis(m_countAxis);
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
    setNiceRange(m_countAxis, *std::max_element(counts.begin(), counts.end()));
}

void StalenessHistogram::setNiceRange(QValueAxis* axis, double highest) {
    // As applyNiceNumbers() would, but computed here and set only when it changes: every range
    // change re-lays out the bars and rebuilds the axis labels.
    const double top = std::max(1.0, highest * 1.05);
    const double raw = top / 5.0;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10.0 * power;
    for (double factor : {1.0, 2.0, 5.0})
        if (raw <= factor * power) {
            step = factor * power;
            break;
        }
    const double max = std::ceil(top / step) * step;
    if (axis->min() == 0.0 && axis->max() == max) return;
    axis->setRange(0.0, max);
    axis->setTickCount(int(std::lround(max / step)) + 1);
}

}  // namespace syncscope::ui
