// ScenarioBanner: the scenario as the class sees it: title, the current note in large type, the
// next step with its time, and the schedule with each step marked done or skipped.
#pragma once

#include <QWidget>

class QLabel;
class QListWidget;

namespace syncscope::ui {

class ScenarioRunner;

class ScenarioBanner : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioBanner(const ScenarioRunner& runner, QWidget* parent = nullptr);

    /// Redraws from the runner (connected to ScenarioRunner::changed).
    void refresh();
    /// Rebuilds the step list (a new scenario).
    void reload();

    QLabel* noteLabel() const { return m_note; }
    QString nextText() const;
    QListWidget* stepList() const { return m_steps; }

private:
    const ScenarioRunner& m_runner;
    QLabel *m_title, *m_clock, *m_note, *m_next;
    QListWidget* m_steps;
};

}  // namespace syncscope::ui
