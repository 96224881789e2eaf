// CompareWindow (see compare_window.h).
#include "ui/widgets/compare_window.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QThreadPool>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

#include "ui/widgets/chart_style.h"

namespace syncscope::ui {
namespace {

// Events a comparison can align on: the start of training, and the changes a person makes.
constexpr wire::EventKind kAlignable[] = {wire::EVENT_START, wire::EVENT_MODE, wire::EVENT_GROUPS,
                                          wire::EVENT_LEARNING_RATE, wire::EVENT_SLOWDOWN, wire::EVENT_ROLLBACK,
                                          wire::EVENT_WORKER_LOST, wire::EVENT_RESUMED};

QChart* newChart(const QString& title, const QString& yTitle) {
    auto* chart = new QChart;
    chart->setTitle(title);
    auto* x = new QValueAxis;
    x->setTitleText(CompareWindow::tr("seconds"));
    x->setLabelFormat(QStringLiteral("%.0f"));
    auto* y = new QValueAxis;
    y->setTitleText(yTitle);
    y->setLabelFormat(QStringLiteral("%.3g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    applyCompactStyle(chart);
    return chart;
}

QString alignName(wire::EventKind kind) {
    switch (kind) {
        case wire::EVENT_START: return CompareWindow::tr("start of training");
        case wire::EVENT_MODE: return CompareWindow::tr("first mode change");
        case wire::EVENT_GROUPS: return CompareWindow::tr("first regrouping");
        case wire::EVENT_LEARNING_RATE: return CompareWindow::tr("first learning-rate change");
        case wire::EVENT_SLOWDOWN: return CompareWindow::tr("first slowdown");
        case wire::EVENT_ROLLBACK: return CompareWindow::tr("first rollback");
        case wire::EVENT_WORKER_LOST: return CompareWindow::tr("first worker lost");
        case wire::EVENT_RESUMED: return CompareWindow::tr("first resume");
        default: return {};
    }
}

}  // namespace

CompareWindow::CompareWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), m_align(new QComboBox(this)), m_target(new QDoubleSpinBox(this)),
      m_status(new QLabel(this)), m_table(new QTableWidget(this)),
      m_accuracy(newChart(tr("Test accuracy"), tr("accuracy (%)"))),
      m_loss(newChart(tr("Training loss"), tr("loss"))),
      m_updates(newChart(tr("Updates per second"), tr("updates/s"))) {
    setWindowTitle(tr("Compare runs"));
    resize(1200, 760);
    auto* add = new QPushButton(tr("Add recordings…"), this);
    auto* csv = new QPushButton(tr("Export CSV…"), this);
    for (wire::EventKind kind : kAlignable) m_align->addItem(alignName(kind), int(kind));
    m_target->setRange(1, 100);
    m_target->setDecimals(1);
    m_target->setValue(85);
    m_target->setSuffix(QStringLiteral(" %"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(add);
    bar->addWidget(new QLabel(tr("Align on:"), this));
    bar->addWidget(m_align);
    bar->addWidget(new QLabel(tr("Target accuracy:"), this));
    bar->addWidget(m_target);
    bar->addStretch(1);
    bar->addWidget(csv);

    auto* charts = new QSplitter(Qt::Horizontal, this);
    for (QChart* chart : {m_accuracy, m_loss, m_updates}) {
        auto* view = new QChartView(chart, charts);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(240, 200);
        charts->addWidget(view);
        m_views.append(view);
    }
    m_loss->legend()->hide();
    m_updates->legend()->hide();
    m_accuracy->legend()->setAlignment(Qt::AlignBottom);

    const QStringList headers{tr("Run"), tr("Aligned at"), tr("Time to target (s)"), tr("Final accuracy"),
                              tr("Samples/s"), tr("Staleness mean"), tr("Staleness p99"), tr("Dropped")};
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);  // the run's name takes the rest

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(charts);
    split->addWidget(m_table);
    charts->setSizes({1000, 1000, 1000});  // equal thirds, whatever the charts' size hints say
    split->setSizes({3000, 1000});          // the charts first; the table scrolls
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);
    m_status->setText(tr("Add two or more recordings (File → Record, or a run's --record file) to compare them."));

    connect(add, &QPushButton::clicked, this, &CompareWindow::chooseRecordings);
    connect(csv, &QPushButton::clicked, this, &CompareWindow::chooseCsv);
    connect(m_align, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
    connect(m_target, &QDoubleSpinBox::editingFinished, this, [this] {
        QStringList paths;
        for (const RunCurves& r : m_runs) paths << r.path;
        m_runs.clear();
        addRecordings(paths);  // the time to target is a figure of the recording: read again
    });
}

wire::EventKind CompareWindow::alignment() const { return wire::EventKind(m_align->currentData().toInt()); }

void CompareWindow::setAlignment(wire::EventKind kind) {
    if (const int i = m_align->findData(int(kind)); i >= 0) m_align->setCurrentIndex(i);
}

std::optional<double> CompareWindow::shiftOf(int index) const {
    if (alignment() == wire::EVENT_START) return 0.0;
    return m_runs.at(index).firstEvent(alignment());
}

void CompareWindow::addRecordings(const QStringList& paths) {
    if (paths.isEmpty()) return;
    ++m_pending;
    m_status->setText(tr("Reading recordings: %1…").arg(paths.size()));
    const double target = m_target->value();
    QPointer<CompareWindow> self(this);
    QThreadPool::globalInstance()->start([self, paths, target] {
        QVector<RunCurves> runs;
        QStringList errors;
        for (const QString& path : paths) {
            QString error;
            if (auto run = loadRunCurves(path, target, &error)) runs.append(std::move(*run));
            else errors << QStringLiteral("%1: %2").arg(path, error);
        }
        QMetaObject::invokeMethod(qApp, [self, runs, errors] {
            if (self) self->added(runs, errors);
        });
    });
}

void CompareWindow::added(const QVector<RunCurves>& runs, const QStringList& errors) {
    m_runs += runs;
    --m_pending;
    QStringList notes;
    if (!errors.isEmpty()) notes << tr("Could not read: %1").arg(errors.join(QStringLiteral("; ")));
    for (const RunCurves& r : runs)
        if (!r.warning.isEmpty()) notes << QStringLiteral("%1: %2").arg(r.name, r.warning);
    m_status->setText(notes.isEmpty() ? tr("Runs compared: %1").arg(m_runs.size()) : notes.join(QLatin1Char('\n')));
    redraw();
    if (m_pending == 0) emit loaded();
}

void CompareWindow::redraw() {
    for (QChart* chart : {m_accuracy, m_loss, m_updates}) chart->removeAllSeries();
    double xLow = 0, xHigh = 1, lossHigh = 0, updatesHigh = 0;
    for (int i = 0; i < m_runs.size(); ++i) {
        const RunCurves& run = m_runs[i];
        const double shift = shiftOf(i).value_or(0.0);
        const QColor colour = QColor::fromHsv((i * 360 / std::max<qsizetype>(1, m_runs.size()) + 200) % 360, 200, 200);
        const auto draw = [&](QChart* chart, const QVector<QPointF>& points, double* high) {
            auto* series = new QLineSeries;
            series->setName(run.name);
            series->setColor(colour);
            QVector<QPointF> shifted;
            shifted.reserve(points.size());
            for (const QPointF& p : points) {
                shifted.append({p.x() - shift, p.y()});
                xLow = std::min(xLow, p.x() - shift);
                xHigh = std::max(xHigh, p.x() - shift);
                if (high) *high = std::max(*high, p.y());
            }
            series->replace(shifted);
            chart->addSeries(series);
            for (QAbstractAxis* axis : chart->axes()) series->attachAxis(axis);
        };
        draw(m_accuracy, run.accuracy, nullptr);
        draw(m_loss, run.loss, &lossHigh);
        draw(m_updates, run.updatesPerSecond, &updatesHigh);
    }
    for (QChart* chart : {m_accuracy, m_loss, m_updates}) {
        auto* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
        x->setRange(xLow, xHigh);
        x->setTickCount(std::clamp(int(chart->plotArea().width() / 90) + 1, 2, kMaxTicks + 1));
    }
    qobject_cast<QValueAxis*>(m_accuracy->axes(Qt::Vertical).value(0))->setRange(0, 100);
    setNiceRange(*m_loss, qobject_cast<QValueAxis*>(m_loss->axes(Qt::Vertical).value(0)), std::max(lossHigh, 0.1));
    setNiceRange(*m_updates, qobject_cast<QValueAxis*>(m_updates->axes(Qt::Vertical).value(0)), std::max(updatesHigh, 1.0));
    fillTable();
}

void CompareWindow::fillTable() {
    m_table->setRowCount(int(m_runs.size()));
    const QLocale locale;
    for (int i = 0; i < m_runs.size(); ++i) {
        const RunCurves& r = m_runs[i];
        const engine::RunMetrics& m = r.metrics;
        const std::optional<double> shift = shiftOf(i);
        const QStringList cells{
            r.name,
            shift ? tr("%1 s").arg(locale.toString(*shift, 'f', 1)) : tr("no such event: from the start"),
            m.timeToTarget ? locale.toString(*m.timeToTarget, 'f', 1) : tr("not reached"),
            m.finalAccuracy >= 0 ? tr("%1%").arg(locale.toString(100 * m.finalAccuracy, 'f', 2)) : tr("–"),
            locale.toString(m.samplesPerSecond, 'f', 0),
            locale.toString(m.stalenessMean, 'f', 2),
            locale.toString(m.stalenessP99, 'f', 0),
            locale.toString(qulonglong(m.dropped))};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(i, c, item);
        }
    }
}

bool CompareWindow::exportCsv(const QString& path, QString* error) const {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(runComparisonCsv(m_runs).toUtf8()) < 0 ||
        !file.flush()) {
        *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void CompareWindow::chooseRecordings() {
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Recordings to compare"), {},
                                                            tr("SyncScope recordings (*.ssrec);;All files (*)"));
    addRecordings(paths);
}

void CompareWindow::chooseCsv() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the comparison"), QStringLiteral("comparison.csv"),
                                                      tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    m_status->setText(exportCsv(path, &error) ? tr("Wrote %1").arg(path) : error);
}

}  // namespace syncscope::ui
