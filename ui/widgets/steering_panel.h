// SteeringPanel: the run's controls (start/pause/resume/stop, sync mode and its parameters, groups,
// learning rate, per-worker slowdown and group). Each control emits a wire::ControlRequest; the
// panel never talks to the network.
#pragma once

#include <QWidget>

#include "engine/proto/syncscope.pb.h"
#include "ui/model/telemetry_frame.h"

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QSlider;
class QSpinBox;
class QTableView;
class QTimer;

namespace syncscope::ui {

class WorkerTableModel;

class SteeringPanel : public QWidget {
    Q_OBJECT
public:
    explicit SteeringPanel(QWidget* parent = nullptr);

    /// Shows the frame's workers and, unless the user has unsent edits, the engine's current mode.
    void showFrame(const TelemetryFrame& frame);
    /// Start, pause/resume and stop, with their shortcuts, for a menu or toolbar.
    QList<QAction*> runActions() const;

    QComboBox* modeSelector() const { return m_mode; }
    QSlider* groupsSlider() const { return m_groups; }
    QComboBox* groupBySelector() const { return m_groupBy; }
    QSpinBox* stalenessBox() const { return m_staleness; }
    QComboBox* lrModulationSelector() const { return m_lrModulation; }
    QComboBox* intraGroupSelector() const { return m_intraGroup; }
    QSpinBox* kBox() const { return m_k; }
    QComboBox* barrierSelector() const { return m_barrier; }
    QDoubleSpinBox* rebalanceBox() const { return m_rebalance; }
    QDoubleSpinBox* decisionBox() const { return m_decision; }
    WorkerTableModel* workerTable() const { return m_workers; }
    /// The slowdown slider of `workerId`'s row (nullptr: no such worker).
    QSlider* slowdownSlider(uint32_t workerId) const;

    /// The selected mode with the parameters it uses (the others left at zero).
    wire::ModeSettings modeSettings() const;
    /// Sends set_mode with modeSettings().
    void applyMode();
    /// True while the user has changed the mode controls without applying them.
    bool hasUnsentEdits() const { return m_edited; }

signals:
    void requestReady(const wire::ControlRequest& request);

private:
    QWidget* createRunBox();
    QWidget* createModeBox();
    QWidget* createModeSelector(QWidget* box);
    void createModeParameters(QWidget* box);
    QWidget* createGroupsRow(QWidget* box);
    QWidget* createWorkerBox();
    void rebuildSliders();
    void updateParameters();
    void loadSettings(const wire::ModeSettings& settings);
    void sendGroups();
    void markEdited();
    void showEngineMode(const wire::Tick& tick);

    WorkerTableModel* m_workers;
    QTableView* m_table = nullptr;
    QAction *m_start = nullptr, *m_pauseResume = nullptr, *m_stop = nullptr;
    QFormLayout* m_form = nullptr;
    QComboBox *m_mode = nullptr, *m_lrModulation = nullptr, *m_intraGroup = nullptr, *m_groupBy = nullptr,
              *m_barrier = nullptr;
    QSpinBox *m_staleness = nullptr, *m_k = nullptr;
    QDoubleSpinBox *m_rebalance = nullptr, *m_decision = nullptr, *m_learningRate = nullptr;
    QSlider* m_groups = nullptr;
    QLabel *m_groupsValue = nullptr, *m_engineMode = nullptr;
    QTimer* m_groupsDebounce = nullptr;
    wire::ModeSettings m_engineSettings;  // the engine's mode as last seen in a tick
    bool m_haveEngineSettings = false;
    bool m_edited = false;
    bool m_paused = false;
};

}  // namespace syncscope::ui
