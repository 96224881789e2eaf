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
    const std::pair<QString, QString> modes[] = {
        {QStringLiteral("bsp"), tr("Bulk synchronous: everyone waits for the slowest worker")},
        {QStringLiteral("asp"), tr("Asynchronous: each gradient applied on arrival")},
        {QStringLiteral("ssp"), tr("Stale synchronous: at most s clocks ahead of the slowest worker")},
        {QStringLiteral("grouped"), tr("G groups: synchronous inside a group, asynchronous between groups")},
        {QStringLiteral("ksync"), tr("Backup workers: the first K gradients of each version, late ones dropped")},
        {QStringLiteral("kasync"), tr("n-softsync: an update after every K gradients from anyone")},
        {QStringLiteral("elastic"), tr("Batch sizes proportional to speed so all workers arrive together")},
        {QStringLiteral("auto"), tr("A controller picks mode and grouping from the measured speeds")},
    };
    for (const auto& [name, help] : modes) {
        m_mode->addItem(name, name);
        m_mode->setItemData(m_mode->count() - 1, help, Qt::ToolTipRole);
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

void ConnectDialog::updateModeParameters() {
    const QString mode = m_mode->currentData().toString();
    m_mode->setToolTip(m_mode->currentData(Qt::ToolTipRole).toString());
    const auto show = [this](QWidget* field, bool used) {
        field->setEnabled(used);
        m_localForm->setRowVisible(field, used);
    };
    show(m_staleness, mode == QLatin1String("ssp") || (mode == QLatin1String("elastic") && m_barrier->currentIndex() == 1));
    show(m_groups, mode == QLatin1String("grouped"));
    show(m_groupBy, mode == QLatin1String("grouped"));
    show(m_k, mode == QLatin1String("ksync") || mode == QLatin1String("kasync"));
    show(m_barrier, mode == QLatin1String("elastic"));
}

QStringList LocalClusterSettings::modeArguments() const {
    QStringList args{QStringLiteral("--mode"), mode};
    const auto number = [&args](const char* flag, double value) { args << QLatin1String(flag) << QString::number(value); };
    const auto text = [&args](const char* flag, const QString& value) { args << QLatin1String(flag) << value; };
    const bool stale = mode == QLatin1String("ssp") || (mode == QLatin1String("grouped") && intraGroup == QLatin1String("ssp")) ||
                       (mode == QLatin1String("elastic") && elasticBarrier == QLatin1String("slack"));
    if (stale) number("--staleness", staleness);
    if (mode == QLatin1String("asp") || mode == QLatin1String("ssp") || mode == QLatin1String("kasync") ||
        mode == QLatin1String("grouped"))
        text("--lr-modulation", lrModulation);
    if (mode == QLatin1String("grouped")) {
        number("--groups", groups);
        text("--group-by", groupBy);
        text("--intra-group", intraGroup);
    }
    if ((mode == QLatin1String("ksync") || mode == QLatin1String("kasync")) && k > 0) number("--k", k);
    if (mode == QLatin1String("elastic")) {
        text("--elastic-barrier", elasticBarrier);
        if (rebalanceSeconds > 0) number("--rebalance-seconds", rebalanceSeconds);
    }
    if (mode == QLatin1String("auto") && decisionSeconds > 0) number("--decision-seconds", decisionSeconds);
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
