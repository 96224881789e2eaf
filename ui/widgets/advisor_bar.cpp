// AdvisorBar (see advisor_bar.h).
#include "ui/widgets/advisor_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>

#include <set>

namespace syncscope::ui {
namespace {

const wire::AutoCandidate* candidateLabelled(const wire::AutoDecision& d, const std::string& label) {
    for (const auto& c : d.candidates())
        if (c.label() == label) return &c;
    return nullptr;
}

}  // namespace

AdvisorBar::AdvisorBar(QWidget* parent)
    : QFrame(parent), m_text(new QLabel(this)), m_apply(new QPushButton(tr("Apply"), this)),
      m_dismiss(new QPushButton(tr("Dismiss"), this)) {
    setObjectName(QStringLiteral("advisorBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, p.color(QPalette::ToolTipBase));
    p.setColor(QPalette::WindowText, p.color(QPalette::ToolTipText));
    setPalette(p);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_apply->setToolTip(applyTip());
    m_dismiss->setToolTip(tr("Keep the current mode; the advisor proposes again if the run changes"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_apply);
    layout->addWidget(m_dismiss);
    connect(m_apply, &QPushButton::clicked, this, [this] { answer(true); });
    connect(m_dismiss, &QPushButton::clicked, this, [this] { answer(false); });
    hide();
}

std::optional<wire::AutoDecision> AdvisorBar::openAdvice(const QVector<wire::Event>& events) {
    std::set<uint64_t> answered;
    for (auto it = events.crbegin(); it != events.crend(); ++it) {
        const wire::Event& e = *it;
        if (e.kind() == wire::EVENT_ADVICE_ANSWERED) answered.insert(e.decision().advice_id());
        // A later mode change by anyone (a person, a rollback) replaces what the advice was about.
        if (e.kind() == wire::EVENT_MODE || e.kind() == wire::EVENT_ROLLBACK || e.kind() == wire::EVENT_STOP)
            return std::nullopt;
        if (e.kind() == wire::EVENT_ADVICE)
            return answered.count(e.decision().advice_id()) ? std::nullopt
                                                           : std::optional<wire::AutoDecision>(e.decision());
    }
    return std::nullopt;
}

QString AdvisorBar::describe(const wire::AutoDecision& d) {
    const QLocale locale;
    const auto rate = [&](double v) { return locale.toString(v, 'f', 0); };
    const auto staleness = [&](double v) { return locale.toString(v, 'f', 1); };
    QString text = tr("Advisor: switch from %1 to %2.")
                       .arg(QString::fromStdString(d.current_label()), QString::fromStdString(d.chosen().label()));
    if (d.median_ms() > 0)
        text += QLatin1Char(' ') + tr("Worker %1 takes %2 ms per iteration, the median worker %3 ms.")
                                       .arg(d.slowest_worker())
                                       .arg(locale.toString(d.slowest_ms(), 'f', 0), locale.toString(d.median_ms(), 'f', 0));
    text += QLatin1Char(' ') + tr("Predicted: %1 samples/s at staleness %2")
                                   .arg(rate(d.chosen().samples_per_s()), staleness(d.chosen().mean_staleness()));
    if (const wire::AutoCandidate* now = candidateLabelled(d, d.current_label()))
        text += QLatin1Char(' ') + tr("(now %1 samples/s at %2).")
                                       .arg(rate(now->samples_per_s()), staleness(now->mean_staleness()));
    else
        text += QLatin1Char('.');
    return text;
}

void AdvisorBar::showEvents(const QVector<wire::Event>& events) {
    const std::optional<wire::AutoDecision> advice = openAdvice(events);
    if (!advice) {
        m_adviceId = 0;
        hide();
        return;
    }
    if (advice->advice_id() != m_adviceId || isHidden()) {
        m_adviceId = advice->advice_id();
        m_text->setText(describe(*advice));
        m_apply->setEnabled(m_canSteer);
        m_dismiss->setEnabled(m_canSteer);
        show();
    }
}

void AdvisorBar::setCanSteer(bool canSteer) {
    m_canSteer = canSteer;
    m_apply->setEnabled(canSteer && m_adviceId);
    m_dismiss->setEnabled(canSteer && m_adviceId);
    m_apply->setToolTip(canSteer ? applyTip() : tr("This console may only watch (view role)"));
}

void AdvisorBar::answerRefused() {
    m_apply->setEnabled(m_canSteer && m_adviceId);
    m_dismiss->setEnabled(m_canSteer && m_adviceId);
}

QString AdvisorBar::applyTip() {
    return tr("Switch to the proposed mode now (a change like any other: it can be rolled back)");
}

void AdvisorBar::answer(bool accept) {
    if (!m_adviceId || !m_canSteer) return;
    m_apply->setEnabled(false);  // until the coordinator's answer event closes it (or a new proposal comes)
    m_dismiss->setEnabled(false);
    emit answered(m_adviceId, accept);
}

}  // namespace syncscope::ui
