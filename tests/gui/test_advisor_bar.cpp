// AdvisorBar: the open proposal of a run's history is shown with its reason and predicted figures,
// Apply and Dismiss answer it (once), an answer event, a later mode change or a stop closes it, and a
// view-only console sees it without being able to answer.
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include "ui/net/control_requests.h"
#include "ui/widgets/advisor_bar.h"

using namespace syncscope;
using syncscope::ui::AdvisorBar;

namespace {

wire::Event advice(uint64_t id, const std::string& chosen) {
    wire::Event e;
    e.set_kind(wire::EVENT_ADVICE);
    wire::AutoDecision* d = e.mutable_decision();
    d->set_verdict(wire::AutoDecision::ADVISES);
    d->set_advice_id(id);
    d->set_current_label("bsp");
    d->set_slowest_worker(3);
    d->set_slowest_ms(120);
    d->set_median_ms(40);
    d->mutable_chosen()->set_label(chosen);
    d->mutable_chosen()->set_samples_per_s(5200);
    d->mutable_chosen()->set_mean_staleness(0.8);
    wire::AutoCandidate* now = d->add_candidates();
    now->set_label("bsp");
    now->set_samples_per_s(2100);
    *d->add_candidates() = d->chosen();
    return e;
}

wire::Event answered(uint64_t id, bool accepted) {
    wire::Event e;
    e.set_kind(wire::EVENT_ADVICE_ANSWERED);
    e.mutable_decision()->set_advice_id(id);
    e.mutable_decision()->set_accepted(accepted);
    return e;
}

wire::Event ofKind(wire::EventKind kind) {
    wire::Event e;
    e.set_kind(kind);
    return e;
}

QString shownText(const AdvisorBar& bar) { return bar.findChild<QLabel*>()->text(); }

QPushButton* button(const AdvisorBar& bar, const QString& text) {
    for (auto* b : bar.findChildren<QPushButton*>())
        if (b->text() == text) return b;
    return nullptr;
}

}  // namespace

class TestAdvisorBar : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void showsTheOpenProposalWithReasonAndFigures() {
        AdvisorBar bar;
        bar.show();
        bar.showEvents({ofKind(wire::EVENT_START), advice(1, "grouped G=2 by speed")});
        QVERIFY(bar.isVisible());
        QCOMPARE(bar.adviceId(), quint64(1));
        const QString text = shownText(bar);
        for (const QString& part : {QStringLiteral("from bsp to grouped G=2 by speed"), QStringLiteral("Worker 3"),
                                    QStringLiteral("120 ms"), QStringLiteral("40 ms"), QStringLiteral("5,200"),
                                    QStringLiteral("0.8"), QStringLiteral("now 2,100")})
            QVERIFY2(text.contains(part), qPrintable(part + " not in: " + text));
    }

    void applyAndDismissAnswerOnce() {
        AdvisorBar bar;
        bar.show();
        QSignalSpy spy(&bar, &AdvisorBar::answered);
        bar.showEvents({advice(4, "asp lr=dynsgd")});
        QTest::mouseClick(button(bar, QStringLiteral("Apply")), Qt::LeftButton);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toULongLong(), quint64(4));
        QCOMPARE(spy.at(0).at(1).toBool(), true);
        QTest::mouseClick(button(bar, QStringLiteral("Dismiss")), Qt::LeftButton);  // pending: no second answer
        QCOMPARE(spy.count(), 1);
        bar.answerRefused();  // the coordinator said no: it may be answered again
        QTest::mouseClick(button(bar, QStringLiteral("Dismiss")), Qt::LeftButton);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(1).toBool(), false);
        const wire::ControlRequest request = ui::answerAdviceRequest(4, false);
        QCOMPARE(request.answer_advice().advice_id(), uint64_t(4));
        QVERIFY(!request.answer_advice().accept());
    }

    void answersChangesAndStopsCloseIt() {
        AdvisorBar bar;
        bar.show();
        bar.showEvents({advice(1, "ssp s=3"), answered(1, false)});
        QVERIFY(bar.isHidden());
        bar.showEvents({advice(1, "ssp s=3"), answered(1, false), advice(2, "ksync K=3")});
        QVERIFY(bar.isVisible());
        QCOMPARE(bar.adviceId(), quint64(2));
        bar.showEvents({advice(2, "ksync K=3"), ofKind(wire::EVENT_MODE)});  // a person chose another mode
        QVERIFY(bar.isHidden());
        bar.showEvents({advice(3, "ksync K=3"), ofKind(wire::EVENT_STOP)});
        QVERIFY(bar.isHidden());
        QCOMPARE(bar.adviceId(), quint64(0));
    }

    void aViewerCannotAnswer() {
        AdvisorBar bar;
        bar.show();
        QSignalSpy spy(&bar, &AdvisorBar::answered);
        bar.setCanSteer(false);
        bar.showEvents({advice(7, "asp lr=dynsgd")});
        QVERIFY(bar.isVisible());
        QVERIFY(!button(bar, QStringLiteral("Apply"))->isEnabled());
        QTest::mouseClick(button(bar, QStringLiteral("Apply")), Qt::LeftButton);
        QCOMPARE(spy.count(), 0);
    }
};

QTEST_MAIN(TestAdvisorBar)
#include "test_advisor_bar.moc"
