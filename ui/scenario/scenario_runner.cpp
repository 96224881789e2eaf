// ScenarioRunner (see scenario_runner.h).
#include "ui/scenario/scenario_runner.h"

#include "ui/scenario/scenario_commands.h"
#include "ui/scenario/scenario_text.h"

namespace syncscope::ui {

namespace {
constexpr double kClockSlack = 1e-6;  // sums of tick intervals land a rounding error short of a step's time
}

ScenarioRunner::ScenarioRunner(QObject* parent) : QObject(parent) {}

void ScenarioRunner::start(const Scenario& scenario) {
    m_scenario = scenario;
    m_states = QList<StepState>(scenario.steps.size(), StepState::Pending);
    m_lastTickTime.reset();
    m_lastTickCounted = false;
    m_autoResumeAt.reset();
    m_clock = 0.0;
    m_note = scenario.description;
    m_loaded = m_active = true;
    m_started = m_scenarioPaused = false;
    emit noteChanged(m_note);
    emit changed();
}

void ScenarioRunner::cancel() {
    if (!m_active) return;
    finish();
}

int ScenarioRunner::nextStep() const {
    const qsizetype index = m_states.indexOf(StepState::Pending);
    return int(index);
}

QString ScenarioRunner::nextStepText() const {
    if (!m_loaded) return tr("No scenario");
    const int index = nextStep();
    if (index < 0) return m_active ? tr("No more steps") : tr("Scenario over");
    const ScenarioStep& step = m_scenario.steps[index];
    return tr("at %1 s: %2").arg(step.at, 0, 'f', 0).arg(ScenarioText::step(step));
}

void ScenarioRunner::onTick(const wire::Tick& tick) {
    if (!m_active) return;
    const bool running = tick.state() == wire::RUN_RUNNING;
    if (running) m_started = true;
    // The time between two ticks counts when both are training (or in the scenario's own pause): the
    // moment training started or resumed between two ticks is unknown, so that interval is left out.
    const bool counts = running || (tick.state() == wire::RUN_PAUSED && m_scenarioPaused);
    if (m_lastTickTime && m_lastTickCounted && counts) {
        const double delta = tick.time_s() - *m_lastTickTime;
        if (delta > 0) m_clock += delta;
    }
    m_lastTickTime = tick.time_s();  // a new coordinator's clock restarts: only the next difference counts
    m_lastTickCounted = counts;
    if (m_started && tick.state() == wire::RUN_STOPPED) {
        finish();
        return;
    }
    if (!m_started) return;
    if (m_autoResumeAt && m_clock + kClockSlack >= *m_autoResumeAt) {
        m_autoResumeAt.reset();
        m_scenarioPaused = false;
        ScenarioStep resume;
        resume.action = ScenarioAction::Resume;
        emit requestReady(*controlRequestFor(resume));
    }
    for (int index = nextStep(); m_active && index >= 0 && m_scenario.steps[index].at <= m_clock + kClockSlack; index = nextStep())
        fire(index);
    emit changed();
}

void ScenarioRunner::fire(int index) {
    const ScenarioStep& step = m_scenario.steps[index];
    m_states[index] = StepState::Done;
    if (const auto request = controlRequestFor(step)) emit requestReady(*request);
    if (step.action == ScenarioAction::Pause) {
        m_scenarioPaused = true;
        if (step.pauseSeconds > 0) m_autoResumeAt = m_clock + step.pauseSeconds;
    } else if (step.action == ScenarioAction::Resume) {
        m_scenarioPaused = false;
        m_autoResumeAt.reset();
    }
    if (!step.note.isEmpty() && step.note != m_note) {
        m_note = step.note;
        emit noteChanged(m_note);
    }
    emit stepFired(index, ScenarioText::step(step));
    if (step.action == ScenarioAction::Stop) finish();
}

void ScenarioRunner::finish() {
    for (StepState& state : m_states)
        if (state == StepState::Pending) state = StepState::Skipped;
    m_active = false;
    m_autoResumeAt.reset();
    emit changed();
    emit finished();
}

}  // namespace syncscope::ui
