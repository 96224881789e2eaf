// Bar chart of how stale applied gradients were: tau = 0..31 (the last bar counts tau >= 31),
// summed over all workers or for one selected worker.
#pragma once

#include <QChartView>

#include <optional>

#include "ui/model/telemetry_frame.h"

class QBarSet;
class QCategoryAxis;
class QValueAxis;

namespace syncscope::ui {

class StalenessHistogram : public QChartView {
    Q_OBJECT

public:
    static constexpr int kBuckets = 32;

    explicit StalenessHistogram(QWidget* parent = nullptr);

    void showFrame(const TelemetryFrame& frame);
    // Empty: the sum over all workers. Takes effect with the next showFrame().
    void setWorker(std::optional<uint32_t> workerId);

private:
    // Labels every 1, 2, 5, 10 or 16 buckets, as many as the plot's width has room for.
    void labelBuckets();

    QBarSet* m_counts;
    QCategoryAxis* m_tauAxis;
    QValueAxis* m_countAxis;
    double m_highest = 0.0;
    int m_labelEvery = 0;
    std::optional<uint32_t> m_worker;
};

}  // namespace syncscope::ui
