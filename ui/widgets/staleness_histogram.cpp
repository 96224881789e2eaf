// StalenessHistogram: one QBarSet of 32 buckets, its values replaced in place each frame.
#include "ui/widgets/staleness_histogram.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QValueAxis>

#include <algorithm>
#include <array>

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
    double highest = 0.0;
    for (int i = 0; i < kBuckets; ++i) {
        if (m_counts->at(i) != counts[size_t(i)]) m_counts->replace(i, counts[size_t(i)]);
        highest = std::max(highest, counts[size_t(i)]);
    }
    m_countAxis->setRange(0.0, std::max(1.0, highest * 1.05));
    m_countAxis->applyNiceNumbers();
}

}  // namespace syncscope::ui
