// ConnectDialog: how the console starts: attach to a running coordinator's control and telemetry
// endpoints, or start a local cluster of engine processes.
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

#include "engine/proto/syncscope.pb.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace syncscope::ui {

class ModeEditor;

struct AttachSettings {
    QString controlEndpoint, telemetryEndpoint;
    QString credentials;  ///< a steer or view credentials file; empty: no authentication (--insecure)
};

struct LocalClusterSettings {
    int workers = 2;
    QString model = QStringLiteral("mlp"), backend = QStringLiteral("auto");
    wire::ModeSettings mode;                // the sync mode and its parameters (bsp unless set)
    /// Stop conditions (0: not this one). None at all: the run goes on until someone stops it.
    double epochs = 0.0, maxSeconds = 0.0, targetAccuracy = 0.0;
    QString dataDir;  // empty: the engine's default

    LocalClusterSettings();
    bool untilStopped() const { return epochs <= 0 && maxSeconds <= 0 && targetAccuracy <= 0; }
    /// The run these settings describe (the rest from engine::defaultRunPlan()): its mode, the stop
    /// conditions set, or until stopped when none is, for the coordinator the console starts.
    wire::RunPlan runPlan() const;
};

class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget* parent = nullptr);

    bool startsLocalCluster() const;
    void setStartsLocalCluster(bool local);
    AttachSettings attachSettings() const;
    LocalClusterSettings localClusterSettings() const;
    /// The mode selector of the local-cluster page (item data: the wire::SyncMode).
    QComboBox* modeSelector() const;
    ModeEditor* modeEditor() const { return m_modeEditor; }

    /// "tcp://HOST:PORT" → the same host at PORT+1 (the engine's default telemetry port); empty if unreadable.
    static QString telemetryEndpointFor(const QString& controlEndpoint);

    /// How a local cluster's run ends, as the dialog offers it.
    enum StopKind { UntilStopped, AfterEpochs, AfterSeconds, AtAccuracy };
    QComboBox* stopSelector() const { return m_stopKind; }
    QDoubleSpinBox* stopValue() const { return m_stopValue; }

private:
    QWidget* createAttachPage();
    QWidget* createStopRow(QWidget* page);
    void showStopKind();
    QWidget* createLocalPage();

    QRadioButton *m_attach = nullptr, *m_local = nullptr;
    QLineEdit *m_control = nullptr, *m_telemetry = nullptr, *m_credentials = nullptr;
    QCheckBox* m_insecure = nullptr;
    QSpinBox* m_workers = nullptr;
    QComboBox *m_model = nullptr, *m_backend = nullptr;
    ModeEditor* m_modeEditor = nullptr;
    QComboBox* m_stopKind = nullptr;  ///< item data: the StopKind
    QDoubleSpinBox* m_stopValue = nullptr;
    QFormLayout* m_localForm = nullptr;
};

}  // namespace syncscope::ui
