// SteeringPanel (see steering_panel.h).
#include "ui/widgets/steering_panel.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "ui/net/control_requests.h"
#include "ui/widgets/worker_table_model.h"

namespace syncscope::ui {

namespace {
constexpr int kSliderStepsPerUnit = 10;  // slider positions 10..100 are factors 1.0..10.0
}

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
    auto* form = new QFormLayout(box);
    m_mode = new QComboBox(box);
    m_mode->addItem(tr("BSP (bulk synchronous)"), wire::BSP);
    m_mode->addItem(tr("ASP (asynchronous)"), wire::ASP);
    m_mode->addItem(tr("SSP (stale synchronous)"), wire::SSP);
    m_staleness = new QSpinBox(box);
    m_staleness->setRange(0, 1000);
    m_staleness->setValue(3);
    m_lrModulation = new QComboBox(box);
    m_lrModulation->addItem(tr("none"), wire::LR_NONE);
    m_lrModulation->addItem(tr("inverse (lr / staleness)"), wire::LR_INVERSE);
    m_lrModulation->addItem(tr("DynSGD (lr / (staleness + 1))"), wire::LR_DYNSGD);
    auto* applyMode = new QPushButton(tr("Apply mode"), box);
    connect(applyMode, &QPushButton::clicked, this, &SteeringPanel::applyMode);
    const auto updateParameters = [this] {
        const auto mode = m_mode->currentData().toInt();
        m_staleness->setEnabled(mode == wire::SSP);
        m_lrModulation->setEnabled(mode != wire::BSP);
    };
    connect(m_mode, &QComboBox::currentIndexChanged, this, updateParameters);
    updateParameters();
    m_groups = new QSlider(Qt::Horizontal, box);
    m_groups->setRange(1, 8);
    m_groups->setEnabled(false);
    m_groups->setToolTip(tr("Grouped mode (G groups) is not in this engine yet."));
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
    form->addRow(tr("Mode"), m_mode);
    form->addRow(tr("Staleness bound s"), m_staleness);
    form->addRow(tr("LR modulation"), m_lrModulation);
    form->addRow(QString(), applyMode);
    form->addRow(tr("Groups"), m_groups);
    form->addRow(tr("Learning rate"), lrRow);
    return box;
}

QWidget* SteeringPanel::createWorkerBox() {
    auto* box = new QGroupBox(tr("Workers"), this);
    auto* layout = new QVBoxLayout(box);
    m_table = new QTableView(box);
    m_table->setModel(m_workers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(WorkerTableModel::Slowdown, QHeaderView::Stretch);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    connect(m_workers, &QAbstractItemModel::modelReset, this, &SteeringPanel::rebuildSliders);
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

void SteeringPanel::applyMode() {
    const auto mode = static_cast<wire::SyncMode>(m_mode->currentData().toInt());
    const auto lr = static_cast<wire::LrModulation>(m_lrModulation->currentData().toInt());
    emit requestReady(setModeRequest(mode, static_cast<uint32_t>(m_staleness->value()), mode == wire::BSP ? wire::LR_NONE : lr));
}

void SteeringPanel::showFrame(const TelemetryFrame& frame) {
    m_workers->setFrame(frame);
    if (!frame.latest) return;
    m_paused = frame.latest->state() == wire::RUN_PAUSED;
    m_pauseResume->setText(m_paused ? tr("Resume") : tr("Pause"));
}

}  // namespace syncscope::ui
