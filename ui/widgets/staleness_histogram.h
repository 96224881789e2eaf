// Bar chart of how stale applied gradients were: tau = 0..31 (the last bar counts tau >= 31),
// summed over all workers or for one selected worker.
#pragma once

#include <QChartView>

#include <optional>

#include "ui/model/telemetry_frame.h"

class QBarSet;
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
    // 0..highest rounded up to a 1, 2 or 5 step; left alone when that is the range already.
    static void setNiceRange(QValueAxis* axis, double highest);

private:
    QBarSet* m_counts;
    QValueAxis* m_countAxis;
    std::optional<uint32_t> m_worker;
};

}  // namespace syncscope::ui
