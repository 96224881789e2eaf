// The console readable at every size from 1024x768 up: at 1024x768, 1280x720, 1600x1000 and 1920x1080, with
// and without a scenario banner, in en, de and zh_CN (and the presentation view at 1280x720), no
// chart shows an elided axis label, axis title or chart title (Qt Charts writes "..." into the text
// item it cuts), the window keeps the size asked for, the log is one line, and the worker table
// shows every worker and every column.
#include <QApplication>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QGroupBox>
#include <QComboBox>
#include <QAction>
#include <QAbstractButton>
#include <QBarCategoryAxis>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTableWidget>
#include <QTranslator>
#include <QValueAxis>
#include <QtTest>

#include <cmath>
#include <memory>

#include "ui/scenario/scenario_banner.h"
#include "ui/scenario/scenario_catalog.h"
#include "ui/scenario/scenario_parser.h"
#include "ui/widgets/charts_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/steering_panel.h"
#include "ui/widgets/what_if_panel.h"
#include "ui/widgets/worker_table_model.h"

using namespace syncscope;
using namespace syncscope::ui;

namespace {

constexpr int kWorkers = 4;
constexpr int kTicks = 6000;  // ten minutes at 10 Hz: three-digit seconds on the time axes
constexpr double kTickSeconds = 0.1;
constexpr double kStartSeconds = 3.4;  // the first tick of training, after the workers came in

// A frame shaped like a real 4-worker mlp run on this machine: thousands of samples/s, staleness
// around one, loss from 2.3 down, accuracy up to 88%, a mode change, the latest stats per worker.
TelemetryFrame realisticFrame() {
    TelemetryFrame frame;
    frame.header.set_start_unix_ms(1700000000000);
    for (int w = 0; w < kWorkers; ++w) {
        WorkerSeries& worker = frame.workers[uint32_t(w)];
        worker.id = uint32_t(w);
        for (int i = 0; i < kTicks; ++i) {
            const double t = kStartSeconds + i * kTickSeconds;
            worker.samplesPerSecond.append({t, 1800.0 + 350.0 * w + 120.0 * std::sin(t / 7.0 + w)});
            worker.stalenessMean.append({t, 1.2 + 0.4 * std::sin(t / 20.0 + w)});
        }
        wire::WorkerStats& latest = worker.latest;
        latest.set_worker_id(uint32_t(w));
        latest.set_state(wire::WORKER_COMPUTING);
        latest.set_samples_per_s(1800.0 + 350.0 * w);
        latest.set_batch_size(64);
        latest.set_staleness_mean(1.2);
        latest.set_dropped(uint64_t(1000 * w));
        latest.set_compute_ms(31.5 + 4.0 * w);
        latest.set_comm_ms(2.5);
        latest.set_wait_ms(12.0 * (kWorkers - w));
        if (w == 3) latest.mutable_slowdown()->set_factor(4.0);
        for (int tau = 0; tau < 32; ++tau) latest.add_staleness_histogram(uint64_t(250000.0 * std::exp(-tau / (1.0 + w))));
    }
    for (int i = 0; i < kTicks; ++i) {
        const double t = kStartSeconds + i * kTickSeconds;
        frame.trainLoss.append({t, 2.3 * std::exp(-t / 60.0) + 0.32});
        if (i % 10 == 5) frame.testAccuracy.append({t, 88.0 * (1.0 - std::exp(-t / 50.0))});
    }
    wire::Event event;
    event.set_time_s(300.0);
    event.set_kind(wire::EVENT_MODE);
    event.set_detail("grouped G=2 by=speed");
    frame.events.append(event);
    wire::Tick tick;  // the newest tick, as a live run has one: a grouped run, so batch sizes are the run's
    tick.set_time_s(kStartSeconds + kTicks * kTickSeconds);
    tick.set_state(wire::RUN_RUNNING);
    tick.mutable_mode()->set_mode(wire::GROUPED);
    tick.set_test_accuracy(0.88);
    for (const auto& [id, worker] : frame.workers) *tick.add_workers() = worker.latest;
    frame.latest = tick;
    // The engine's what-if predictions for four workers: every option it offers, two with a ghost curve.
    wire::WhatIf whatIf;
    whatIf.set_current_label("grouped G=2 by speed");
    whatIf.set_target_accuracy(0.91);
    const std::vector<std::pair<wire::SyncMode, const char*>> options{
        {wire::BSP, "bsp"}, {wire::SSP, "ssp s=3"}, {wire::ASP, "asp"}, {wire::KSYNC, "ksync K=3"},
        {wire::KASYNC, "kasync K=2"}, {wire::GROUPED, "grouped G=2 by speed"}, {wire::ELASTIC, "elastic"}};
    for (size_t i = 0; i < options.size(); ++i) {
        wire::AutoCandidate* c = whatIf.add_options();
        c->mutable_settings()->set_mode(options[i].first);
        c->set_label(options[i].second);
        c->set_samples_per_s(12000.0 + 1000.0 * double(i));
        c->set_mean_staleness(0.5 * double(i));
        c->set_seconds_to_target(i == 1 ? -1.0 : 3725.0 + 60.0 * double(i));
        if (i % 3) continue;
        WhatIfSeries& ghost = frame.whatIf[options[i].second];
        ghost.latest = *c;
        for (int k = 0; k < kTicks; k += 10) {
            const double t = kStartSeconds + k * kTickSeconds;
            ghost.samplesPerWorker.append({t, c->samples_per_s() / kWorkers});
            ghost.staleness.append({t, c->mean_staleness()});
        }
    }
    frame.latestWhatIf = whatIf;
    return frame;
}

// What Qt Charts cut short in `view`'s scene (axis labels and titles, chart title, legend), as
// "chart: N of M texts cut: "a...", "b...""; empty when nothing is.
QString elidedTexts(QChartView* view) {
    QStringList elided;
    int texts = 0;
    for (QGraphicsItem* item : view->scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (!text || !text->isVisible()) continue;
        ++texts;
        const QString plain = text->toPlainText();
        if (plain.contains(QStringLiteral("...")) || plain.contains(QChar(0x2026))) elided << QLatin1Char('"') + plain + QLatin1Char('"');
    }
    if (elided.isEmpty()) return {};
    const qsizetype cut = elided.size();
    elided.sort();
    elided.removeDuplicates();
    return QStringLiteral("%1: %2 of %3 texts cut: %4").arg(view->chart()->title()).arg(cut).arg(texts).arg(elided.join(QStringLiteral(", ")));
}

// How many tick labels `axis` puts inside its range (a value can be read off two).
int tickLabels(const QAbstractAxis* axis) {
    if (const auto* value = qobject_cast<const QValueAxis*>(axis)) {
        if (value->tickType() == QValueAxis::TicksFixed) return value->tickCount();
        const double step = value->tickInterval(), anchor = value->tickAnchor();
        return int(std::floor((value->max() - anchor) / step + 1e-9) - std::ceil((value->min() - anchor) / step - 1e-9)) + 1;
    }
    if (const auto* categories = qobject_cast<const QCategoryAxis*>(axis)) return categories->count();
    if (const auto* bars = qobject_cast<const QBarCategoryAxis*>(axis)) return bars->count();
    return 2;  // date-time and log axes: Qt Charts spaces their labels itself
}

QString sizeName(QSize size) { return QStringLiteral("%1x%2").arg(size.width()).arg(size.height()); }

// What of `text` cannot be drawn: a '?' (text that went through Latin-1) or a character no shipped
// font holds (an empty box); empty when all of it can. test_translation_glyphs checks the catalogues.
QString undrawable(const QString& text, const QFont& font) {
    if (text.contains(QLatin1Char('?')) || text.contains(QChar::ReplacementCharacter)) return QStringLiteral("'?' in \"%1\"").arg(text);
    const QFontMetrics metrics(font);
    for (const char32_t c : text.toUcs4())
        if (!QChar::isSpace(c) && QChar::category(c) != QChar::Other_Control && !metrics.inFontUcs4(c))
            return QStringLiteral("no glyph for U+%1 in \"%2\"").arg(uint(c), 4, 16, QLatin1Char('0')).arg(text);
    return {};
}

// Every text the window shows that cannot be drawn: chart texts (labels, titles, legends, markers'
// hover texts aside) and the widgets' own (labels, buttons, boxes, headers, menus).
QStringList undrawableTexts(MainWindow& window) {
    QStringList found;
    for (QChartView* view : window.parts().charts->chartViews()) {
        if (!view->isVisible()) continue;
        for (QGraphicsItem* item : view->scene()->items()) {
            if (!item->isVisible()) continue;
            if (auto* text = dynamic_cast<QGraphicsTextItem*>(item))
                if (const QString bad = undrawable(text->toPlainText(), text->font()); !bad.isEmpty()) found << view->chart()->title() + QStringLiteral(": ") + bad;
            if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item))
                if (const QString bad = undrawable(text->text(), text->font()); !bad.isEmpty()) found << view->chart()->title() + QStringLiteral(": ") + bad;
        }
    }
    QStringList texts;
    for (QLabel* label : window.findChildren<QLabel*>()) if (label->isVisible()) texts << label->text();
    for (QAbstractButton* button : window.findChildren<QAbstractButton*>()) if (button->isVisible()) texts << button->text();
    for (QGroupBox* box : window.findChildren<QGroupBox*>()) if (box->isVisible()) texts << box->title();
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) if (dock->isVisible()) texts << dock->windowTitle();
    for (QComboBox* combo : window.findChildren<QComboBox*>())
        for (int i = 0; combo->isVisible() && i < combo->count(); ++i) texts << combo->itemText(i);
    for (QAction* action : window.findChildren<QAction*>()) texts << action->text();
    for (QTableView* table : window.findChildren<QTableView*>())
        for (int column = 0; table->isVisible() && column < table->model()->columnCount(); ++column)
            texts << table->model()->headerData(column, Qt::Horizontal).toString();
    for (const QString& text : texts)
        if (const QString bad = undrawable(text, window.font()); !bad.isEmpty()) found << bad;
    return found;
}

}  // namespace

class TestReadableLayout : public QObject {
    Q_OBJECT
private slots:
    void noChartTextIsElided_data();
    void noChartTextIsElided();

private:
    // Everything wrong with the window as it is shown now (empty: readable).
    QStringList problems(MainWindow& window, QSize asked);
};

void TestReadableLayout::noChartTextIsElided_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("scenario");
    QTest::addColumn<bool>("presentation");
    for (const QString& language : {QStringLiteral("en"), QStringLiteral("de"), QStringLiteral("zh_CN")}) {
        for (const QSize size : {QSize(1024, 768), QSize(1280, 720), QSize(1600, 1000), QSize(1920, 1080)})
            for (const bool scenario : {false, true})
                QTest::addRow("%s %s%s", qPrintable(language), qPrintable(sizeName(size)), scenario ? " scenario" : "")
                    << language << size << scenario << false;
        for (const bool scenario : {false, true})
            QTest::addRow("%s 1280x720 presentation%s", qPrintable(language), scenario ? " scenario" : "")
                << language << QSize(1280, 720) << scenario << true;
    }
}

QStringList TestReadableLayout::problems(MainWindow& window, QSize asked) {
    QStringList found = undrawableTexts(window);
    if (window.size() != asked)
        found << QStringLiteral("the window is %1, not %2 (its minimum size is %3)")
                     .arg(sizeName(window.size()), sizeName(asked), sizeName(window.minimumSizeHint()));
    for (QChartView* view : window.parts().charts->chartViews()) {
        if (!view->isVisible()) continue;  // the presentation view leaves two out
        if (view->chart()->axes().isEmpty()) found << QStringLiteral("%1: no axes").arg(view->chart()->title());
        if (const QString cut = elidedTexts(view); !cut.isEmpty()) found << cut;
        for (const QAbstractAxis* axis : view->chart()->axes()) {
            const int minimum = qobject_cast<const QBarCategoryAxis*>(axis) ? 1 : 2;  // one worker is one bar
            if (tickLabels(axis) < minimum)
                found << QStringLiteral("%1: the %2 axis shows %3 tick labels")
                             .arg(view->chart()->title(), axis->orientation() == Qt::Horizontal ? QStringLiteral("x") : QStringLiteral("y"))
                             .arg(tickLabels(axis));
        }
    }
    // The log is one line until someone opens it.
    auto* log = window.findChild<QDockWidget*>(QStringLiteral("logDock"));
    const int line = window.fontMetrics().height();
    if (log && log->isVisible() && log->height() > 2.5 * line)
        found << QStringLiteral("the log takes %1 px, more than a line of %2 px").arg(log->height()).arg(line);
    // The what-if table: every option in view, every column as wide as its header and figures need.
    QTableWidget* whatIf = window.parts().steering->whatIfPanel()->table();
    if (!window.presentationView()) {
        if (!whatIf->isVisible()) found << QStringLiteral("no what-if table in view");
        else if (whatIf->horizontalScrollBar()->maximum() > 0)
            found << QStringLiteral("what-if table: %1 px of columns do not fit").arg(whatIf->horizontalScrollBar()->maximum());
        else if (const int n = std::min(whatIf->rowCount(), asked.height() >= 900 ? whatIf->rowCount() : WhatIfPanel::kRowsKept);
                 n == 0 || whatIf->rowViewportPosition(n - 1) + whatIf->rowHeight(n - 1) > whatIf->viewport()->height())
            found << QStringLiteral("what-if table: its first %1 rows are not all in view").arg(n);
    }
    QTableView* table = window.parts().steering->workerView();
    if (!table || !table->isVisible()) return found << QStringLiteral("no worker table in view");
    // Four workers: every row in view, every column in view, and none narrower than its header.
    const int rows = table->model()->rowCount(), last = rows - 1;
    const int bottom = last < 0 ? 0 : table->rowViewportPosition(last) + table->rowHeight(last);
    if (rows != kWorkers || bottom > table->viewport()->height())
        found << QStringLiteral("worker table: %1 rows, the last ends at %2 px of %3").arg(rows).arg(bottom).arg(table->viewport()->height());
    if (table->horizontalScrollBar()->maximum() > 0)
        found << QStringLiteral("worker table: %1 px of columns do not fit").arg(table->horizontalScrollBar()->maximum());
    QHeaderView* header = table->horizontalHeader();
    // A narrow window's table leaves out only what the charts also show (SteeringPanel::setCompact).
    for (int column = 0; column < header->count(); ++column)
        if (header->isSectionHidden(column) && !window.presentationView() &&
            !(window.parts().steering->compact() && SteeringPanel::columnsLeftOutWhenCompact().contains(column)) &&
            column != WorkerTableModel::Lag && column != WorkerTableModel::Batch)
            found << QStringLiteral("worker table: column \"%1\" is hidden").arg(table->model()->headerData(column, Qt::Horizontal).toString());
    if (asked.width() >= 1280 && window.parts().steering->compact()) found << QStringLiteral("the worker table is compact at %1").arg(sizeName(asked));
    for (int column = 0; column < header->count(); ++column)
        if (!header->isSectionHidden(column) && header->sectionSize(column) < header->sectionSizeHint(column))
            found << QStringLiteral("worker table: column \"%1\" is %2 px, its header needs %3")
                         .arg(table->model()->headerData(column, Qt::Horizontal).toString())
                         .arg(header->sectionSize(column))
                         .arg(header->sectionSizeHint(column));
    return found;
}

void TestReadableLayout::noChartTextIsElided() {
    QFETCH(QString, language);
    QFETCH(QSize, size);
    QFETCH(bool, scenario);
    QFETCH(bool, presentation);
    QTranslator translator;
    QLocale::setDefault(QLocale(language));  // as the console does for --lang
    if (language != QLatin1String("en")) {
        QVERIFY2(translator.load(QStringLiteral(":/i18n/syncscope_") + language), qPrintable(language));
        QApplication::installTranslator(&translator);
    }
    {
        MainWindow window(QStringLiteral(SYNCSCOPE_ENGINE_BINARY));
        window.setStopClusterAnswer(true);
        if (scenario) {
            const ScenarioLoad load = ScenarioParser::load(resolveScenarioPath(QStringLiteral("grouping-rescue")));
            QVERIFY2(load.scenario, qPrintable(load.error));
            window.parts().scenarioRunner->start(*load.scenario);  // the banner as a scenario shows it, no cluster
            window.parts().scenarioBanner->reload();
            window.findChild<QDockWidget*>(QStringLiteral("scenarioDock"))->show();
        }
        const TelemetryFrame frame = realisticFrame();
        window.parts().charts->showFrame(frame);
        window.parts().steering->showFrame(frame);
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (presentation) window.setPresentationView(true);
        QTest::qWait(50);  // the layout, then each chart's re-reduction for its final plot width
        window.parts().charts->showFrame(frame);
        QTest::qWait(50);
        // SYNCSCOPE_LAYOUT_SHOTS=DIR keeps a picture of each window, to look at what the test read.
        if (const QString shots = qEnvironmentVariable("SYNCSCOPE_LAYOUT_SHOTS"); !shots.isEmpty())
            window.grab().save(QDir(shots).filePath(QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')) + QStringLiteral(".png")));
        const QStringList found = problems(window, size);
        QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("\n  ") + found.join(QStringLiteral("\n  "))));
    }
    QApplication::removeTranslator(&translator);
}

QTEST_MAIN(TestReadableLayout)
#include "test_readable_layout.moc"
