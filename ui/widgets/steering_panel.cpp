// SteeringPanel (see steering_panel.h).
#include "ui/widgets/steering_panel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <google/protobuf/util/message_differencer.h>

#include <algorithm>

#include "engine/plan/mode_catalog.h"
#include "ui/model/worker_selection.h"
#include "ui/net/control_requests.h"
#include "ui/widgets/mode_editor.h"
#include "ui/widgets/what_if_panel.h"
#include "ui/widgets/worker_table_model.h"

namespace syncscope::ui {

namespace {
constexpr int kSliderStepsPerUnit = 10;  // slider positions 10..100 are factors 1.0..10.0
constexpr int kGroupsDebounceMs = 400;   // keyboard and wheel steps of the groups slider send once
constexpr int kSliderMinimumWidth = 80;  // a slowdown slider's 1..10 in steps a hand can hit
constexpr int kResortMs = 2000;        // how often the worker table is sorted again (its order follows the run)
constexpr int kRowsMeasured = 32;

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

}  // namespace

SteeringPanel::SteeringPanel(QWidget* parent)
    : QWidget(parent), m_workers(new WorkerTableModel(this)), m_sorted(new QSortFilterProxyModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(createRunBox());
    layout->addWidget(createModeBox());
    m_whatIf = new WhatIfPanel(this);
    layout->addWidget(m_whatIf);
    layout->addWidget(createWorkerBox(), 1);
}

QWidget* SteeringPanel::createRunBox() {
    auto* box = new QGroupBox(tr("Run"), this);
    m_runBox = box;
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
    m_modeBox = box;
    m_form = new QFormLayout(box);
    // G and the grouping rule come from the groups row below, which also regroups a running run.
    m_editor = new ModeEditor(box, {QStringLiteral("group_count"), QStringLiteral("group_by")});
    connect(m_editor, &ModeEditor::edited, this, &SteeringPanel::markEdited);
    connect(m_editor, &ModeEditor::selectionChanged, this, &SteeringPanel::updateParameters);
    m_form->addRow(m_editor);
    m_engineMode = new QLabel(box);
    m_engineMode->setToolTip(tr("The mode the engine is running now"));
    m_engineMode->setWordWrap(true);
    m_form->addRow(tr("Running"), m_engineMode);
    auto* applyMode = new QPushButton(tr("Apply mode"), box);
    applyMode->setToolTip(tr("Send the selected mode and its parameters to the engine"));
    connect(applyMode, &QPushButton::clicked, this, &SteeringPanel::applyMode);
    m_form->addRow(QString(), applyMode);
    m_form->addRow(tr("Groups G"), createGroupsRow(box));
    m_learningRate = new QDoubleSpinBox(box);
    m_learningRate->setDecimals(4);
    m_learningRate->setRange(0.0001, engine::runLimits().max_learning_rate());
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

QWidget* SteeringPanel::createGroupsRow(QWidget* box) {
    m_groups = new QSlider(Qt::Horizontal, box);
    m_groups->setRange(1, 8);
    const int defaultGroups = int(engine::groupCount(wire::ModeSettings()));
    m_groups->setValue(defaultGroups);
    m_groups->setPageStep(1);
    m_groupsValue = new QLabel(QString::number(defaultGroups), box);
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
    // Rows move only when the table is sorted again (resort), not on every tick: a slider or a group
    // cell stays under the pointer meanwhile.
    m_sorted->setSourceModel(m_workers);
    m_sorted->setSortRole(WorkerTableModel::SortRole);
    m_sorted->setDynamicSortFilter(false);
    m_table->setModel(m_sorted);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(WorkerTableModel::Id, Qt::AscendingOrder);
    m_table->horizontalHeader()->setSortIndicatorShown(false);  // until there are many workers
    connect(m_table->horizontalHeader(), &QHeaderView::sectionClicked, this, [this] { m_sortChosen = true; });
    auto* resortTimer = new QTimer(this);
    connect(resortTimer, &QTimer::timeout, this, &SteeringPanel::resort);
    resortTimer->start(kResortMs);
    m_table->setItemDelegateForColumn(WorkerTableModel::Group, new GroupDelegate(m_table));
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(WorkerTableModel::Slowdown, QHeaderView::Stretch);
    // Columns sized by the rows in view and this many more, not all of them: measuring every cell of
    // 256 rows at each refresh was a sixth of the GUI thread's time (the figures are of one width).
    m_table->horizontalHeader()->setResizeContentsPrecision(kRowsMeasured);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // every column fits (fitTableWidth)
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);     // many workers scroll; the width stays put
    connect(m_table->horizontalHeader(), &QHeaderView::sectionResized, this, &SteeringPanel::fitTableWidth);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    connect(m_workers, &QAbstractItemModel::modelReset, this, &SteeringPanel::rebuildSliders);
    connect(m_workers, &QAbstractItemModel::dataChanged, this, &SteeringPanel::refitSlowdownCells);
    connect(m_workers, &WorkerTableModel::groupAssignmentEdited, this,
            [this](const std::map<uint32_t, uint32_t>& assignment, uint32_t groupCount) {
                emit requestReady(setGroupsExplicitRequest(assignment, groupCount));
            });
    layout->addWidget(m_table);
    return box;
}

void SteeringPanel::keepWorkerRowsInView() {
    // The table gives room to others (the what-if table) down to this: up to kRowsAlwaysShown rows.
    const int rows = std::min(kRowsAlwaysShown, m_sorted->rowCount());
    const int row = rows > 0 ? m_table->rowHeight(0) : 0;
    const int height = m_table->horizontalHeader()->sizeHint().height() + rows * row + 2 * m_table->frameWidth();
    if (m_table->minimumHeight() != height) m_table->setMinimumHeight(height);
}

void SteeringPanel::resort() {
    if (QApplication::mouseButtons() != Qt::NoButton) return;  // a drag or a click in progress
    m_sorted->sort(m_table->horizontalHeader()->sortIndicatorSection(), m_table->horizontalHeader()->sortIndicatorOrder());
}

void SteeringPanel::rebuildSliders() {
    if (!m_sortChosen && size_t(m_workers->rowCount()) > kLinesUpToWorkers)
        m_table->sortByColumn(WorkerTableModel::Lag, Qt::AscendingOrder);  // many workers: the slowest first
    m_slowdownText = m_workers->widestSlowdownText(m_table->fontMetrics());
    for (int row = 0; row < m_workers->rowCount(); ++row) {
        const uint32_t id = m_workers->workerId(row);
        auto* slider = new QSlider(Qt::Horizontal, m_table);
        slider->setObjectName(QStringLiteral("slowdown%1").arg(id));
        slider->setRange(kSliderStepsPerUnit, 10 * kSliderStepsPerUnit);
        const double factor = m_workers->index(row, WorkerTableModel::Slowdown).data(WorkerTableModel::SortRole).toDouble();
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
        // The slider leaves the cell's right end to the factor the table shows there (a slider
        // over its own figure hides it).
        auto* cell = new QWidget(m_table);
        cell->setObjectName(QStringLiteral("slowdownCell"));
        auto* cellLayout = new QHBoxLayout(cell);
        cellLayout->setContentsMargins(0, 0, factorWidth(), 0);
        cellLayout->addWidget(slider);
        m_table->setIndexWidget(m_sorted->mapFromSource(m_workers->index(row, WorkerTableModel::Slowdown)), cell);
    }
}

QList<int> SteeringPanel::columnsLeftOutWhenCompact() {
    return {WorkerTableModel::State, WorkerTableModel::Group, WorkerTableModel::Dropped};
}

void SteeringPanel::setCompact(bool compact) {
    if (compact == m_compact) return;
    m_compact = compact;
    for (int column : columnsLeftOutWhenCompact()) m_table->setColumnHidden(column, compact);
    fitTableWidth();
}

void SteeringPanel::fitTableWidth() {
    // The columns as wide as their contents, the slowdown sliders at least as wide as their header.
    QHeaderView* header = m_table->horizontalHeader();
    int width = 2 * m_table->frameWidth() + m_table->verticalScrollBar()->sizeHint().width();
    for (int column = 0; column < header->count(); ++column)
        if (!header->isSectionHidden(column))
            width += column == WorkerTableModel::Slowdown
                         ? std::max(header->sectionSizeHint(column), kSliderMinimumWidth + factorWidth())
                         : header->sectionSize(column);
    if (width != m_table->minimumWidth()) m_table->setMinimumWidth(width);
}

int SteeringPanel::factorWidth() const {
    // The widest text the cell shows (a factor, or a worker's CPU limit), and the cell's text margins.
    return m_table->fontMetrics().horizontalAdvance(m_slowdownText) + 2 * m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 4;
}

void SteeringPanel::refitSlowdownCells() {
    const QString widest = m_workers->widestSlowdownText(m_table->fontMetrics());
    if (widest == m_slowdownText) return;  // the usual tick: nothing to move
    m_slowdownText = widest;
    for (QWidget* cell : m_table->findChildren<QWidget*>(QStringLiteral("slowdownCell")))
        cell->layout()->setContentsMargins(0, 0, factorWidth(), 0);
    fitTableWidth();
}

QSlider* SteeringPanel::slowdownSlider(uint32_t workerId) const {
    return m_table->findChild<QSlider*>(QStringLiteral("slowdown%1").arg(workerId));
}

QComboBox* SteeringPanel::modeSelector() const { return m_editor->modeSelector(); }

QList<QAction*> SteeringPanel::runActions() const { return {m_start, m_pauseResume, m_stop}; }

void SteeringPanel::updateParameters() {
    const bool grouped = m_editor->settings().mode() == wire::GROUPED;
    m_groups->setEnabled(grouped);
    m_groupBy->setEnabled(grouped);
    m_groups->setToolTip(grouped ? tr("Number of groups G; releasing the slider regroups a grouped run")
                                 : tr("Groups apply to the grouped mode only"));
}

wire::ModeSettings SteeringPanel::modeSettings() const {
    wire::ModeSettings s = m_editor->settings();
    if (s.mode() == wire::GROUPED) {
        s.set_group_count(static_cast<uint32_t>(m_groups->value()));
        s.set_group_by(static_cast<wire::GroupBy>(m_groupBy->currentData().toInt()));
    }
    return s;
}

void SteeringPanel::applyMode() {
    m_edited = false;
    emit requestReady(setModeRequest(modeSettings()));
}

void SteeringPanel::sendGroups() {
    m_groupsDebounce->stop();
    if (m_editor->settings().mode() != wire::GROUPED) return;
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
    m_editor->load(s);
    if (s.mode() == wire::GROUPED && s.group_by() != wire::GROUP_EXPLICIT) {
        const QSignalBlocker block(m_groupBy);
        if (const int i = m_groupBy->findData(int(s.group_by())); i >= 0) m_groupBy->setCurrentIndex(i);
    }
    if (s.mode() == wire::GROUPED && !m_groups->isSliderDown() && !m_groupsDebounce->isActive()) {
        const int groups = int(engine::groupCount(s));
        m_groups->setMaximum(std::max(m_groups->maximum(), groups));
        m_groups->setValue(groups);
    }
    updateParameters();
}

void SteeringPanel::showEngineMode(const wire::Tick& tick) {
    const wire::ModeSettings& engine = tick.mode();
    m_engineMode->setText(QString::fromStdString(engine::describeMode(engine)));
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

void SteeringPanel::applyRole(const std::string& role) {
    // A view key may watch, not steer: the coordinator refuses its commands, so none are offered.
    const bool mayWatchOnly = role == "view";
    if (mayWatchOnly != m_mayWatchOnly) {
        m_mayWatchOnly = mayWatchOnly;
        for (QWidget* box : {m_runBox, m_modeBox}) box->setEnabled(!mayWatchOnly);
        for (QAction* action : runActions()) action->setEnabled(!mayWatchOnly);
        m_table->setEditTriggers(mayWatchOnly ? QAbstractItemView::NoEditTriggers : QAbstractItemView::DoubleClicked);
        const QString why = tr("This console holds a view key: it may watch the run, not steer it");
        for (QWidget* box : {m_runBox, m_modeBox}) box->setToolTip(mayWatchOnly ? why : QString());
    }
    for (QSlider* slider : m_table->findChildren<QSlider*>()) slider->setEnabled(!mayWatchOnly);
}

void SteeringPanel::showFrame(const TelemetryFrame& frame) {
    if (frame.catalog) m_editor->setCatalog(*frame.catalog);  // an attached engine's own modes
    applyRole(frame.clientRole);
    m_workers->setFrame(frame);
    m_whatIf->showPrediction(frame.latestWhatIf);
    keepWorkerRowsInView();
    // The lag column where the charts cannot show every worker as a line of its own.
    const bool many = frame.workers.size() > kLinesUpToWorkers;
    if (m_table->isColumnHidden(WorkerTableModel::Lag) == many) {
        m_table->setColumnHidden(WorkerTableModel::Lag, !many);
        m_table->horizontalHeader()->setSortIndicatorShown(many);  // its arrow widens every column
    }
    if (!frame.latest) return;
    // Batch sizes differ only in the elastic mode; elsewhere the column would repeat the run's.
    const bool elastic = frame.latest->mode().mode() == wire::ELASTIC;
    if (m_table->isColumnHidden(WorkerTableModel::Batch) == elastic) m_table->setColumnHidden(WorkerTableModel::Batch, !elastic);
    m_paused = frame.latest->state() == wire::RUN_PAUSED;
    m_pauseResume->setText(m_paused ? tr("Resume") : tr("Pause"));
    showEngineMode(*frame.latest);
}

}  // namespace syncscope::ui
