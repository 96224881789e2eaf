// AdvisorBar: what `auto` proposes when it runs as an advisor (ModeSettings.advise_only). It shows
// the open proposal (EVENT_ADVICE) with its reason and predicted figures, from the structured
// decision (no English from the engine), and offers Apply and Dismiss; the answer goes to the
// coordinator (AnswerAdvice), whose EVENT_ADVICE_ANSWERED closes the proposal for every console.
#pragma once

#include <QFrame>
#include <QVector>

#include <optional>

#include "engine/proto/syncscope.pb.h"

class QLabel;
class QPushButton;

namespace syncscope::ui {

class AdvisorBar : public QFrame {
    Q_OBJECT
public:
    explicit AdvisorBar(QWidget* parent = nullptr);

    /// The proposal still open after `events` (the run's history, oldest first), if any.
    static std::optional<wire::AutoDecision> openAdvice(const QVector<wire::Event>& events);
    /// One line for a proposal: the change, why, and what it predicts against what runs now.
    static QString describe(const wire::AutoDecision& advice);

    /// Shows the open proposal of this history, or hides the bar when none is open.
    void showEvents(const QVector<wire::Event>& events);
    /// A view-only console sees proposals but cannot answer them.
    void setCanSteer(bool canSteer);
    /// The coordinator refused the answer (the proposal was no longer open): it may be answered again.
    void answerRefused();
    /// The proposal shown now (0: none).
    quint64 adviceId() const { return m_adviceId; }

signals:
    /// The person took (`accept`) or dismissed proposal `adviceId`.
    void answered(quint64 adviceId, bool accept);

private:
    void answer(bool accept);
    static QString applyTip();

    QLabel* m_text;
    QPushButton *m_apply, *m_dismiss;
    quint64 m_adviceId = 0;
    bool m_canSteer = true;
};

}  // namespace syncscope::ui
