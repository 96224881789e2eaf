// ConnectDialog (see connect_dialog.h).
#include "ui/widgets/connect_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

#include <utility>

#include "ui/model/sync_mode_catalog.h"

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
    form->addRow(tr("Control endpoint"), m_control);
    form->addRow(tr("Telemetry endpoint"), m_telemetry);
    return page;
}

QWidget* ConnectDialog::createLocalPage() {
    auto* page = new QGroupBox(this);
    auto* form = new QFormLayout(page);
    m_workers = new QSpinBox(page);
    m_workers->setRange(1, 64);
    m_workers->setValue(2);
    m_model = new QComboBox(page);
    m_model->addItems({QStringLiteral("mlp"), QStringLiteral("cnn")});
    m_backend = new QComboBox(page);
    m_backend->addItems({QStringLiteral("auto"), QStringLiteral("cpu"), QStringLiteral("cuda")});
    m_mode = new QComboBox(page);
    for (const SyncModeEntry& entry : syncModeCatalog()) {
        m_mode->addItem(translatedLabel(entry), QString::fromLatin1(entry.engineName));
        m_mode->setItemData(m_mode->count() - 1, translatedHelp(entry), Qt::ToolTipRole);
    }
    m_staleness = new QSpinBox(page);
    m_staleness->setRange(0, 1000);
    m_staleness->setValue(3);
    m_groups = new QSpinBox(page);
    m_groups->setRange(1, 64);
    m_groups->setValue(2);
    m_groupBy = new QComboBox(page);
    m_groupBy->addItem(tr("by count (round robin)"), QStringLiteral("round-robin"));
    m_groupBy->addItem(tr("by speed"), QStringLiteral("speed"));
    m_k = new QSpinBox(page);
    m_k->setRange(0, 1024);
    m_k->setSpecialValueText(tr("engine default"));
    m_barrier = new QComboBox(page);
    m_barrier->addItem(tr("enforced"), QStringLiteral("enforced"));
    m_barrier->addItem(tr("slack"), QStringLiteral("slack"));
    m_epochs = new QDoubleSpinBox(page);
    m_epochs->setRange(0.1, 1000.0);
    m_epochs->setValue(1.0);
    m_localForm = form;
    form->addRow(tr("Workers"), m_workers);
    form->addRow(tr("Model"), m_model);
    form->addRow(tr("Backend"), m_backend);
    form->addRow(tr("Sync mode"), m_mode);
    form->addRow(tr("Staleness bound s"), m_staleness);
    form->addRow(tr("Groups G"), m_groups);
    form->addRow(tr("Grouping"), m_groupBy);
    form->addRow(tr("K"), m_k);
    form->addRow(tr("Barrier"), m_barrier);
    form->addRow(tr("Epochs"), m_epochs);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &ConnectDialog::updateModeParameters);
    connect(m_barrier, &QComboBox::currentIndexChanged, this, &ConnectDialog::updateModeParameters);
    updateModeParameters();
    return page;
}

namespace {

// The settings the shared catalogue's predicates need: the mode and the choices that switch s on.
wire::ModeSettings shapeOf(const QString& mode, bool intraGroupSsp, bool elasticSlack) {
    wire::ModeSettings s;
    const SyncModeEntry* entry = findSyncMode(mode);
    s.set_mode(entry ? entry->mode : wire::SYNC_MODE_UNSPECIFIED);
    s.set_intra_group_ssp(intraGroupSsp);
    s.set_elastic_slack(elasticSlack);
    return s;
}

}  // namespace

void ConnectDialog::updateModeParameters() {
    const wire::ModeSettings s = shapeOf(m_mode->currentData().toString(), false,
                                         m_barrier->currentData().toString() == QLatin1String("slack"));
    m_mode->setToolTip(m_mode->currentData(Qt::ToolTipRole).toString());
    const auto show = [this](QWidget* field, bool used) {
        field->setEnabled(used);
        m_localForm->setRowVisible(field, used);
    };
    show(m_staleness, usesStaleness(s));
    show(m_groups, s.mode() == wire::GROUPED);
    show(m_groupBy, s.mode() == wire::GROUPED);
    show(m_k, usesK(s.mode()));
    show(m_barrier, s.mode() == wire::ELASTIC);
}

QStringList LocalClusterSettings::modeArguments() const {
    QStringList args{QStringLiteral("--mode"), mode};
    const auto number = [&args](const char* flag, double value) { args << QLatin1String(flag) << QString::number(value); };
    const auto text = [&args](const char* flag, const QString& value) { args << QLatin1String(flag) << value; };
    const wire::ModeSettings s = shapeOf(mode, intraGroup == QLatin1String("ssp"), elasticBarrier == QLatin1String("slack"));
    if (usesStaleness(s)) number("--staleness", staleness);
    if (usesLrModulation(s.mode())) text("--lr-modulation", lrModulation);
    if (s.mode() == wire::GROUPED) {
        number("--groups", groups);
        text("--group-by", groupBy);
        text("--intra-group", intraGroup);
    }
    if (usesK(s.mode()) && k > 0) number("--k", k);
    if (s.mode() == wire::ELASTIC) {
        text("--elastic-barrier", elasticBarrier);
        if (rebalanceSeconds > 0) number("--rebalance-seconds", rebalanceSeconds);
    }
    if (s.mode() == wire::AUTO && decisionSeconds > 0) number("--decision-seconds", decisionSeconds);
    return args;
}

bool ConnectDialog::startsLocalCluster() const { return m_local->isChecked(); }

void ConnectDialog::setStartsLocalCluster(bool local) { (local ? m_local : m_attach)->setChecked(true); }

AttachSettings ConnectDialog::attachSettings() const {
    return {m_control->text().trimmed(), m_telemetry->text().trimmed()};
}

LocalClusterSettings ConnectDialog::localClusterSettings() const {
    LocalClusterSettings settings;
    settings.workers = m_workers->value();
    settings.model = m_model->currentText();
    settings.backend = m_backend->currentText();
    settings.mode = m_mode->currentData().toString();
    settings.staleness = m_staleness->value();
    settings.groups = m_groups->value();
    settings.groupBy = m_groupBy->currentData().toString();
    settings.k = m_k->value();
    settings.elasticBarrier = m_barrier->currentData().toString();
    settings.epochs = m_epochs->value();
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
