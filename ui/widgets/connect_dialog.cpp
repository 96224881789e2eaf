// ConnectDialog (see connect_dialog.h).
#include "ui/widgets/connect_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

#include "engine/net/credentials.h"
#include "engine/plan/mode_catalog.h"
#include "engine/plan/run_plan.h"
#include "ui/widgets/mode_editor.h"

namespace syncscope::ui {

ConnectDialog::ConnectDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Connect to a run"));
    auto* layout = new QVBoxLayout(this);
    m_local = new QRadioButton(tr("Start a local cluster"), this);
    m_attach = new QRadioButton(tr("Attach to a running coordinator"), this);
    m_local->setChecked(true);
    QWidget* localPage = createLocalPage();
    QWidget* attachPage = createAttachPage();
    attachPage->setEnabled(false);
    connect(m_attach, &QRadioButton::toggled, attachPage, &QWidget::setEnabled);
    connect(m_local, &QRadioButton::toggled, localPage, &QWidget::setEnabled);
    layout->addWidget(m_local);
    layout->addWidget(localPage);
    layout->addWidget(m_attach);
    layout->addWidget(attachPage);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

QWidget* ConnectDialog::createAttachPage() {
    auto* page = new QGroupBox(this);
    auto* form = new QFormLayout(page);
    m_control = new QLineEdit(QStringLiteral("tcp://127.0.0.1:5556"), page);
    m_telemetry = new QLineEdit(telemetryEndpointFor(m_control->text()), page);
    // The telemetry endpoint follows the control one until the user edits it.
    connect(m_control, &QLineEdit::textEdited, this, [this](const QString& control) {
        if (!m_telemetry->isModified()) m_telemetry->setText(telemetryEndpointFor(control));
    });
    m_credentials = new QLineEdit(QString::fromStdString(engine::defaultCredentialsPath()), page);
    m_credentials->setToolTip(tr("A credentials file with a steer key (to steer) or a view key (to watch), from "
                                 "syncscope-engine keygen"));
    auto* browse = new QPushButton(tr("Browse…"), page);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Credentials file"), m_credentials->text());
        if (!file.isEmpty()) m_credentials->setText(file);
    });
    auto* credentialsRow = new QHBoxLayout;
    credentialsRow->addWidget(m_credentials, 1);
    credentialsRow->addWidget(browse);
    m_insecure = new QCheckBox(tr("No authentication (a coordinator run with --insecure)"), page);
    connect(m_insecure, &QCheckBox::toggled, m_credentials, &QWidget::setDisabled);
    form->addRow(tr("Control endpoint"), m_control);
    form->addRow(tr("Telemetry endpoint"), m_telemetry);
    form->addRow(tr("Credentials"), credentialsRow);
    form->addRow(QString(), m_insecure);
    return page;
}

QWidget* ConnectDialog::createLocalPage() {
    auto* page = new QGroupBox(this);
    auto* form = new QFormLayout(page);
    m_workers = new QSpinBox(page);
    m_workers->setRange(1, int(engine::runLimits().max_workers()));
    m_workers->setValue(2);
    m_model = new QComboBox(page);
    m_model->addItems({QStringLiteral("mlp"), QStringLiteral("cnn")});
    m_backend = new QComboBox(page);
    m_backend->addItems({QStringLiteral("auto"), QStringLiteral("cpu"), QStringLiteral("cuda")});
    m_modeEditor = new ModeEditor(page);
    m_localForm = form;
    form->addRow(tr("Workers"), m_workers);
    form->addRow(tr("Model"), m_model);
    form->addRow(tr("Backend"), m_backend);
    form->addRow(m_modeEditor);
    form->addRow(tr("Stop"), createStopRow(page));
    return page;
}

QWidget* ConnectDialog::createStopRow(QWidget* page) {
    m_stopKind = new QComboBox(page);
    m_stopKind->addItem(tr("when I stop it"), UntilStopped);
    m_stopKind->addItem(tr("after epochs"), AfterEpochs);
    m_stopKind->addItem(tr("after seconds of training"), AfterSeconds);
    m_stopKind->addItem(tr("at test accuracy (%)"), AtAccuracy);
    m_stopKind->setToolTip(tr("A run that goes on until you press Stop leaves time to steer it"));
    m_stopValue = new QDoubleSpinBox(page);
    connect(m_stopKind, &QComboBox::currentIndexChanged, this, &ConnectDialog::showStopKind);
    auto* row = new QWidget(page);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stopKind, 1);
    layout->addWidget(m_stopValue);
    showStopKind();
    return row;
}

void ConnectDialog::showStopKind() {
    // A starting value and range for each; the engine checks the value again.
    const auto kind = StopKind(m_stopKind->currentData().toInt());
    m_stopValue->setEnabled(kind != UntilStopped);
    switch (kind) {
        case UntilStopped: m_stopValue->setRange(0.0, 0.0); break;
        case AfterEpochs:
            m_stopValue->setDecimals(1);
            m_stopValue->setRange(0.1, 1000.0);
            m_stopValue->setValue(10.0);
            break;
        case AfterSeconds:
            m_stopValue->setDecimals(0);
            m_stopValue->setRange(1.0, 7 * 24 * 3600.0);
            m_stopValue->setValue(600.0);
            break;
        case AtAccuracy:
            m_stopValue->setDecimals(1);
            m_stopValue->setRange(1.0, 100.0);
            m_stopValue->setValue(85.0);
            break;
    }
}

LocalClusterSettings::LocalClusterSettings() : mode(engine::defaultModeSettings(wire::BSP)) {}

wire::RunPlan LocalClusterSettings::runPlan() const {
    wire::RunPlan plan = engine::defaultRunPlan();
    plan.mutable_spec()->set_model(model.toStdString());
    plan.mutable_spec()->set_data_dir(dataDir.toStdString());  // empty: the engine's default
    plan.mutable_layout()->set_workers(static_cast<uint32_t>(workers));
    *plan.mutable_mode() = mode;
    wire::StopConditions& stop = *plan.mutable_stop();
    stop.set_max_epochs(std::max(0.0, epochs));
    stop.set_max_seconds(std::max(0.0, maxSeconds));
    stop.set_target_accuracy(std::max(0.0, targetAccuracy) / 100.0);
    stop.set_until_stopped(untilStopped());
    return plan;
}

QComboBox* ConnectDialog::modeSelector() const { return m_modeEditor->modeSelector(); }

bool ConnectDialog::startsLocalCluster() const { return m_local->isChecked(); }

void ConnectDialog::setStartsLocalCluster(bool local) { (local ? m_local : m_attach)->setChecked(true); }

AttachSettings ConnectDialog::attachSettings() const {
    return {m_control->text().trimmed(), m_telemetry->text().trimmed(),
            m_insecure->isChecked() ? QString() : m_credentials->text().trimmed()};
}

LocalClusterSettings ConnectDialog::localClusterSettings() const {
    LocalClusterSettings settings;
    settings.workers = m_workers->value();
    settings.model = m_model->currentText();
    settings.backend = m_backend->currentText();
    settings.mode = m_modeEditor->settings();
    const double value = m_stopValue->value();
    switch (StopKind(m_stopKind->currentData().toInt())) {
        case UntilStopped: break;
        case AfterEpochs: settings.epochs = value; break;
        case AfterSeconds: settings.maxSeconds = value; break;
        case AtAccuracy: settings.targetAccuracy = value; break;
    }
    return settings;
}

QString ConnectDialog::telemetryEndpointFor(const QString& controlEndpoint) {
    static const QRegularExpression pattern(QStringLiteral("^(tcp://.+):(\\d+)$"));
    const auto match = pattern.match(controlEndpoint.trimmed());
    if (!match.hasMatch()) return {};
    const int port = match.captured(2).toInt();
    if (port <= 0 || port >= 65535) return {};
    return QStringLiteral("%1:%2").arg(match.captured(1)).arg(port + 1);
}

}  // namespace syncscope::ui
