// SteeringPanel (see steering_panel.h).
#include "ui/widgets/steering_panel.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <google/protobuf/util/message_differencer.h>

#include <algorithm>

#include "ui/model/sync_mode_catalog.h"
#include "ui/net/control_requests.h"
#include "ui/widgets/worker_table_model.h"

namespace syncscope::ui {

namespace {
constexpr int kSliderStepsPerUnit = 10;  // slider positions 10..100 are factors 1.0..10.0
constexpr int kGroupsDebounceMs = 400;   // keyboard and wheel steps of the groups slider send once
constexpr uint32_t kDefaultGroups = 2;   // the engine's G when ModeSettings.group_count is 0
constexpr double kDefaultRebalanceSeconds = 2.0, kDefaultDecisionSeconds = 5.0;

// The group cell's editor: a spin box over the current groups 0..G-1.
class GroupDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex& index) const override {
        auto* editor = new QSpinBox(parent);
        editor->setRange(0, std::max(0, index.data(WorkerTableModel::GroupCountRole).toInt() - 1));
        editor->setFrame(false);
        return editor;
    }
};

// The engine's mode in a few characters, as its events name it ("grouped G=2 bsp", "ksync K=7").
QString modeLabel(const wire::ModeSettings& s) {
    QString text = QString::fromStdString(wire::SyncMode_Name(s.mode())).toLower();
    const QString bound = QStringLiteral(" s=%1").arg(s.staleness_bound());
    switch (s.mode()) {
        case wire::SSP: return text + bound;
        case wire::GROUPED:
            text += QStringLiteral(" G=%1").arg(s.group_count() ? s.group_count() : kDefaultGroups);
            return text + (s.intra_group_ssp() ? QStringLiteral(" ssp") + bound : QStringLiteral(" bsp"));
        case wire::KSYNC:
        case wire::KASYNC: return text + QStringLiteral(" K=%1").arg(s.k());
        case wire::ELASTIC: return text + (s.elastic_slack() ? QStringLiteral(" slack") + bound : QStringLiteral(" enforced"));
        default: return text;
    }
}

}  // namespace

SteeringPanel::SteeringPanel(QWidget* parent) : QWidget(parent), m_workers(new WorkerTableModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(createRunBox());
    layout->addWidget(createModeBox());
    layout->addWidget(createWorkerBox(), 1);
}

QWidget* SteeringPanel::createRunBox() {
    auto* box = new QGroupBox(tr("Run"), this);
    auto* row = new QHBoxLayout(box);
    m_start = new QAction(tr("Start"), this);
    m_start->setShortcut(QKeySequence(tr("Ctrl+Return")));
    m_pauseResume = new QAction(tr("Pause"), this);
    m_pauseResume->setShortcut(QKeySequence(tr("Space")));
    m_stop = new QAction(tr("Stop"), this);
    m_stop->setShortcut(QKeySequence(tr("Ctrl+.")));
    connect(m_start, &QAction::triggered, this, [this] { emit requestReady(startRequest()); });
    connect(m_pauseResume, &QAction::triggered, this,
            [this] { emit requestReady(m_paused ? resumeRequest() : pauseRequest()); });
    connect(m_stop, &QAction::triggered, this, [this] { emit requestReady(stopRequest()); });
    for (QAction* action : runActions()) {
        action->setToolTip(QStringLiteral("%1 (%2)").arg(action->text(), action->shortcut().toString(QKeySequence::NativeText)));
        auto* button = new QToolButton(box);
        button->setDefaultAction(action);
        row->addWidget(button);
    }
    return box;
}

QWidget* SteeringPanel::createModeBox() {
    auto* box = new QGroupBox(tr("Synchronisation"), this);
    m_form = new QFormLayout(box);
    m_form->addRow(tr("Mode"), createModeSelector(box));
    createModeParameters(box);
    auto* applyMode = new QPushButton(tr("Apply mode"), box);
    applyMode->setToolTip(tr("Send the selected mode and its parameters to the engine"));
    connect(applyMode, &QPushButton::clicked, this, &SteeringPanel::applyMode);
    m_form->addRow(QString(), applyMode);
    m_form->addRow(tr("Groups G"), createGroupsRow(box));
    m_learningRate = new QDoubleSpinBox(box);
    m_learningRate->setDecimals(4);
    m_learningRate->setRange(0.0001, 10.0);
    m_learningRate->setSingleStep(0.01);
    m_learningRate->setValue(0.05);
    auto* applyLr = new QPushButton(tr("Apply"), box);
    connect(applyLr, &QPushButton::clicked, this,
            [this] { emit requestReady(setLearningRateRequest(static_cast<float>(m_learningRate->value()))); });
    auto* lrRow = new QHBoxLayout;
    lrRow->addWidget(m_learningRate, 1);
    lrRow->addWidget(applyLr);
    m_form->addRow(tr("Learning rate"), lrRow);
    updateParameters();
    return box;
}

QWidget* SteeringPanel::createModeSelector(QWidget* box) {
    m_mode = new QComboBox(box);
    for (const SyncModeEntry& entry : syncModeCatalog()) {
        m_mode->addItem(translatedLabel(entry), entry.mode);
        m_mode->setItemData(m_mode->count() - 1, translatedHelp(entry), Qt::ToolTipRole);
    }
    const auto showHelp = [this] { m_mode->setToolTip(m_mode->currentData(Qt::ToolTipRole).toString()); };
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this, showHelp] {
        showHelp();
        updateParameters();
    });
    connect(m_mode, &QComboBox::activated, this, &SteeringPanel::markEdited);
    showHelp();
    m_engineMode = new QLabel(box);
    m_engineMode->setToolTip(tr("The mode the engine is running now"));
    auto* selector = new QWidget(box);
    auto* row = new QHBoxLayout(selector);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_mode, 1);
    row->addWidget(m_engineMode);
    return selector;
}

void SteeringPanel::createModeParameters(QWidget* box) {
    const auto edited = [this] {
        markEdited();
        updateParameters();
    };
    m_staleness = new QSpinBox(box);
    m_staleness->setRange(0, 1000);
    m_staleness->setValue(3);
    m_staleness->setToolTip(tr("How many clocks a worker may run ahead of the slowest one"));
    connect(m_staleness, &QSpinBox::valueChanged, this, edited);
    m_lrModulation = new QComboBox(box);
    m_lrModulation->addItem(tr("none"), wire::LR_NONE);
    m_lrModulation->addItem(tr("inverse (lr / staleness)"), wire::LR_INVERSE);
    m_lrModulation->addItem(tr("DynSGD (lr / (staleness + 1))"), wire::LR_DYNSGD);
    m_lrModulation->setToolTip(tr("Learning rate for stale gradients"));
    connect(m_lrModulation, &QComboBox::activated, this, edited);
    m_intraGroup = new QComboBox(box);
    m_intraGroup->addItem(tr("BSP inside each group"), false);
    m_intraGroup->addItem(tr("SSP inside each group (bound s)"), true);
    connect(m_intraGroup, &QComboBox::activated, this, edited);
    connect(m_intraGroup, &QComboBox::currentIndexChanged, this, &SteeringPanel::updateParameters);
    m_k = new QSpinBox(box);
    m_k->setRange(0, 1024);
    m_k->setSpecialValueText(tr("engine default"));
    m_k->setToolTip(tr("K-sync: gradients per version (default N-1). K-async: gradients per update (default N/2)."));
    connect(m_k, &QSpinBox::valueChanged, this, edited);
    m_barrier = new QComboBox(box);
    m_barrier->addItem(tr("enforced (BSP barrier)"), false);
    m_barrier->addItem(tr("slack (SSP barrier, bound s)"), true);
    connect(m_barrier, &QComboBox::activated, this, edited);
    connect(m_barrier, &QComboBox::currentIndexChanged, this, &SteeringPanel::updateParameters);
    m_rebalance = new QDoubleSpinBox(box);
    m_rebalance->setRange(0.1, 600.0);
    m_rebalance->setValue(kDefaultRebalanceSeconds);
    m_rebalance->setSuffix(tr(" s"));
    m_rebalance->setToolTip(tr("How often batch sizes are recomputed from the measured speeds"));
    connect(m_rebalance, &QDoubleSpinBox::valueChanged, this, edited);
    m_decision = new QDoubleSpinBox(box);
    m_decision->setRange(0.5, 3600.0);
    m_decision->setValue(kDefaultDecisionSeconds);
    m_decision->setSuffix(tr(" s"));
    m_decision->setToolTip(tr("How often the controller decides again"));
    connect(m_decision, &QDoubleSpinBox::valueChanged, this, edited);
    m_form->addRow(tr("Staleness bound s"), m_staleness);
    m_form->addRow(tr("LR modulation"), m_lrModulation);
    m_form->addRow(tr("Inside a group"), m_intraGroup);
    m_form->addRow(tr("K"), m_k);
    m_form->addRow(tr("Barrier"), m_barrier);
    m_form->addRow(tr("Rebalance every"), m_rebalance);
    m_form->addRow(tr("Decide every"), m_decision);
}

QWidget* SteeringPanel::createGroupsRow(QWidget* box) {
    m_groups = new QSlider(Qt::Horizontal, box);
    m_groups->setRange(1, 8);
    m_groups->setValue(int(kDefaultGroups));
    m_groups->setPageStep(1);
    m_groupsValue = new QLabel(QString::number(kDefaultGroups), box);
    m_groupBy = new QComboBox(box);
    m_groupBy->addItem(tr("by count"), wire::GROUP_ROUND_ROBIN);
    m_groupBy->addItem(tr("by speed"), wire::GROUP_BY_SPEED);
    m_groupBy->setToolTip(tr("By count: workers dealt round robin. By speed: workers of similar measured speed together."));
    m_groupsDebounce = new QTimer(this);
    m_groupsDebounce->setSingleShot(true);
    m_groupsDebounce->setInterval(kGroupsDebounceMs);
    connect(m_groupsDebounce, &QTimer::timeout, this, &SteeringPanel::sendGroups);
    connect(m_groups, &QSlider::valueChanged, m_groupsValue, qOverload<int>(&QLabel::setNum));
    // A drag sends once, on release; keyboard and wheel steps once they settle. Ticks that move the
    // slider programmatically trigger no action and send nothing.
    connect(m_groups, &QSlider::sliderReleased, this, &SteeringPanel::sendGroups);
    connect(m_groups, &QSlider::actionTriggered, this, [this](int action) {
        if (action != QAbstractSlider::SliderMove) m_groupsDebounce->start();
    });
    connect(m_groupBy, &QComboBox::activated, this, &SteeringPanel::sendGroups);
    auto* row = new QWidget(box);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_groups, 1);
    layout->addWidget(m_groupsValue);
    layout->addWidget(m_groupBy);
    return row;
}

QWidget* SteeringPanel::createWorkerBox() {
    auto* box = new QGroupBox(tr("Workers"), this);
    auto* layout = new QVBoxLayout(box);
    m_table = new QTableView(box);
    m_table->setModel(m_workers);
    m_table->setItemDelegateForColumn(WorkerTableModel::Group, new GroupDelegate(m_table));
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(WorkerTableModel::Slowdown, QHeaderView::Stretch);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    connect(m_workers, &QAbstractItemModel::modelReset, this, &SteeringPanel::rebuildSliders);
    connect(m_workers, &WorkerTableModel::groupAssignmentEdited, this,
            [this](const std::map<uint32_t, uint32_t>& assignment, uint32_t groupCount) {
                emit requestReady(setGroupsExplicitRequest(assignment, groupCount));
            });
    layout->addWidget(m_table);
    return box;
}

void SteeringPanel::rebuildSliders() {
    for (int row = 0; row < m_workers->rowCount(); ++row) {
        const uint32_t id = m_workers->workerId(row);
        auto* slider = new QSlider(Qt::Horizontal, m_table);
        slider->setObjectName(QStringLiteral("slowdown%1").arg(id));
        slider->setRange(kSliderStepsPerUnit, 10 * kSliderStepsPerUnit);
        const double factor = m_workers->index(row, WorkerTableModel::Slowdown).data().toDouble();
        slider->setValue(static_cast<int>(std::clamp(factor, 1.0, 10.0) * kSliderStepsPerUnit));
        slider->setToolTip(tr("Slowdown of worker %1: compute time x factor (1-10)").arg(id));
        const auto send = [this, slider, id] {
            emit requestReady(setSlowdownRequest(id, double(slider->value()) / kSliderStepsPerUnit));
        };
        // A drag sends once, on release; keys and programmatic moves send at once.
        connect(slider, &QSlider::sliderReleased, this, send);
        connect(slider, &QSlider::valueChanged, this, [slider, send] {
            if (!slider->isSliderDown()) send();
        });
        m_table->setIndexWidget(m_workers->index(row, WorkerTableModel::Slowdown), slider);
    }
}

QSlider* SteeringPanel::slowdownSlider(uint32_t workerId) const {
    return m_table->findChild<QSlider*>(QStringLiteral("slowdown%1").arg(workerId));
}

QList<QAction*> SteeringPanel::runActions() const { return {m_start, m_pauseResume, m_stop}; }

void SteeringPanel::updateParameters() {
    const wire::ModeSettings s = modeSettings();
    const wire::SyncMode mode = s.mode();
    const auto show = [this](QWidget* field, bool used) {
        field->setEnabled(used);
        m_form->setRowVisible(field, used);
    };
    wire::ModeSettings withBounds = s;  // whether s would be used, whatever the barrier/intra choice
    withBounds.set_intra_group_ssp(m_intraGroup->currentData().toBool());
    withBounds.set_elastic_slack(m_barrier->currentData().toBool());
    show(m_staleness, usesStaleness(withBounds));
    show(m_lrModulation, usesLrModulation(mode));
    show(m_intraGroup, mode == wire::GROUPED);
    show(m_k, usesK(mode));
    show(m_barrier, mode == wire::ELASTIC);
    show(m_rebalance, mode == wire::ELASTIC);
    show(m_decision, mode == wire::AUTO);
    const bool grouped = mode == wire::GROUPED;
    m_groups->setEnabled(grouped);
    m_groupBy->setEnabled(grouped);
    m_groups->setToolTip(grouped ? tr("Number of groups G; releasing the slider regroups a grouped run")
                                 : tr("Groups apply to the grouped mode only"));
}

wire::ModeSettings SteeringPanel::modeSettings() const {
    wire::ModeSettings s;
    const auto mode = static_cast<wire::SyncMode>(m_mode->currentData().toInt());
    s.set_mode(mode);
    if (mode == wire::GROUPED) {
        s.set_group_count(static_cast<uint32_t>(m_groups->value()));
        s.set_group_by(static_cast<wire::GroupBy>(m_groupBy->currentData().toInt()));
        s.set_intra_group_ssp(m_intraGroup->currentData().toBool());
    }
    if (usesK(mode)) s.set_k(static_cast<uint32_t>(m_k->value()));
    if (mode == wire::ELASTIC) {
        s.set_elastic_slack(m_barrier->currentData().toBool());
        s.set_rebalance_seconds(m_rebalance->value());
    }
    if (mode == wire::AUTO) s.set_decision_seconds(m_decision->value());
    if (usesStaleness(s)) s.set_staleness_bound(static_cast<uint32_t>(m_staleness->value()));
    if (usesLrModulation(mode)) s.set_lr_modulation(static_cast<wire::LrModulation>(m_lrModulation->currentData().toInt()));
    return s;
}

void SteeringPanel::applyMode() {
    m_edited = false;
    emit requestReady(setModeRequest(modeSettings()));
}

void SteeringPanel::sendGroups() {
    m_groupsDebounce->stop();
    if (m_mode->currentData().toInt() != wire::GROUPED) return;
    // Before the engine runs grouped, G and the grouping are part of the mode still to be applied.
    if (!m_haveEngineSettings || m_engineSettings.mode() != wire::GROUPED) {
        markEdited();
        return;
    }
    emit requestReady(setGroupsRequest(static_cast<uint32_t>(m_groups->value()),
                                       static_cast<wire::GroupBy>(m_groupBy->currentData().toInt())));
}

void SteeringPanel::markEdited() { m_edited = true; }

void SteeringPanel::loadSettings(const wire::ModeSettings& s) {
    const auto select = [](QComboBox* box, const QVariant& value) {
        const QSignalBlocker block(box);
        if (const int i = box->findData(value); i >= 0) box->setCurrentIndex(i);
    };
    select(m_mode, int(s.mode()));
    m_mode->setToolTip(m_mode->currentData(Qt::ToolTipRole).toString());
    select(m_intraGroup, s.intra_group_ssp());
    select(m_barrier, s.elastic_slack());
    if (usesLrModulation(s.mode())) select(m_lrModulation, int(s.lr_modulation()));
    if (s.mode() == wire::GROUPED && s.group_by() != wire::GROUP_EXPLICIT) select(m_groupBy, int(s.group_by()));
    const QSignalBlocker blockS(m_staleness), blockK(m_k), blockR(m_rebalance), blockD(m_decision);
    if (usesStaleness(s)) m_staleness->setValue(int(s.staleness_bound()));
    if (usesK(s.mode())) m_k->setValue(int(s.k()));
    const auto orDefault = [](double value, double fallback) { return value > 0 ? value : fallback; };
    if (s.mode() == wire::ELASTIC) m_rebalance->setValue(orDefault(s.rebalance_seconds(), kDefaultRebalanceSeconds));
    if (s.mode() == wire::AUTO) m_decision->setValue(orDefault(s.decision_seconds(), kDefaultDecisionSeconds));
    if (s.mode() == wire::GROUPED && !m_groups->isSliderDown() && !m_groupsDebounce->isActive()) {
        const int groups = int(s.group_count() ? s.group_count() : kDefaultGroups);
        m_groups->setMaximum(std::max(m_groups->maximum(), groups));
        m_groups->setValue(groups);
    }
    updateParameters();
}

void SteeringPanel::showEngineMode(const wire::Tick& tick) {
    const wire::ModeSettings& engine = tick.mode();
    m_engineMode->setText(tr("now: %1").arg(modeLabel(engine)));
    const bool changed = !m_haveEngineSettings ||
                         !google::protobuf::util::MessageDifferencer::Equals(engine, m_engineSettings);
    m_engineSettings = engine;
    m_haveEngineSettings = true;
    // Load the engine's mode only when it changes, and never over the user's unsent edits.
    if (changed && !m_edited) loadSettings(engine);
    // G can go up to one group per worker (G = N behaves as ASP).
    const int workers = static_cast<int>(tick.workers_size());
    if (workers > 0 && !m_groups->isSliderDown()) m_groups->setMaximum(std::max({2, workers, m_groups->value()}));
}

void SteeringPanel::showFrame(const TelemetryFrame& frame) {
    m_workers->setFrame(frame);
    if (!frame.latest) return;
    m_paused = frame.latest->state() == wire::RUN_PAUSED;
    m_pauseResume->setText(m_paused ? tr("Resume") : tr("Pause"));
    showEngineMode(*frame.latest);
}

}  // namespace syncscope::ui
