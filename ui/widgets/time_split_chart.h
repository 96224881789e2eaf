// Per-worker stacked horizontal bars: how its latest iteration split into compute,
// communication and waiting (ms).
#pragma once

#include <QChartView>

#include "ui/model/telemetry_frame.h"

class QBarCategoryAxis;
class QBarSet;
class QValueAxis;

namespace syncscope::ui {

class TimeSplitChart : public QChartView {
    Q_OBJECT

public:
    explicit TimeSplitChart(QWidget* parent = nullptr);

    void showFrame(const TelemetryFrame& frame);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QBarSet* m_compute;
    QBarSet* m_comm;
    QBarSet* m_wait;
    QBarCategoryAxis* m_workerAxis;
    QValueAxis* m_msAxis;
    double m_longest = 0.0;  // the longest iteration shown, in ms
    QList<uint32_t> m_workerIds;  // the workers the bars currently stand for, in order
};

}  // namespace syncscope::ui
