// CompareWindow: two recordings (synthetic, with known figures) are read on a pool thread and drawn
// one series per run on each chart; aligning on the first mode change shifts each run by its own
// event; the table and the CSV carry each run's figures; a corrupt file is named, not added.
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "tests/unit/synthetic_run.h"
#include "ui/widgets/compare_window.h"

using namespace syncscope;
using syncscope::ui::CompareWindow;

namespace {

// A copy of the synthetic run whose mode change comes at `modeAt` seconds instead.
synthetic::Run withModeAt(double modeAt) {
    synthetic::Run run = synthetic::make();
    for (wire::Record& r : run.records)
        if (r.has_event() && r.event().kind() == wire::EVENT_MODE) r.mutable_event()->set_time_s(modeAt);
    return run;
}

QLineSeries* firstSeries(QChartView* view, int index) {
    return qobject_cast<QLineSeries*>(view->chart()->series().value(index));
}

}  // namespace

class TestCompareWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_a, m_b;

private slots:
    void initTestCase() {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        m_a = m_dir.filePath("a.ssrec");
        m_b = m_dir.filePath("b.ssrec");
        QVERIFY(synthetic::write(synthetic::make(), m_a.toStdString()));
        QVERIFY(synthetic::write(withModeAt(0.75), m_b.toStdString()));
    }

    void overlaysAlignsAndTabulates() {
        CompareWindow window;
        window.show();
        QSignalSpy loaded(&window, &CompareWindow::loaded);
        window.addRecordings({m_a, m_b});
        QVERIFY(loaded.wait(10'000));
        QCOMPARE(window.runs().size(), 2);
        for (QChartView* view : window.chartViews()) QCOMPARE(view->chart()->series().size(), 2);
        QLineSeries* accuracyA = firstSeries(window.chartViews()[0], 0);
        QVERIFY(accuracyA && accuracyA->count() > 0);
        const double startAligned = accuracyA->at(0).x();  // the first evaluation, 0.2 s from a 0.01 s start
        QVERIFY2(std::abs(startAligned - 0.19) < 1e-6, qPrintable(QString::number(startAligned)));

        window.setAlignment(wire::EVENT_MODE);
        QCOMPARE(*window.shiftOf(0), 0.55 - 0.01);
        QCOMPARE(*window.shiftOf(1), 0.75 - 0.01);
        QVERIFY(std::abs(firstSeries(window.chartViews()[0], 0)->at(0).x() - (0.19 - 0.54)) < 1e-6);
        QVERIFY(std::abs(firstSeries(window.chartViews()[0], 1)->at(0).x() - (0.19 - 0.74)) < 1e-6);
        window.setAlignment(wire::EVENT_ROLLBACK);  // neither run has one: drawn from its start, and said so
        QVERIFY(!window.shiftOf(0));
        QVERIFY(window.table()->item(0, 1)->text().contains("no such event"));

        QTableWidget* table = window.table();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("a.ssrec"));
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("not reached"));  // 85% is above the run's 54%
        QCOMPARE(table->item(0, 3)->text(), QStringLiteral("54.00%"));

        const QString csvPath = m_dir.filePath("comparison.csv");
        QString error;
        QVERIFY2(window.exportCsv(csvPath, &error), qPrintable(error));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith("run,target_percent,time_to_target_s,final_accuracy_percent"));
        QVERIFY2(lines[1].startsWith("\"a.ssrec\",85,,54.00,"), qPrintable(lines[1]));
        QVERIFY(!window.exportCsv(m_dir.filePath("no/such/folder/x.csv"), &error));
        QVERIFY(error.contains("cannot write"));
    }

    void aTargetTheRunsReachHasATime() {
        QString error;
        const auto run = ui::loadRunCurves(m_a, 52, &error);
        QVERIFY2(run, qPrintable(error));
        QVERIFY(run->metrics.timeToTarget);
        QVERIFY2(std::abs(*run->metrics.timeToTarget - 0.39) < 1e-6, qPrintable(QString::number(*run->metrics.timeToTarget)));
    }

    void aCorruptFileIsNamedNotAdded() {
        const QString bad = m_dir.filePath("bad.ssrec");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a recording at all");
        f.close();
        CompareWindow window;
        QSignalSpy loaded(&window, &CompareWindow::loaded);
        window.addRecordings({bad, m_a});
        QVERIFY(loaded.wait(10'000));
        QCOMPARE(window.runs().size(), 1);
        bool named = false;
        for (QLabel* label : window.findChildren<QLabel*>()) named |= label->text().contains("bad.ssrec");
        QVERIFY(named);
    }
};

QTEST_MAIN(TestCompareWindow)
#include "test_compare_window.moc"
