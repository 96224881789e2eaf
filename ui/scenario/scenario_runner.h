// ScenarioRunner: plays a scenario's schedule against the run's own training clock. It holds no
// sockets: fed the run's ticks (onTick), it emits each due step's control request the way
// SteeringPanel::requestReady does, and keeps the note and the next step for the banner.
#pragma once

#include <QList>
#include <QObject>

#include <optional>

#include "engine/proto/syncscope.pb.h"
#include "ui/scenario/scenario.h"

namespace syncscope::ui {

class ScenarioRunner : public QObject {
    Q_OBJECT
public:
    enum class StepState { Pending, Done, Skipped };

    explicit ScenarioRunner(QObject* parent = nullptr);

    /// Follows `scenario` from its first running tick on (the cluster is started by the caller).
    void start(const Scenario& scenario);
    /// Stops following; pending steps are skipped.
    void cancel();
    bool active() const { return m_active; }
    bool loaded() const { return m_loaded; }
    const Scenario& scenario() const { return m_scenario; }

    /// Seconds of training: ticks in RUN_RUNNING, plus pauses the scenario itself scheduled (so their
    /// length is part of the timetable); waiting for workers and pauses by hand do not count.
    double trainingSeconds() const { return m_clock; }
    StepState stepState(int index) const { return m_states.value(index, StepState::Skipped); }
    /// The first pending step, or -1.
    int nextStep() const;
    QString currentNote() const { return m_note; }
    /// "at 60 s: switch to asp lr=inverse", or why there is none.
    QString nextStepText() const;

    /// One telemetry tick (repeats and gaps are fine: only time_s differences count).
    void onTick(const wire::Tick& tick);

signals:
    void requestReady(const wire::ControlRequest& request);
    void stepFired(int index, const QString& description);
    void noteChanged(const QString& note);
    /// The clock, a step's state or the note changed: redraw.
    void changed();
    void finished();

private:
    void fire(int index);
    void finish();

    Scenario m_scenario;
    QList<StepState> m_states;
    std::optional<double> m_lastTickTime;
    std::optional<double> m_autoResumeAt;
    double m_clock = 0.0;
    QString m_note;
    bool m_loaded = false, m_active = false, m_started = false, m_scenarioPaused = false, m_lastTickCounted = false;
};

}  // namespace syncscope::ui
