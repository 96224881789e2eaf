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
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace syncscope::ui {

class ModeEditor;
class WhatIfPanel;
class WorkerTableModel;

class SteeringPanel : public QWidget {
    Q_OBJECT
public:
    explicit SteeringPanel(QWidget* parent = nullptr);

    /// Shows the frame's workers and, unless the user has unsent edits, the engine's current mode.
    void showFrame(const TelemetryFrame& frame);
    /// Start, pause/resume and stop, with their shortcuts, for a menu or toolbar.
    QList<QAction*> runActions() const;

    QComboBox* modeSelector() const;
    /// The mode selector and parameter fields, built from the engine's catalogue.
    ModeEditor* modeEditor() const { return m_editor; }
    /// What each mode would do if switched to now: beside the mode selector, where the choice is made.
    WhatIfPanel* whatIfPanel() const { return m_whatIf; }
    QSlider* groupsSlider() const { return m_groups; }
    QComboBox* groupBySelector() const { return m_groupBy; }
    WorkerTableModel* workerTable() const { return m_workers; }
    /// The table as shown: sorted by a column a person clicked, or (beyond kLinesUpToWorkers
    /// workers, until they click one) slowest first by the lag column, which only shows then;
    /// re-sorted every few seconds.
    QSortFilterProxyModel* sortedWorkers() const { return m_sorted; }
    QTableView* workerView() const { return m_table; }
    /// The slowdown slider of `workerId`'s row (nullptr: no such worker).
    QSlider* slowdownSlider(uint32_t workerId) const;

    /// The selected mode with the parameters it uses (the others left at zero).
    wire::ModeSettings modeSettings() const;
    /// Sends set_mode with modeSettings().
    void applyMode();
    /// True while the user has changed the mode controls without applying them.
    bool hasUnsentEdits() const { return m_edited; }
    /// Whether the console only watches (its credentials hold a view key): steering is disabled.
    bool watchOnly() const { return m_mayWatchOnly; }
    /// A narrow window's table: each worker's id, speed, staleness and slowdown slider; its state,
    /// group and dropped gradients (the charts and heatmaps show them too) are left out.
    void setCompact(bool compact);
    bool compact() const { return m_compact; }
    static QList<int> columnsLeftOutWhenCompact();

signals:
    void requestReady(const wire::ControlRequest& request);

private:
    QWidget* createRunBox();
    QWidget* createModeBox();
    QWidget* createGroupsRow(QWidget* box);
    QWidget* createWorkerBox();
    void fitTableWidth();  // wide enough for every column: the panel never cuts one
    int factorWidth() const;  // room a slowdown cell keeps beside its slider for the factor
    void rebuildSliders();
    void refitSlowdownCells();  // a CPU limit reported, changed or gone: the cells' room follows
    void resort();
    /// Worker rows the table keeps in view however short the panel (the rest scroll).
    static constexpr int kRowsAlwaysShown = 4;
    void keepWorkerRowsInView();
    void updateParameters();
    void loadSettings(const wire::ModeSettings& settings);
    void sendGroups();
    void markEdited();
    void showEngineMode(const wire::Tick& tick);
    void applyRole(const std::string& role);

    WorkerTableModel* m_workers;
    QSortFilterProxyModel* m_sorted;
    QString m_slowdownText = QStringLiteral("10.0");  // the text the slowdown cells keep room for
    QTableView* m_table = nullptr;
    bool m_compact = false;
    bool m_sortChosen = false;  ///< a person clicked a column header: their order stays
    QAction *m_start = nullptr, *m_pauseResume = nullptr, *m_stop = nullptr;
    QFormLayout* m_form = nullptr;
    ModeEditor* m_editor = nullptr;
    WhatIfPanel* m_whatIf = nullptr;
    QComboBox* m_groupBy = nullptr;
    QDoubleSpinBox* m_learningRate = nullptr;
    QSlider* m_groups = nullptr;
    QLabel *m_groupsValue = nullptr, *m_engineMode = nullptr;
    QTimer* m_groupsDebounce = nullptr;
    wire::ModeSettings m_engineSettings;  // the engine's mode as last seen in a tick
    bool m_haveEngineSettings = false;
    bool m_edited = false;
    bool m_paused = false;
    bool m_mayWatchOnly = false;
    QWidget *m_runBox = nullptr, *m_modeBox = nullptr;
};

}  // namespace syncscope::ui
