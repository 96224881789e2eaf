// ScenarioBanner (see scenario_banner.h).
#include "ui/scenario/scenario_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

#include "ui/scenario/scenario_runner.h"
#include "ui/scenario/scenario_text.h"

namespace syncscope::ui {

namespace {
constexpr double kNoteScale = 1.3;  // the note is what the class reads: larger than the rest
constexpr int kVisibleSteps = 3;
}  // namespace

ScenarioBanner::ScenarioBanner(const ScenarioRunner& runner, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_title(new QLabel(this)), m_clock(new QLabel(this)), m_note(new QLabel(this)),
      m_next(new QLabel(this)), m_steps(new QListWidget(this)) {
    setObjectName(QStringLiteral("scenarioBanner"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);  // a long title takes a second line, never the window's width
    QFont noteFont = m_note->font();
    noteFont.setPointSizeF(noteFont.pointSizeF() * kNoteScale);
    m_note->setFont(noteFont);
    m_note->setWordWrap(true);
    m_note->setObjectName(QStringLiteral("scenarioNote"));
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_steps->setSelectionMode(QAbstractItemView::NoSelection);
    m_steps->setFocusPolicy(Qt::NoFocus);
    m_steps->setMaximumHeight(m_steps->fontMetrics().height() * kVisibleSteps + 8);

    m_steps->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // each step's full text is its tooltip
    m_steps->setTextElideMode(Qt::ElideRight);
    m_next->setWordWrap(true);

    // Compact, so the charts below keep their height: the note takes the width, and the next step
    // sits above the schedule rather than on a line of its own.
    auto* text = new QVBoxLayout;
    text->setSpacing(2);
    text->addWidget(m_title);
    text->addWidget(m_note, 1);
    auto* schedule = new QVBoxLayout;
    schedule->setSpacing(2);
    schedule->addWidget(m_clock);
    schedule->addWidget(m_next);
    schedule->addWidget(m_steps, 1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addLayout(text, 3);
    layout->addLayout(schedule, 1);
    reload();
}

void ScenarioBanner::reload() {
    m_steps->clear();
    const Scenario& scenario = m_runner.scenario();
    m_title->setText(scenario.title);
    m_title->setToolTip(scenario.description);
    for (const ScenarioStep& step : scenario.steps)
        m_steps->addItem(tr("%1 s  %2").arg(step.at, 4, 'f', 0).arg(ScenarioText::step(step)));
    refresh();
}

void ScenarioBanner::refresh() {
    m_clock->setText(tr("Training time %1 s").arg(m_runner.trainingSeconds(), 0, 'f', 0));
    m_note->setText(m_runner.currentNote());
    m_next->setText(tr("Next: %1").arg(m_runner.nextStepText()));
    for (int i = 0; i < m_steps->count(); ++i) {
        QListWidgetItem* item = m_steps->item(i);
        const ScenarioRunner::StepState state = m_runner.stepState(i);
        item->setCheckState(state == ScenarioRunner::StepState::Done ? Qt::Checked : Qt::Unchecked);
        item->setForeground(state == ScenarioRunner::StepState::Pending ? palette().text() : palette().placeholderText());
        const QString text = item->text();
        item->setToolTip(state == ScenarioRunner::StepState::Skipped ? tr("skipped: the run ended first") + QLatin1Char('\n') + text
                                                                     : text);
    }
    const int next = m_runner.nextStep();
    if (next >= 0) m_steps->scrollToItem(m_steps->item(next), QAbstractItemView::PositionAtTop);
}

QString ScenarioBanner::nextText() const { return m_next->text(); }

}  // namespace syncscope::ui
