// SteeringPanel: the run's controls (start/pause/resume/stop, sync mode, learning rate, per-worker
// slowdown). Each control emits a wire::ControlRequest; the panel never talks to the network.
#pragma once

#include <QWidget>

#include "engine/proto/syncscope.pb.h"
#include "ui/model/telemetry_frame.h"

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QSlider;
class QSpinBox;
class QTableView;

namespace syncscope::ui {

class WorkerTableModel;

class SteeringPanel : public QWidget {
    Q_OBJECT
public:
    explicit SteeringPanel(QWidget* parent = nullptr);

    void showFrame(const TelemetryFrame& frame);
    /// Start, pause/resume and stop, with their shortcuts, for a menu or toolbar.
    QList<QAction*> runActions() const;

    QComboBox* modeSelector() const { return m_mode; }
    QSlider* groupsSlider() const { return m_groups; }
    /// The slowdown slider of `workerId`'s row (nullptr: no such worker).
    QSlider* slowdownSlider(uint32_t workerId) const;
    void applyMode();

signals:
    void requestReady(const wire::ControlRequest& request);

private:
    QWidget* createRunBox();
    QWidget* createModeBox();
    QWidget* createWorkerBox();
    void rebuildSliders();

    WorkerTableModel* m_workers;
    QTableView* m_table = nullptr;
    QAction *m_start = nullptr, *m_pauseResume = nullptr, *m_stop = nullptr;
    QComboBox *m_mode = nullptr, *m_lrModulation = nullptr;
    QSpinBox* m_staleness = nullptr;
    QDoubleSpinBox* m_learningRate = nullptr;
    QSlider* m_groups = nullptr;
    bool m_paused = false;
};

}  // namespace syncscope::ui
