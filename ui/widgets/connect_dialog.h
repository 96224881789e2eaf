// ConnectDialog: how the console starts: attach to a running coordinator's control and telemetry
// endpoints, or start a local cluster of engine processes.
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace syncscope::ui {

struct AttachSettings {
    QString controlEndpoint, telemetryEndpoint;
};

struct LocalClusterSettings {
    int workers = 2;
    // mode: the engine's --mode name (bsp, asp, ssp, grouped, ksync, kasync, elastic, auto).
    QString model = QStringLiteral("mlp"), backend = QStringLiteral("auto"), mode = QStringLiteral("bsp");
    double epochs = 1.0, maxSeconds = 0.0;  // 0: no limit
    QString dataDir;                        // empty: the engine's default
    // The mode's parameters; only those of `mode` reach the command line.
    int staleness = 3;                                 // ssp; grouped with intra-group ssp; elastic slack
    QString lrModulation = QStringLiteral("none");     // asp, ssp, kasync, grouped
    int groups = 2;                                    // grouped: G
    QString groupBy = QStringLiteral("round-robin");   // grouped: round-robin or speed
    QString intraGroup = QStringLiteral("bsp");        // grouped: bsp or ssp
    int k = 0;                                         // ksync, kasync (0: the engine's default)
    QString elasticBarrier = QStringLiteral("enforced");  // elastic: enforced or slack
    double rebalanceSeconds = 0.0, decisionSeconds = 0.0;  // elastic, auto (0: the engine's default)

    /// "--mode MODE" and the flags of that mode's parameters, for `syncscope-engine serve` or `run`.
    QStringList modeArguments() const;
};

class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget* parent = nullptr);

    bool startsLocalCluster() const;
    void setStartsLocalCluster(bool local);
    AttachSettings attachSettings() const;
    LocalClusterSettings localClusterSettings() const;
    /// The mode selector of the local-cluster page (item data: the engine's --mode name).
    QComboBox* modeSelector() const { return m_mode; }

    /// "tcp://HOST:PORT" → the same host at PORT+1 (the engine's default telemetry port); empty if unreadable.
    static QString telemetryEndpointFor(const QString& controlEndpoint);

private:
    QWidget* createAttachPage();
    QWidget* createLocalPage();
    void updateModeParameters();

    QRadioButton *m_attach = nullptr, *m_local = nullptr;
    QLineEdit *m_control = nullptr, *m_telemetry = nullptr;
    QSpinBox* m_workers = nullptr;
    QComboBox *m_model = nullptr, *m_backend = nullptr, *m_mode = nullptr, *m_groupBy = nullptr, *m_barrier = nullptr;
    QSpinBox *m_staleness = nullptr, *m_groups = nullptr, *m_k = nullptr;
    QDoubleSpinBox* m_epochs = nullptr;
    QFormLayout* m_localForm = nullptr;
};

}  // namespace syncscope::ui
