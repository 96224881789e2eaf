// ConnectDialog: how the console starts: attach to a running coordinator's control and telemetry
// endpoints, or start a local cluster of engine processes.
#pragma once

#include <QDialog>
#include <QString>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace syncscope::ui {

struct AttachSettings {
    QString controlEndpoint, telemetryEndpoint;
};

struct LocalClusterSettings {
    int workers = 2;
    QString model = QStringLiteral("mlp"), backend = QStringLiteral("auto"), mode = QStringLiteral("bsp");
    double epochs = 1.0, maxSeconds = 0.0;  // 0: no limit
    QString dataDir;                        // empty: the engine's default
};

class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget* parent = nullptr);

    bool startsLocalCluster() const;
    void setStartsLocalCluster(bool local);
    AttachSettings attachSettings() const;
    LocalClusterSettings localClusterSettings() const;

    /// "tcp://HOST:PORT" → the same host at PORT+1 (the engine's default telemetry port); empty if unreadable.
    static QString telemetryEndpointFor(const QString& controlEndpoint);

private:
    QWidget* createAttachPage();
    QWidget* createLocalPage();

    QRadioButton *m_attach = nullptr, *m_local = nullptr;
    QLineEdit *m_control = nullptr, *m_telemetry = nullptr;
    QSpinBox* m_workers = nullptr;
    QComboBox *m_model = nullptr, *m_backend = nullptr, *m_mode = nullptr;
    QDoubleSpinBox* m_epochs = nullptr;
};

}  // namespace syncscope::ui
